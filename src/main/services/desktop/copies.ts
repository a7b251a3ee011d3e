import type { KeyName } from '../../../shared/ports/desktop';
import type { Keyboard } from './keyboard';

/**
 * Copy shortcuts and the clipboards that wait for them. An app takes keys in its own time, so a
 * clipboard read right after Ctrl+C could return the clipboard's old contents: a clipboard that
 * can tell when its contents change (X11 selection ownership, Windows' clipboard sequence number)
 * is told before each copy shortcut goes out, and its next read waits (bounded) for the change.
 */
export interface CopyAware {
  /** Call just before sending a copy shortcut. */
  expectCopy(): Promise<void>;
}

const COPY_SHORTCUTS = new Set(['control+c', 'control+x', 'control+insert', 'shift+delete', 'control+shift+c', 'control+shift+x']);

/** Whether `keys` is a copy (or cut) shortcut. */
export function isCopyShortcut(keys: readonly KeyName[]): boolean {
  return COPY_SHORTCUTS.has(keys.map((k) => k.toLowerCase()).join('+'));
}

/** The keyboard, telling the clipboard before each copy shortcut goes out. */
export function noticeCopies(keyboard: Keyboard, clipboard: CopyAware): Keyboard {
  return {
    typeText: (text) => keyboard.typeText(text),
    pressKey: (key) => keyboard.pressKey(key),
    hotkey: async (keys) => {
      if (isCopyShortcut(keys)) await clipboard.expectCopy();
      await keyboard.hotkey(keys);
    },
  };
}
