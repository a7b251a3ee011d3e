import { describe, expect, it } from 'vitest';
import { recordDesktopDemonstration, type HookKeyEvent, type InputHook } from '../../../../src/main/services/learning/DesktopRecorder';
import type { WindowInfo, WindowManager } from '../../../../src/shared/ports/desktop';

/** A hook the test fires by hand, as uiohook would: keys stamped with the display server's clock. */
function fakeHook() {
  const listeners: ((e: HookKeyEvent) => void)[] = [];
  const hook: InputHook = {
    on: (event: string, l: never) => void (event === 'keydown' && listeners.push(l)),
    removeAllListeners: () => void listeners.splice(0),
    start: () => undefined,
    stop: () => undefined,
  };
  const key = (keycode: number, time: number, mods: Partial<HookKeyEvent> = {}) =>
    listeners.forEach((l) => l({ keycode, time, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods }));
  return { hook, key };
}

const win = (title: string): WindowInfo => ({
  id: '0x1',
  title,
  className: 'pcmanfm.Pcmanfm',
  bounds: { x: 0, y: 0, width: 500, height: 400 },
});
const ENTER = 0x001c;
const N = 0x0031;

/**
 * Records a demonstration in which `perform` presses keys and tells of window changes by hand: the
 * window a poll would read stays "alpha" all along, so only the stamped changes can tell.
 */
async function record(perform: (key: ReturnType<typeof fakeHook>['key'], tell: (w: WindowInfo, time: number) => void) => void) {
  const { hook, key } = fakeHook();
  let tell: ((w: WindowInfo | undefined, time: number) => void) | undefined;
  const windows: WindowManager = {
    list: async () => [win('alpha')],
    active: async () => win('alpha'),
    focus: async () => undefined,
    close: async () => undefined,
    watchFront: async (listener) => {
      tell = listener;
      return async () => undefined;
    },
  };
  return recordDesktopDemonstration(
    { hook, windows },
    { app: 'pcmanfm', belongs: () => true, perform: async () => perform(key, (w, t) => tell!(w, t)) },
  );
}

describe('src/main/services/learning/DesktopRecorder', () => {
  it('gives each key the window of the last change before it by the server clock, however late the change is told', async () => {
    const trajectory = await record((key, tell) => {
      key(ENTER, 1000);
      // Enter retitled the window at 1005; the person pressed Ctrl+N at 1200 seeing the new title,
      // and the change is told only after both keys came.
      key(N, 1200, { ctrlKey: true });
      tell(win('bravo'), 1005);
    });
    expect(trajectory.steps.map((s) => [s.primitive.action, s.before?.title])).toEqual([
      ['focus_window', 'alpha'],
      ['key', 'alpha'],
      ['wait_until', 'bravo'],
      ['hotkey', 'bravo'],
    ]);
    expect(trajectory.steps[2]!.primitive).toMatchObject({ condition: { kind: 'window_title', pattern: '^bravo$' } });
  });

  it('compares server times across the 32-bit wrap', async () => {
    const trajectory = await record((key, tell) => {
      tell(win('bravo'), 0xffff_fff0);
      key(N, 5, { ctrlKey: true });
    });
    expect(trajectory.steps.map((s) => s.before?.title)).toEqual(['bravo', 'bravo']);
  });
});
