import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REMAPS, Keymap, keysymForChar, keysymForKey, planTyping } from '../../../../src/main/services/desktop/x11/X11Keymap';

// A US-like layout in the shape GetKeyboardMapping returns (7 keysyms per keycode, from keycode 8).
const MIN = 8;
const WIDTH = 7;
function usKeymap(): Keymap {
  const rows: number[][] = Array.from({ length: 248 }, () => new Array<number>(WIDTH).fill(0));
  const set = (keycode: number, lower: number | string, upper?: number | string) => {
    const sym = (s: number | string) => (typeof s === 'string' ? (s.codePointAt(0) as number) : s);
    const row = rows[keycode - MIN] as number[];
    row[0] = sym(lower);
    row[1] = upper === undefined ? 0 : sym(upper);
    row[2] = row[0];
    row[3] = row[1];
  };
  const digits = '1234567890';
  const shifted = '!@#$%^&*()';
  for (let i = 0; i < 10; i++) set(10 + i, digits[i] as string, shifted[i] as string);
  set(20, '-', '_');
  set(21, '=', '+');
  'qwertyuiop'.split('').forEach((c, i) => set(24 + i, c, c.toUpperCase()));
  set(34, '[', '{');
  set(35, ']', '}');
  set(36, 0xff0d); // Return
  'asdfghjkl'.split('').forEach((c, i) => set(38 + i, c, c.toUpperCase()));
  set(47, ';', ':');
  set(48, "'", '"');
  set(49, '`', '~');
  set(50, 0xffe1); // Shift_L
  set(51, '\\', '|');
  'zxcvbnm'.split('').forEach((c, i) => set(52 + i, c, c.toUpperCase()));
  set(59, ',', '<');
  set(60, '.', '>');
  set(61, '/', '?');
  set(23, 0xff09); // Tab
  set(65, ' ');
  set(94, '<', '>'); // the ISO key: `<` unshifted, but not where most apps expect it
  set(187, '('); // evdev's keypad parentheses: GTK accepts them, Wine drops them
  set(188, ')');
  // keycodes 8, 93, 97, 103, 120 ... stay empty: the spares
  for (const k of [9, 37, 62, 64, 66]) set(k, 0xffe3); // some modifier-ish keys so they are not spare
  const modifiers = [
    [50, 62],
    [66, 0],
    [37, 0],
    [64, 0],
    [0, 0],
    [0, 0],
    [0, 0],
    [0, 0],
  ];
  return new Keymap(MIN, rows, modifiers);
}

/** What the strokes would type on `keymap` with the chunk's remaps in force. */
function replay(text: string, keymap: Keymap): string {
  let out = '';
  for (const chunk of planTyping(text, keymap)) {
    const remapped = new Map(chunk.remaps.map((r) => [r.keycode, r.keysym]));
    for (const s of chunk.strokes) {
      const sym = remapped.get(s.keycode) ?? (keymap.rowOf(s.keycode)[s.shift ? 1 : 0] as number);
      out += sym === 0xff0d ? '\n' : sym === 0xff09 ? '\t' : String.fromCodePoint(sym >= 0x1000000 ? sym - 0x1000000 : sym);
    }
  }
  return out;
}

describe('src/main/services/desktop/x11/X11Keymap', () => {
  it('maps Latin-1 characters to their code points and others to Unicode keysyms', () => {
    expect(keysymForChar('a')).toBe(0x61);
    expect(keysymForChar('é')).toBe(0xe9);
    expect(keysymForChar('€')).toBe(0x10020ac);
    expect(keysymForChar('\n')).toBe(0xff0d);
    expect(keysymForChar('\t')).toBe(0xff09);
  });

  it('rejects control characters other than tab and newline', () => {
    expect(() => keysymForChar('\u0007')).toThrow(expect.objectContaining({ code: 'input.unsupported_char' }));
    expect(() => keysymForChar('ab')).toThrow(expect.objectContaining({ code: 'input.bad_char' }));
  });

  it('resolves named keys and single characters for shortcuts', () => {
    expect(keysymForKey('Control')).toBe(0xffe3);
    expect(keysymForKey('F5')).toBe(0xffc2);
    expect(keysymForKey('/')).toBe(0x2f);
    expect(() => keysymForKey('Ctrl')).toThrow(expect.objectContaining({ code: 'input.bad_key' }));
  });

  it('types shifted symbols with Shift on their own key, never the keypad parentheses', () => {
    const km = usKeymap();
    expect(km.locate('('.codePointAt(0) as number)).toEqual({ keycode: 18, shift: true });
    expect(km.locate('<'.codePointAt(0) as number)).toEqual({ keycode: 59, shift: true });
    expect(km.locate('_'.codePointAt(0) as number)).toEqual({ keycode: 20, shift: true });
    expect(km.locate('a'.codePointAt(0) as number)).toEqual({ keycode: 38, shift: false });
    expect(km.shiftKeycode).toBe(50);
  });

  it('offers only unused, non-modifier keycodes as spares, lowest first', () => {
    const spares = usKeymap().spareKeycodes();
    expect(spares.slice(0, 4)).toEqual([8, 22, 63, 67]);
    expect(spares).not.toContain(66); // a modifier
    expect(spares).not.toContain(187);
  });

  it('puts characters missing from the layout on spare keycodes, several chunks when needed', () => {
    const km = usKeymap();
    const text = 'éüßñÉÜÑÿ¿¡©«»°';
    const chunks = planTyping(text, km);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.remaps).toHaveLength(DEFAULT_MAX_REMAPS);
    expect(
      chunks.flatMap((c) => c.remaps.map((r) => r.keycode)).every((k) => km.spareKeycodes().slice(0, DEFAULT_MAX_REMAPS).includes(k)),
    ).toBe(true);
    expect(replay(text, km)).toBe(text);
  });

  it('reuses one spare keycode for a repeated character within a chunk', () => {
    const [chunk] = planTyping('ééé', usKeymap());
    expect(chunk?.remaps).toEqual([{ keycode: 8, keysym: 0xe9 }]);
    expect(chunk?.strokes).toHaveLength(3);
  });

  it('types CRLF as one Return', () => {
    expect(replay('a\r\nb', usKeymap())).toBe('a\nb');
  });

  it('reproduces every printable ASCII, Latin-1, tab and newline text exactly', () => {
    const km = usKeymap();
    const chars = [
      ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)),
      ...Array.from({ length: 96 }, (_, i) => String.fromCharCode(0xa0 + i)),
      '\t',
      '\n',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...chars), { maxLength: 120 }).map((a) => a.join('')),
        (text) => replay(text, km) === text,
      ),
      { numRuns: 300 },
    );
  });
});
