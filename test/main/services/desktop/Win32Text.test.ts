import { describe, expect, it } from 'vitest';
import {
  KEYEVENTF_KEYUP,
  KEYEVENTF_UNICODE,
  SendInputKeyboard,
  textRecords,
  type KeyRecord,
  type LayoutKey,
  type User32,
} from '../../../../src/main/services/desktop/Win32Text';
import type { Keyboard } from '../../../../src/main/services/desktop/keyboard';

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
    waitForInputIdle: async () => 'idle',
    requestClose: () => undefined,
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
    const keys: Keyboard = { typeText: async () => undefined, pressKey: async () => undefined, hotkey: async () => undefined };
    const user32 = fakeUser32({ sendKeyboard: (r) => (batches.push(r.length), r.length) });
    await new SendInputKeyboard(user32, keys).typeText('x'.repeat(200));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(400);
    expect(batches.length).toBeGreaterThan(1);

    const blocked = fakeUser32({ sendKeyboard: () => 0 });
    await expect(new SendInputKeyboard(blocked, keys).typeText('x')).rejects.toMatchObject({ code: 'input.blocked' });
  });
});
