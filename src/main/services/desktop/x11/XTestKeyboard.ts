import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyName } from '../../../../shared/ports/desktop';
import { describeValue } from '../../../../shared/errors';
import { DesktopError } from '../errors';
import type { Keyboard } from '../keyboard';
import { DEFAULT_MAX_REMAPS, Keymap, keysymForKey, NO_SYMBOL, planTyping, type KeyStroke, type TypingChunk } from './X11Keymap';
import type { X11Connection } from './X11Connection';

/** How fast to type into one kind of window. */
export interface TypingPace {
  /** Pause after each character. */
  charDelayMs: number;
  /**
   * How long a temporary keycode mapping stays after its last key before it is restored.
   * Clients look keys up in the mapping lazily; restoring it before they have handled the
   * key makes them see the old (empty) mapping and drop or change the character.
   */
  remapSettleMs: number;
}

/** GTK, Qt and most X clients keep up with fast input. */
export const NATIVE_PACE: TypingPace = { charDelayMs: 2, remapSettleMs: 250 };

/**
 * Wine turns a key into a character only when the program's message loop reaches it, through
 * the keymap current at that moment; on Xvfb Notepad handles about 60 keys per second.
 * Typing faster builds a backlog, and a backlog outlives a temporary remap (the characters
 * come out wrong). Keeping pace with the program costs nothing: it cannot go faster anyway.
 */
export const WINE_PACE: TypingPace = { charDelayMs: 16, remapSettleMs: 400 };

/** Options of XTestKeyboard. */
export interface XTestKeyboardOptions {
  /**
   * The pace for the focused window, by its WM_CLASS (`instance.class`, undefined without focus).
   * @default WINE_PACE for Wine windows (class `*.exe`), NATIVE_PACE otherwise
   */
  paceFor?: (windowClass: string | undefined) => TypingPace;
  /**
   * Spare keycodes remapped at once; a text with more distinct off-layout characters is typed
   * in several chunks. See DEFAULT_MAX_REMAPS for why Wine needs the low ones.
   * @default 7
   */
  maxRemaps?: number;
  /** The WM_CLASS of the focused window; XTestKeyboard asks the X11WindowManager. */
  focusedWindowClass?: () => Promise<string | undefined>;
}

/** The default pace: Wine's for Wine windows. */
export function defaultPace(windowClass: string | undefined): TypingPace {
  return windowClass && /\.exe(\.|$)/i.test(windowClass) ? WINE_PACE : NATIVE_PACE;
}

const XTEST_CURRENT_TIME = 0;

/**
 * Exact keyboard input on X11 through the XTEST extension: every character is turned into
 * its keysym, then into the keycode and Shift level the current layout has for it; characters
 * the layout lacks (é, ß, €...) are typed through spare keycodes remapped for the duration of
 * the call and restored afterwards. nut.js's `keyboard.type` cannot be used on X11: it looks
 * keycodes up without their level, so `A_B>C:D!` arrives as `A-B.C;D1`.
 */
export class XTestKeyboard implements Keyboard {
  private readonly maxRemaps: number;
  private readonly paceFor: (windowClass: string | undefined) => TypingPace;

  constructor(private readonly x: X11Connection, private readonly options: XTestKeyboardOptions = {}) {
    this.maxRemaps = options.maxRemaps ?? DEFAULT_MAX_REMAPS;
    this.paceFor = options.paceFor ?? defaultPace;
  }

  private async pace(): Promise<TypingPace> {
    const windowClass = await this.options.focusedWindowClass?.().catch(() => undefined);
    return this.paceFor(windowClass);
  }

  /** The current layout (re-read on every call: the user may switch layouts between calls). */
  async keymap(): Promise<Keymap> {
    const [rows, modifiers] = await Promise.all([this.x.keyboardMapping(), this.x.modifierMapping()]);
    return new Keymap(this.x.minKeycode, rows, modifiers);
  }

  async typeText(text: string): Promise<void> {
    if (text.length === 0) return;
    const [keymap, pace] = await Promise.all([this.keymap(), this.pace()]);
    for (const chunk of planTyping(text, keymap, this.maxRemaps)) await this.typeChunk(chunk, keymap, pace);
  }

  async pressKey(key: KeyName): Promise<void> {
    if ([...key].length === 1 && key !== ' ') return this.typeText(key);
    return this.hotkey([key]);
  }

  /** Presses the keys in order and releases them in reverse; a letter is its key, whatever its case. */
  async hotkey(keys: readonly KeyName[]): Promise<void> {
    const keymap = await this.keymap();
    const shift = keymap.shiftKeycode;
    const held: number[] = [];
    const remaps: TypingChunk['remaps'] = [];
    const spares = keymap.spareKeycodes();
    const xt = await this.x.xtest();
    try {
      for (const key of keys) {
        const single = [...key].length === 1;
        // Ctrl+S and Ctrl+s are the same shortcut: letters use their unshifted key.
        const keysym = keysymForKey(single ? key.toLowerCase() : key);
        let stroke: KeyStroke | undefined = keymap.locate(keysym);
        if (!stroke) {
          const keycode = spares[remaps.length];
          if (keycode === undefined) throw new DesktopError('input.no_spare_keycode', `Cannot press ${describeValue(key)}: it is not on the layout and no keycode is free to map it to`);
          remaps.push({ keycode, keysym });
          await this.applyRemaps([{ keycode, keysym }], keymap);
          stroke = { keycode, shift: false };
        }
        if (stroke.shift && !held.includes(shift)) {
          xt.FakeInput(xt.KeyPress, shift, XTEST_CURRENT_TIME, 0, 0, 0);
          held.push(shift);
        }
        if (!held.includes(stroke.keycode)) {
          xt.FakeInput(xt.KeyPress, stroke.keycode, XTEST_CURRENT_TIME, 0, 0, 0);
          held.push(stroke.keycode);
        }
      }
    } finally {
      for (const keycode of held.reverse()) xt.FakeInput(xt.KeyRelease, keycode, XTEST_CURRENT_TIME, 0, 0, 0);
      await this.x.sync();
      if (remaps.length) await this.restore(remaps, keymap, (await this.pace()).remapSettleMs);
    }
  }

  private async typeChunk(chunk: TypingChunk, keymap: Keymap, pace: TypingPace): Promise<void> {
    const xt = await this.x.xtest();
    const shift = keymap.shiftKeycode;
    let shiftDown = false;
    if (chunk.remaps.length) await this.applyRemaps(chunk.remaps, keymap);
    try {
      for (const stroke of chunk.strokes) {
        if (stroke.shift !== shiftDown) {
          xt.FakeInput(stroke.shift ? xt.KeyPress : xt.KeyRelease, shift, XTEST_CURRENT_TIME, 0, 0, 0);
          shiftDown = stroke.shift;
        }
        xt.FakeInput(xt.KeyPress, stroke.keycode, XTEST_CURRENT_TIME, 0, 0, 0);
        xt.FakeInput(xt.KeyRelease, stroke.keycode, XTEST_CURRENT_TIME, 0, 0, 0);
        if (pace.charDelayMs > 0) {
          await this.x.sync();
          await sleep(pace.charDelayMs);
        }
      }
    } finally {
      if (shiftDown) xt.FakeInput(xt.KeyRelease, shift, XTEST_CURRENT_TIME, 0, 0, 0);
      await this.x.sync();
      if (chunk.remaps.length) await this.restore(chunk.remaps, keymap, pace.remapSettleMs);
    }
  }

  private async applyRemaps(remaps: TypingChunk['remaps'], keymap: Keymap): Promise<void> {
    const width = Math.max(2, keymap.width);
    for (const { keycode, keysym } of remaps) {
      // Both levels get the keysym, so a held Shift (or Caps Lock) cannot change what it types.
      const row = new Array<number>(width).fill(NO_SYMBOL);
      row[0] = keysym;
      row[1] = keysym;
      this.x.raw.ChangeKeyboardMapping(keycode, width, row);
    }
    await this.x.sync();
  }

  private async restore(remaps: TypingChunk['remaps'], keymap: Keymap, settleMs: number): Promise<void> {
    await sleep(settleMs);
    for (const { keycode } of remaps) {
      const row = [...keymap.rowOf(keycode)];
      this.x.raw.ChangeKeyboardMapping(keycode, row.length, row);
    }
    await this.x.sync();
  }
}
