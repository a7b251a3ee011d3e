import { setTimeout as sleep } from 'node:timers/promises';
import { describeValue } from '../../../../shared/errors';
import type { KeyName } from '../../../../shared/ports/desktop';
import { DesktopError } from '../errors';
import type { Keyboard } from '../keyboard';
import { DEFAULT_MAX_REMAPS, Keymap, keysymForKey, NO_SYMBOL, planTyping, type KeyStroke, type Remap, type TypingChunk } from './X11Keymap';
import type { DrawingWatch, X11Connection } from './X11Connection';

/** How to type into one kind of window. */
export interface TypingPace {
  /** Pause after each character. */
  charDelayMs: number;
  /**
   * Before a borrowed keycode is given back (and before `typeText` returns, when `waitIdle`),
   * the window must have drawn nothing for this long: the app has then handled every key.
   * Clients look keys up in the mapping lazily; restoring it while they still have keys queued
   * makes those characters come out wrong or not at all.
   */
  idleMs: number;
  /** Whether `typeText` returns only once the window is idle (the app keeps a backlog of keys). */
  waitIdle: boolean;
  /** Spare keycodes borrowed at once (see DEFAULT_MAX_REMAPS); fewer means more, slower, chunks. */
  maxRemaps: number;
  /** Pause between the presses and releases of a shortcut (0: sent at once). */
  chordDelayMs: number;
}

/** GTK, Qt and most X clients keep up with fast input. */
export const NATIVE_PACE: TypingPace = { charDelayMs: 2, idleMs: 150, waitIdle: false, maxRemaps: 64, chordDelayMs: 0 };

/**
 * Wine turns a key into a character only when the program's message loop reaches it, with the
 * keymap of that moment; on Xvfb Notepad handles about 40-60 keys per second, fewer on long
 * lines. Pacing keeps the backlog small; waiting for idle makes `typeText` return when the
 * text has arrived, so what follows (a shortcut, a read) sees it.
 * A shortcut sent as four events at once (Alt+F4) left Notepad's menu bar in menu mode in 8 of
 * 40 tries, and menu mode swallowed every later click; 50 ms between the events: 0 of 40.
 */
export const WINE_PACE: TypingPace = { charDelayMs: 8, idleMs: 250, waitIdle: true, maxRemaps: DEFAULT_MAX_REMAPS, chordDelayMs: 50 };

/** The focused top-level window: its X id and WM_CLASS. */
export interface FocusTarget {
  wid: number;
  className?: string;
}

/** Options of XTestKeyboard. */
export interface XTestKeyboardOptions {
  /**
   * The pace for the focused window, by its WM_CLASS (`instance.class`, undefined without focus).
   * @default WINE_PACE for Wine windows (class `*.exe`), NATIVE_PACE otherwise
   */
  paceFor?: (windowClass: string | undefined) => TypingPace;
  /**
   * Spare keycodes remapped at once, whatever the pace says; a text with more distinct
   * off-layout characters is typed in several chunks.
   * @default the pace's `maxRemaps`
   */
  maxRemaps?: number;
  /** The focused window (from X11WindowManager); without it, idle waits are plain pauses. */
  focusTarget?: () => Promise<FocusTarget | undefined>;
}

/** The default pace: Wine's for Wine windows. */
export function defaultPace(windowClass: string | undefined): TypingPace {
  return windowClass && /\.exe(\.|$)/i.test(windowClass) ? WINE_PACE : NATIVE_PACE;
}

const XTEST_CURRENT_TIME = 0;
/** An app that keeps drawing (an animation) is declared idle after this long per key. */
const IDLE_CAP_BASE_MS = 5000;
const IDLE_CAP_PER_KEY_MS = 60;
const PRIME_PAUSE_MS = 30;

/**
 * Exact keyboard input on X11 through the XTEST extension: every character is turned into its
 * keysym, then into the keycode and Shift level the current layout has for it; characters the
 * layout lacks (é, ß, €...) are typed through spare keycodes remapped for the duration of the
 * call and restored afterwards (what xdotool does). nut.js's `keyboard.type` cannot be used on
 * X11: it looks keycodes up without their level, so `A_B>C:D!` arrives as `A-B.C;D1`.
 */
export class XTestKeyboard implements Keyboard {
  private readonly paceFor: (windowClass: string | undefined) => TypingPace;

  constructor(
    private readonly x: X11Connection,
    private readonly options: XTestKeyboardOptions = {},
  ) {
    this.paceFor = options.paceFor ?? defaultPace;
  }

  /** The current layout (re-read on every call: the user may switch layouts between calls). */
  async keymap(): Promise<Keymap> {
    const [rows, modifiers] = await Promise.all([this.x.keyboardMapping(), this.x.modifierMapping()]);
    return new Keymap(this.x.minKeycode, rows, modifiers);
  }

  async typeText(text: string): Promise<void> {
    if (text.length === 0) return;
    const [keymap, target] = await Promise.all([this.keymap(), this.options.focusTarget?.().catch(() => undefined)]);
    const pace = this.paceFor(target?.className);
    const watch = target ? await this.x.watchDrawing(target.wid) : undefined;
    try {
      // Wait out a Wine program that is still busy (starting up, redrawing): keys typed into a
      // window that has just appeared were seen to go missing.
      if (pace.waitIdle) await this.idle(watch, pace, 0);
      const chunks = planTyping(text, keymap, this.options.maxRemaps ?? pace.maxRemaps);
      for (const chunk of chunks) await this.typeChunk(chunk, keymap, pace, watch);
      if (pace.waitIdle && !chunks.some((c) => c.remaps.length > 0)) await this.idle(watch, pace, text.length);
    } finally {
      watch?.dispose();
    }
  }

  async pressKey(key: KeyName): Promise<void> {
    if ([...key].length === 1 && key !== ' ') return this.typeText(key);
    return this.hotkey([key]);
  }

  /** Presses the keys in order and releases them in reverse; a letter is its key, whatever its case. */
  async hotkey(keys: readonly KeyName[]): Promise<void> {
    const [keymap, target] = await Promise.all([this.keymap(), this.options.focusTarget?.().catch(() => undefined)]);
    const { chordDelayMs } = this.paceFor(target?.className);
    const shift = keymap.shiftKeycode;
    const held: number[] = [];
    const remaps: Remap[] = [];
    const spares = keymap.spareKeycodes();
    const xt = await this.x.xtest();
    try {
      for (const key of keys) {
        // Ctrl+S and Ctrl+s are the same shortcut: letters use their unshifted key.
        const keysym = keysymForKey([...key].length === 1 ? key.toLowerCase() : key);
        let stroke: KeyStroke | undefined = keymap.locate(keysym);
        if (!stroke) {
          const keycode = spares[remaps.length];
          if (keycode === undefined)
            throw new DesktopError(
              'input.no_spare_keycode',
              `Cannot press ${describeValue(key)}: it is not on the layout and no keycode is free to map it to`,
            );
          remaps.push({ keycode, keysym });
          await this.applyRemaps([{ keycode, keysym }], keymap);
          stroke = { keycode, shift: false };
        }
        if (stroke.shift && !held.includes(shift)) {
          await this.chordPause(held.length, chordDelayMs);
          xt.FakeInput(xt.KeyPress, shift, XTEST_CURRENT_TIME, 0, 0, 0);
          held.push(shift);
        }
        if (!held.includes(stroke.keycode)) {
          await this.chordPause(held.length, chordDelayMs);
          xt.FakeInput(xt.KeyPress, stroke.keycode, XTEST_CURRENT_TIME, 0, 0, 0);
          held.push(stroke.keycode);
        }
      }
    } finally {
      // Released in reverse order, paced like the presses (the first release follows the last press).
      for (const [i, keycode] of held.reverse().entries()) {
        await this.chordPause(i + 1, chordDelayMs);
        xt.FakeInput(xt.KeyRelease, keycode, XTEST_CURRENT_TIME, 0, 0, 0);
      }
      await this.x.sync();
      if (remaps.length) {
        await sleep(NATIVE_PACE.idleMs);
        await this.restore(remaps, keymap);
      }
    }
  }

  /** Before all but the first event of a chord: flush what was sent, then wait. */
  private async chordPause(eventsSent: number, delayMs: number): Promise<void> {
    if (delayMs <= 0 || eventsSent === 0) return;
    await this.x.sync();
    await sleep(delayMs);
  }

  private async typeChunk(chunk: TypingChunk, keymap: Keymap, pace: TypingPace, watch: DrawingWatch | undefined): Promise<void> {
    const xt = await this.x.xtest();
    const shift = keymap.shiftKeycode;
    let shiftDown = false;
    if (chunk.remaps.length) {
      // Observed on Wine 8: in a freshly started program whose first key event arrives after a
      // remap, the borrowed keycodes' characters are dropped. A lone Shift tap (inert in every
      // app) before the remap avoids it.
      xt.FakeInput(xt.KeyPress, shift, XTEST_CURRENT_TIME, 0, 0, 0);
      xt.FakeInput(xt.KeyRelease, shift, XTEST_CURRENT_TIME, 0, 0, 0);
      await this.x.sync();
      await sleep(PRIME_PAUSE_MS);
      await this.applyRemaps(chunk.remaps, keymap);
    }
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
      if (chunk.remaps.length) {
        await this.idle(watch, pace, chunk.strokes.length);
        await this.restore(chunk.remaps, keymap);
      }
    }
  }

  /**
   * Waits until the target window has drawn nothing for `pace.idleMs`: it has handled the keys.
   * Without XDAMAGE (or a focused window), waits `idleMs` plus a generous per-key allowance.
   */
  private async idle(watch: DrawingWatch | undefined, pace: TypingPace, keys: number): Promise<void> {
    const started = Date.now();
    if (!watch) {
      await sleep(pace.idleMs + (pace.waitIdle ? keys * 30 : 0));
      return;
    }
    const cap = started + IDLE_CAP_BASE_MS + keys * IDLE_CAP_PER_KEY_MS;
    await sleep(pace.idleMs);
    while (Date.now() - watch.lastDrawAt < pace.idleMs && Date.now() < cap) {
      await sleep(Math.max(10, pace.idleMs - (Date.now() - watch.lastDrawAt)));
    }
  }

  private async applyRemaps(remaps: readonly Remap[], keymap: Keymap): Promise<void> {
    const width = Math.max(2, keymap.width);
    await this.x.sync();
    for (const { keycode, keysym } of remaps) {
      // Both levels get the keysym, so a held Shift (or Caps Lock) cannot change what it types.
      const row = new Array<number>(width).fill(NO_SYMBOL);
      row[0] = keysym;
      row[1] = keysym;
      this.x.raw.ChangeKeyboardMapping(keycode, width, row);
    }
    await this.x.syncChecked('ChangeKeyboardMapping (borrowing a spare keycode)');
  }

  private async restore(remaps: readonly Remap[], keymap: Keymap): Promise<void> {
    for (const { keycode } of remaps) {
      const row = [...keymap.rowOf(keycode)];
      this.x.raw.ChangeKeyboardMapping(keycode, row.length, row);
    }
    await this.x.syncChecked('ChangeKeyboardMapping (restoring a spare keycode)');
  }
}
