import type { NutModule } from './nut';
import type { InputDriver, KeyName, MouseButton, Point } from '../../../shared/ports/desktop';
import type { Keyboard } from './keyboard';

/** Options of NutInputDriver. */
export interface NutInputDriverOptions {
  /**
   * Pause between the steps of a drag (press, move, release), so apps see a drag, not a click.
   * @default 50
   */
  dragStepMs?: number;
}

/**
 * Mouse input through nut.js; keyboard input through the given Keyboard: on X11 the exact
 * XTEST keyboard (nut.js drops Shift there), elsewhere nut.js's own (see NutKeyboard).
 */
export class NutInputDriver implements InputDriver {
  private readonly dragStepMs: number;

  constructor(
    private readonly nut: NutModule,
    private readonly keyboard: Keyboard,
    options: NutInputDriverOptions = {},
  ) {
    this.dragStepMs = options.dragStepMs ?? 50;
    // nut.js waits 100 ms after every mouse action by default; the executor paces itself.
    nut.mouse.config.autoDelayMs = 0;
  }

  pressKey(key: KeyName): Promise<void> {
    return this.keyboard.pressKey(key);
  }

  hotkey(keys: readonly KeyName[]): Promise<void> {
    return this.keyboard.hotkey(keys);
  }

  typeText(text: string): Promise<void> {
    return this.keyboard.typeText(text);
  }

  async click(at: Point, button: MouseButton, count: 1 | 2): Promise<void> {
    const { mouse } = this.nut;
    // Arrive with a motion event and let it land: a pointer already resting on the spot (the same
    // button of a new dialog) sends none, and Wine then dropped the click (seen on :94 when a test repeated).
    await mouse.setPosition(new this.nut.Point(Math.round(at.x) + 1, Math.round(at.y) + 1));
    await mouse.setPosition(new this.nut.Point(Math.round(at.x), Math.round(at.y)));
    await sleep(30);
    const b = this.button(button);
    if (count === 2 && button === 'left') await mouse.doubleClick(b);
    else {
      // Press and release with a short hold: a zero-length click was occasionally lost by Wine.
      for (let i = 0; i < count; i++) {
        await mouse.pressButton(b);
        await sleep(20);
        await mouse.releaseButton(b);
      }
    }
  }

  async drag(from: Point, to: Point): Promise<void> {
    const { mouse, Point: NutPoint, Button } = this.nut;
    await mouse.setPosition(new NutPoint(Math.round(from.x), Math.round(from.y)));
    await mouse.pressButton(Button.LEFT);
    try {
      await sleep(this.dragStepMs);
      // An intermediate point: some toolkits start a drag only after a motion past a threshold.
      await mouse.setPosition(new NutPoint(Math.round((from.x + to.x) / 2), Math.round((from.y + to.y) / 2)));
      await sleep(this.dragStepMs);
      await mouse.setPosition(new NutPoint(Math.round(to.x), Math.round(to.y)));
      await sleep(this.dragStepMs);
    } finally {
      await mouse.releaseButton(Button.LEFT);
    }
  }

  async scroll(at: Point | undefined, dx: number, dy: number): Promise<void> {
    const { mouse } = this.nut;
    if (at) await mouse.setPosition(new this.nut.Point(Math.round(at.x), Math.round(at.y)));
    // Positive dy scrolls down, positive dx right, in wheel notches.
    if (dy > 0) await mouse.scrollDown(dy);
    else if (dy < 0) await mouse.scrollUp(-dy);
    if (dx > 0) await mouse.scrollRight(dx);
    else if (dx < 0) await mouse.scrollLeft(-dx);
  }

  private button(button: MouseButton) {
    const { Button } = this.nut;
    switch (button) {
      case 'left':
        return Button.LEFT;
      case 'right':
        return Button.RIGHT;
      case 'middle':
        return Button.MIDDLE;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
