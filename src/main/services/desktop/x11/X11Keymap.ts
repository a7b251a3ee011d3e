import { describeValue } from '../../../../shared/errors';
import type { NamedKey } from '../../../../shared/ports/desktop';
import { DesktopError } from '../errors';

/**
 * Pure keyboard-mapping logic for exact text entry on X11: which keysym a character is,
 * which keycode (and Shift level) produces it on the current layout, and how to type the
 * characters the layout lacks through spare keycodes that are remapped for the occasion
 * (what xdotool does). No I/O here, so it is unit-tested without a display.
 */

export const NO_SYMBOL = 0;

/** Keysyms of the named keys (X11/keysymdef.h). */
export const NAMED_KEYSYMS: Record<NamedKey, number> = {
  Control: 0xffe3,
  Shift: 0xffe1,
  Alt: 0xffe9,
  Super: 0xffeb,
  Enter: 0xff0d,
  Tab: 0xff09,
  Escape: 0xff1b,
  Backspace: 0xff08,
  Delete: 0xffff,
  Insert: 0xff63,
  Space: 0x20,
  Up: 0xff52,
  Down: 0xff54,
  Left: 0xff51,
  Right: 0xff53,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55,
  PageDown: 0xff56,
  F1: 0xffbe,
  F2: 0xffbf,
  F3: 0xffc0,
  F4: 0xffc1,
  F5: 0xffc2,
  F6: 0xffc3,
  F7: 0xffc4,
  F8: 0xffc5,
  F9: 0xffc6,
  F10: 0xffc7,
  F11: 0xffc8,
  F12: 0xffc9,
  Menu: 0xff67,
  PrintScreen: 0xff61,
  CapsLock: 0xffe5,
};

const KEYSYM_RETURN = 0xff0d;
const KEYSYM_TAB = 0xff09;

/**
 * The keysym that types `ch` (one code point). Latin-1 keysyms equal their code points;
 * everything else uses the Unicode keysym range (0x1000000 + code point). Tab and newline
 * map to the Tab and Return keys.
 */
export function keysymForChar(ch: string): number {
  const cp = ch.codePointAt(0);
  if (cp === undefined || String.fromCodePoint(cp) !== ch) {
    throw new DesktopError('input.bad_char', `Expected one character, got ${describeValue(ch)}`);
  }
  if (ch === '\n' || ch === '\r') return KEYSYM_RETURN;
  if (ch === '\t') return KEYSYM_TAB;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
    throw new DesktopError(
      'input.unsupported_char',
      `Cannot type control character U+${cp.toString(16).padStart(4, '0').toUpperCase()}; only tab and newline are typed as keys`,
    );
  }
  return 0x1000000 + cp;
}

/** The keysym of a key name (`Enter`, `F5`) or of a single character (`a`, `/`). */
export function keysymForKey(key: string): number {
  if (Object.hasOwn(NAMED_KEYSYMS, key)) return NAMED_KEYSYMS[key as NamedKey];
  if ([...key].length === 1) return keysymForChar(key);
  throw new DesktopError(
    'input.bad_key',
    `Expected a key name (${Object.keys(NAMED_KEYSYMS).slice(0, 6).join(', ')}, ...) or one character, got ${describeValue(key)}`,
  );
}

/** One key to tap: its keycode and whether Shift must be held. */
export interface KeyStroke {
  keycode: number;
  shift: boolean;
}

/** The server's keyboard mapping at one moment. */
export class Keymap {
  /** keysym -> its stroke (the lowest keycode, level 1 before level 2 on the same key). */
  private readonly strokes = new Map<number, KeyStroke>();
  private readonly modifierKeycodes: Set<number>;
  /** Keysyms per keycode, as the server reported. */
  readonly width: number;

  /**
   * @param minKeycode the first keycode `rows` describes
   * @param rows keysyms per keycode (GetKeyboardMapping)
   * @param modifiers the eight modifier rows (GetModifierMapping): Shift, Lock, Control, Mod1..Mod5
   */
  constructor(
    readonly minKeycode: number,
    readonly rows: readonly (readonly number[])[],
    readonly modifiers: readonly (readonly number[])[],
  ) {
    this.width = rows[0]?.length ?? 0;
    this.modifierKeycodes = new Set(modifiers.flat().filter((k) => k !== 0));
    // Only the first two columns (group 1, levels 1-2) are reliable across XKB layouts; a
    // keysym reachable only through AltGr or a second group is typed through a spare keycode.
    // The lowest keycode wins: evdev also puts `(` and `)` on unshifted keycodes 187/188 (the
    // keypad parentheses), which GTK accepts but Wine ignores; Shift+9 works everywhere.
    rows.forEach((row, i) => {
      for (const level of [0, 1] as const) {
        const sym = row[level] ?? NO_SYMBOL;
        if (sym !== NO_SYMBOL && !this.strokes.has(sym)) this.strokes.set(sym, { keycode: minKeycode + i, shift: level === 1 });
      }
    });
  }

  /** How to type `keysym` on this layout, if it is there. */
  locate(keysym: number): KeyStroke | undefined {
    return this.strokes.get(keysym);
  }

  /** The keycode that produces `keysym` without modifiers, or with Shift. */
  keycodeOf(keysym: number): number | undefined {
    return this.strokes.get(keysym)?.keycode;
  }

  /** The keycode of the first Shift key. */
  get shiftKeycode(): number {
    const k = this.modifiers[0]?.find((c) => c !== 0);
    if (k === undefined) throw new DesktopError('input.no_shift', 'The X keyboard mapping has no Shift modifier key');
    return k;
  }

  /** Keycodes with no keysym and no modifier role: free to remap temporarily. */
  spareKeycodes(): number[] {
    const out: number[] = [];
    this.rows.forEach((row, i) => {
      const keycode = this.minKeycode + i;
      if (keycode >= 8 && row.every((s) => s === NO_SYMBOL) && !this.modifierKeycodes.has(keycode)) out.push(keycode);
    });
    return out;
  }

  /** The current keysyms of `keycode` (to restore it after a remap). */
  rowOf(keycode: number): readonly number[] {
    const row = this.rows[keycode - this.minKeycode];
    if (!row)
      throw new DesktopError(
        'input.bad_keycode',
        `Expected a keycode in ${this.minKeycode}..${this.minKeycode + this.rows.length - 1}, got ${keycode}`,
      );
    return row;
  }
}

/** A spare keycode temporarily given a keysym. */
export interface Remap {
  keycode: number;
  keysym: number;
}

/** A stretch of text typed under one temporary mapping. */
export interface TypingChunk {
  remaps: Remap[];
  strokes: KeyStroke[];
}

/**
 * How many spare keycodes one chunk may remap. Wine turns X keycodes into Windows scan codes
 * by counting unknown keys upwards, and with the evdev keymap the characters on spare keycodes
 * above 153 never reach the application; the seven lowest spares (8, 93, 97, 103, 120, 132,
 * 149) do. Other clients accept any spare.
 */
export const DEFAULT_MAX_REMAPS = 7;

/**
 * Splits `text` into chunks of strokes. Characters on the layout are typed with their keycode
 * (plus Shift on level 2); others get one of the lowest `maxRemaps` spare keycodes for the
 * chunk. A new chunk starts when those run out, so any number of distinct characters can be
 * typed. `\r\n` is one Return.
 */
export function planTyping(text: string, keymap: Keymap, maxRemaps = DEFAULT_MAX_REMAPS): TypingChunk[] {
  const spares = keymap.spareKeycodes().slice(0, Math.max(1, maxRemaps));
  const chunks: TypingChunk[] = [];
  let current: TypingChunk = { remaps: [], strokes: [] };
  let assigned = new Map<number, number>();
  const chars = [...text.replace(/\r\n/g, '\n')];
  for (const ch of chars) {
    const keysym = keysymForChar(ch);
    const onLayout = keymap.locate(keysym);
    if (onLayout) {
      current.strokes.push(onLayout);
      continue;
    }
    let keycode = assigned.get(keysym);
    if (keycode === undefined) {
      if (spares.length === 0) {
        throw new DesktopError(
          'input.no_spare_keycode',
          `Cannot type ${describeValue(ch)}: it is not on the keyboard layout and the layout has no unused keycode to map it to`,
        );
      }
      if (assigned.size === spares.length) {
        chunks.push(current);
        current = { remaps: [], strokes: [] };
        assigned = new Map();
      }
      keycode = spares[assigned.size] as number;
      assigned.set(keysym, keycode);
      current.remaps.push({ keycode, keysym });
    }
    current.strokes.push({ keycode, shift: false });
  }
  if (current.strokes.length > 0 || chunks.length === 0) chunks.push(current);
  return chunks;
}
