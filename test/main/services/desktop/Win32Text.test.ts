import { describe, expect, it } from 'vitest';
import {
  KEYEVENTF_KEYUP,
  KEYEVENTF_UNICODE,
  SendInputKeyboard,
  textRecords,
  type KeyRecord,
  type User32,
} from '../../../../src/main/services/desktop/Win32Text';
import type { Keyboard } from '../../../../src/main/services/desktop/keyboard';

/** What a record sequence would type: unicode key-downs as characters, Enter and Tab as \n and \t. */
function typed(records: readonly KeyRecord[]): string {
  const units: number[] = [];
  for (const r of records) {
    if (r.flags & KEYEVENTF_KEYUP) continue;
    if (r.flags & KEYEVENTF_UNICODE) units.push(r.scan);
    else units.push(r.vk === 0x0d ? 10 : r.vk === 0x09 ? 9 : -1);
  }
  return String.fromCharCode(...units);
}

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const LATIN1 = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0xa0 + i)).join('');

describe('src/main/services/desktop/Win32Text', () => {
  it('types every printable ASCII and Latin-1 character, tabs, newlines and astral characters exactly', () => {
    const text = `${PRINTABLE}\t${LATIN1}\nC:\\Users\\Public\\x (1).txt 😀`;
    const records = textRecords(text);
    expect(typed(records)).toBe(text);
    // Every key goes down, then up.
    expect(records.filter((r) => r.flags & KEYEVENTF_KEYUP).length * 2).toBe(records.length);
  });

  it('sends CRLF and lone CR as one Enter', () => {
    expect(typed(textRecords('a\r\nb\rc'))).toBe('a\nb\nc');
  });

  it('sends long text in chunks and fails when Windows blocks input', async () => {
    const batches: number[] = [];
    const keys: Keyboard = { typeText: async () => undefined, pressKey: async () => undefined, hotkey: async () => undefined };
    const user32: User32 = { sendKeyboard: (r) => (batches.push(r.length), r.length), clipboardSequence: () => 0 };
    await new SendInputKeyboard(user32, keys).typeText('x'.repeat(200));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(400);
    expect(batches.length).toBeGreaterThan(1);

    const blocked: User32 = { sendKeyboard: () => 0, clipboardSequence: () => 0 };
    await expect(new SendInputKeyboard(blocked, keys).typeText('x')).rejects.toMatchObject({ code: 'input.blocked' });
  });
});
