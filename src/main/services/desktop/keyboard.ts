import type { KeyName } from '../../../shared/ports/desktop';

/** The keyboard half of an InputDriver: nut.js on Windows and macOS, XTEST on X11 (see XTestKeyboard). */
export interface Keyboard {
  pressKey(key: KeyName): Promise<void>;
  hotkey(keys: readonly KeyName[]): Promise<void>;
  typeText(text: string): Promise<void>;
}
