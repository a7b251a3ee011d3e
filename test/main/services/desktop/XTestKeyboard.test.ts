import { describe, expect, it } from 'vitest';
import type { X11Connection } from '../../../../src/main/services/desktop/x11/X11Connection';
import { XTestKeyboard } from '../../../../src/main/services/desktop/x11/XTestKeyboard';

const MIN = 8;
const ALT = 64;
const F4 = 70;
const SHIFT = 50;

/** An X connection that records the XTEST events it is sent and when they were flushed. */
function fakeX() {
  const rows: number[][] = Array.from({ length: 248 }, () => new Array<number>(4).fill(0));
  rows[ALT - MIN]![0] = 0xffe9;
  rows[F4 - MIN]![0] = 0xffc1;
  rows[SHIFT - MIN]![0] = 0xffe1;
  const sent: { type: 'press' | 'release'; keycode: number; at: number }[] = [];
  const flushed: number[] = [];
  const xt = {
    KeyPress: 2,
    KeyRelease: 3,
    FakeInput: (type: number, keycode: number) => sent.push({ type: type === 2 ? 'press' : 'release', keycode, at: performance.now() }),
  };
  const x = {
    minKeycode: MIN,
    keyboardMapping: async () => rows,
    modifierMapping: async () => [
      [SHIFT, 0],
      [0, 0],
      [0, 0],
      [ALT, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [0, 0],
    ],
    xtest: async () => xt,
    sync: async () => {
      flushed.push(sent.length);
    },
  } as unknown as X11Connection;
  return { x, sent, flushed };
}

describe('src/main/services/desktop/x11/XTestKeyboard (shortcuts)', () => {
  it('sends a shortcut to a native window as one burst: presses in order, releases in reverse', async () => {
    const { x, sent, flushed } = fakeX();
    await new XTestKeyboard(x, { focusTarget: async () => ({ wid: 1, className: 'mousepad.Mousepad' }) }).hotkey(['Alt', 'F4']);
    expect(sent.map((e) => `${e.type} ${e.keycode}`)).toEqual([`press ${ALT}`, `press ${F4}`, `release ${F4}`, `release ${ALT}`]);
    expect(flushed).toEqual([4]);
  });

  it('paces a shortcut to a Wine window: every event is flushed and followed by a pause before the next', async () => {
    const { x, sent, flushed } = fakeX();
    await new XTestKeyboard(x, { focusTarget: async () => ({ wid: 1, className: 'notepad.exe.Notepad.exe' }) }).hotkey(['Alt', 'F4']);
    expect(sent.map((e) => `${e.type} ${e.keycode}`)).toEqual([`press ${ALT}`, `press ${F4}`, `release ${F4}`, `release ${ALT}`]);
    expect(flushed).toEqual([1, 2, 3, 4]);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(45);
  });
});
