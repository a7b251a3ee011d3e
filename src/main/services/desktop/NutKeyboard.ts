import type { NutModule } from './nut';
import { describeValue } from '../../../shared/errors';
import type { KeyName, NamedKey } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import type { Keyboard } from './keyboard';

type NutKey = NutModule['Key'][keyof NutModule['Key']];

const NAMED: Record<NamedKey, string> = {
  Control: 'LeftControl',
  Shift: 'LeftShift',
  Alt: 'LeftAlt',
  Super: 'LeftSuper',
  Enter: 'Enter',
  Tab: 'Tab',
  Escape: 'Escape',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Space: 'Space',
  Up: 'Up',
  Down: 'Down',
  Left: 'Left',
  Right: 'Right',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  F1: 'F1',
  F2: 'F2',
  F3: 'F3',
  F4: 'F4',
  F5: 'F5',
  F6: 'F6',
  F7: 'F7',
  F8: 'F8',
  F9: 'F9',
  F10: 'F10',
  F11: 'F11',
  F12: 'F12',
  Menu: 'Menu',
  PrintScreen: 'Print',
  CapsLock: 'CapsLock',
};

/** Unshifted punctuation keys of the US layout, as nut.js names them (for shortcuts such as Ctrl+/). */
const PUNCTUATION: Record<string, string> = {
  '`': 'Grave',
  '-': 'Minus',
  '=': 'Equal',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  ';': 'Semicolon',
  "'": 'Quote',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
  ' ': 'Space',
};

/**
 * The keyboard through nut.js, for macOS (Windows has SendInputKeyboard). There `keyboard.type`
 * is exact. Newlines and tabs are pressed as keys,
 * because a Unicode U+000A is not what Enter sends.
 */
export class NutKeyboard implements Keyboard {
  constructor(private readonly nut: NutModule) {
    nut.keyboard.config.autoDelayMs = 0;
  }

  async typeText(text: string): Promise<void> {
    const { keyboard, Key } = this.nut;
    for (const part of text.replace(/\r\n/g, '\n').split(/([\n\t])/)) {
      if (part === '\n') await keyboard.type(Key.Enter);
      else if (part === '\t') await keyboard.type(Key.Tab);
      else if (part) await keyboard.type(part);
    }
  }

  async pressKey(key: KeyName): Promise<void> {
    if ([...key].length === 1 && !(key in PUNCTUATION) && !/^[a-z0-9]$/i.test(key)) return this.typeText(key);
    await this.hotkey([key]);
  }

  async hotkey(keys: readonly KeyName[]): Promise<void> {
    const codes = keys.map((k) => this.keyOf(k));
    // nut.js takes the last key as the key and the others as its modifiers, for the press and
    // for the release alike: releasing in reverse order would make the key a "modifier", which
    // libnut refuses for keys such as End ("Invalid key flag specified"). It releases the key
    // first, then the modifiers.
    await this.nut.keyboard.pressKey(...codes);
    await this.nut.keyboard.releaseKey(...codes);
  }

  private keyOf(key: KeyName): NutKey {
    const Key = this.nut.Key as unknown as Record<string, NutKey>;
    let name: string | undefined;
    if (Object.hasOwn(NAMED, key)) name = NAMED[key as NamedKey];
    else if (/^[a-z]$/i.test(key)) name = key.toUpperCase();
    else if (/^[0-9]$/.test(key)) name = `Num${key}`;
    else name = PUNCTUATION[key];
    const code = name === undefined ? undefined : Key[name];
    if (code === undefined) {
      throw new DesktopError(
        'input.bad_key',
        `Expected a key name or a letter, digit or unshifted punctuation key for a shortcut, got ${describeValue(key)}`,
      );
    }
    return code;
  }
}
