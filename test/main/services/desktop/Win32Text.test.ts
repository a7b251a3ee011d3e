import { describe, expect, it } from 'vitest';
import {
  KEYEVENTF_EXTENDEDKEY,
  KEYEVENTF_KEYUP,
  KEYEVENTF_UNICODE,
  SendInputKeyboard,
  shortcutRecords,
  textRecords,
  type KeyRecord,
  type LayoutKey,
  type User32,
} from '../../../../src/main/services/desktop/Win32Text';

/** A US-like layout for letters, digits and ( ): what VkKeyScanW answers; the rest has no key here. */
function usLayout(ch: string): LayoutKey | undefined {
  if (/^[a-z0-9 ]$/.test(ch)) return { vk: ch.toUpperCase().charCodeAt(0), scan: 1, shift: false };
  if (/^[A-Z]$/.test(ch)) return { vk: ch.charCodeAt(0), scan: 1, shift: true };
  if (ch === '(' || ch === ')') return { vk: ch === '(' ? 0x39 : 0x30, scan: 1, shift: true };
  return undefined;
}

/** What a record sequence types on that layout: keys with the Shift state, Unicode packets as themselves. */
function typed(records: readonly KeyRecord[]): string {
  const units: number[] = [];
  let shift = false;
  for (const r of records) {
    const up = (r.flags & KEYEVENTF_KEYUP) !== 0;
    if (r.vk === 0x10) shift = !up;
    else if (up) continue;
    else if (r.flags & KEYEVENTF_UNICODE) units.push(r.scan);
    else if (r.vk === 0x0d || r.vk === 0x09) units.push(r.vk === 0x0d ? 10 : 9);
    else if (r.vk >= 0x41 && r.vk <= 0x5a) units.push(shift ? r.vk : r.vk + 32);
    else if (shift) units.push(r.vk === 0x39 ? 40 : r.vk === 0x30 ? 41 : -1);
    else units.push(r.vk);
  }
  return String.fromCharCode(...units);
}

/** A user32 that accepts every key event and has an empty clipboard. */
function fakeUser32(over: Partial<User32> = {}): User32 {
  return {
    sendKeyboard: (r) => r.length,
    clipboardSequence: () => 0,
    layoutKey: () => undefined,
    scanCode: (vk) => vk + 0x100,
    waitForInputIdle: async () => 'idle',
    requestClose: () => undefined,
    keyFocus: async (h) => h,
    owner: () => 0,
    readClipboard: async () => '',
    writeClipboard: async () => undefined,
    ...over,
  };
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const LATIN1 = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0xa0 + i)).join('');

describe('src/main/services/desktop/Win32Text', () => {
  it('types every printable ASCII and Latin-1 character, tabs, newlines and astral characters exactly', () => {
    const text = `${PRINTABLE}\t${LATIN1}\nC:\\Users\\Public\\x (1).txt 😀`;
    // Without a layout every character goes as Unicode; with one, as the layout's keys where it has them.
    for (const layout of [undefined, usLayout]) {
      const records = textRecords(text, layout);
      expect(typed(records)).toBe(text);
      expect(records.filter((r) => r.flags & KEYEVENTF_KEYUP).length * 2).toBe(records.length);
    }
    const keyed = textRecords('Ab(é', usLayout);
    expect(keyed.filter((r) => r.flags & KEYEVENTF_UNICODE).map((r) => String.fromCharCode(r.scan))).toEqual(['é', 'é']);
    expect(keyed.filter((r) => r.vk === 0x10).length).toBe(4);
  });

  it('sends CRLF and lone CR as one Enter', () => {
    expect(typed(textRecords('a\r\nb\rc'))).toBe('a\nb\nc');
  });

  it('sends long text in chunks and fails when Windows blocks input', async () => {
    const batches: number[] = [];
    const user32 = fakeUser32({ sendKeyboard: (r) => (batches.push(r.length), r.length) });
    await new SendInputKeyboard(user32).typeText('x'.repeat(200));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(400);
    expect(batches.length).toBeGreaterThan(1);

    const blocked = fakeUser32({ sendKeyboard: () => 0 });
    await expect(new SendInputKeyboard(blocked).typeText('x')).rejects.toMatchObject({ code: 'input.blocked' });
  });

  it('sends a shortcut as one batch: presses in order, releases in reverse, extended keys flagged', async () => {
    const batches: KeyRecord[][] = [];
    const slash: LayoutKey = { vk: 0xbf, scan: 0x35, shift: false };
    const user32 = fakeUser32({
      sendKeyboard: (r) => (batches.push([...r]), r.length),
      layoutKey: (ch) => (ch === '/' ? slash : usLayout(ch)),
    });
    const kb = new SendInputKeyboard(user32);
    await kb.hotkey(['Shift', 'End']);
    expect(batches).toEqual([
      [
        { vk: 0x10, scan: 0x110, flags: 0 },
        { vk: 0x23, scan: 0x123, flags: KEYEVENTF_EXTENDEDKEY },
        { vk: 0x23, scan: 0x123, flags: KEYEVENTF_EXTENDEDKEY | KEYEVENTF_KEYUP },
        { vk: 0x10, scan: 0x110, flags: KEYEVENTF_KEYUP },
      ],
    ]);
    expect(shortcutRecords(['Control', 'Shift', 's'], user32).map((r) => r.vk)).toEqual([0x11, 0x10, 0x53, 0x53, 0x10, 0x11]);
    expect(shortcutRecords(['Control', '/'], user32)[1]).toEqual({ vk: 0xbf, scan: 0x35, flags: 0 });
    // A character with no unshifted key cannot be a shortcut's key, and is typed by pressKey.
    expect(() => shortcutRecords(['Control', '('], user32)).toThrow(/unshifted punctuation/);
    batches.length = 0;
    await kb.pressKey('(');
    expect(typed(batches.flat())).toBe('(');
    batches.length = 0;
    await kb.pressKey('a');
    expect(batches).toEqual([
      [
        { vk: 0x41, scan: 0x141, flags: 0 },
        { vk: 0x41, scan: 0x141, flags: KEYEVENTF_KEYUP },
      ],
    ]);
    await expect(new SendInputKeyboard(fakeUser32({ sendKeyboard: () => 1 })).hotkey(['Control', 'o'])).rejects.toMatchObject({
      code: 'input.blocked',
    });
  });
});
