import { SkillDeskError } from '../../../shared/errors';
import { desktopSteps, type RecordedClick, type RecordedDesktopEvent, type RecordedKey } from '../../../shared/learning/desktopSteps';
import type { Trajectory } from '../../../shared/learning/trajectory';
import type { Point, WindowInfo, WindowManager } from '../../../shared/ports/desktop';
import type { ArgValues } from '../../../shared/skill';

/** A global input hook (uiohook-napi's shape): key and mouse events from the whole desktop. */
export interface InputHook {
  on(event: 'keydown', listener: (e: HookKeyEvent) => void): void;
  on(event: 'mousedown', listener: (e: HookMouseEvent) => void): void;
  removeAllListeners(event?: string): void;
  start(): void;
  stop(): void;
}
export interface HookKeyEvent {
  keycode: number;
  /** When it came, by the display server's clock (libuiohook passes X RECORD's server time on). */
  time?: number;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}
export interface HookMouseEvent {
  time?: number;
  x: number;
  y: number;
  button: number | unknown;
  clicks: number;
}

/** What is under a point: an accessible element (name, role) or a word read there; undefined when nothing can tell. */
export type ElementReader = (point: Point, window: WindowInfo) => Promise<{ name: string; role?: string } | { text: string } | undefined>;

/**
 * uiohook's key codes (X11 scan codes, libuiohook's VC_* values) as SkillDesk key names, and the
 * characters they type on a US layout, plain and shifted.
 */
const KEYS: Record<number, { key: string; char?: string; shifted?: string }> = (() => {
  const k: Record<number, { key: string; char?: string; shifted?: string }> = {};
  const row = (codes: number[], chars: string, shifted: string) =>
    codes.forEach((c, i) => (k[c] = { key: chars[i]!, char: chars[i]!, shifted: shifted[i]! }));
  row([0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x0008, 0x0009, 0x000a, 0x000b, 0x000c, 0x000d], '1234567890-=', '!@#$%^&*()_+');
  row([0x0010, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016, 0x0017, 0x0018, 0x0019, 0x001a, 0x001b], 'qwertyuiop[]', 'QWERTYUIOP{}');
  row([0x001e, 0x001f, 0x0020, 0x0021, 0x0022, 0x0023, 0x0024, 0x0025, 0x0026, 0x0027, 0x0028, 0x0029], "asdfghjkl;'`", 'ASDFGHJKL:"~');
  row([0x002b, 0x002c, 0x002d, 0x002e, 0x002f, 0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035], '\\zxcvbnm,./', '|ZXCVBNM<>?');
  k[0x0039] = { key: 'Space', char: ' ', shifted: ' ' };
  const named: [number, string][] = [
    [0x001c, 'Enter'],
    [0x000f, 'Tab'],
    [0x0001, 'Escape'],
    [0x000e, 'Backspace'],
    [0x0e53, 'Delete'],
    [0x0e52, 'Insert'],
    [0x0e47, 'Home'],
    [0x0e4f, 'End'],
    [0x0e49, 'PageUp'],
    [0x0e51, 'PageDown'],
    [0xe048, 'Up'],
    [0xe050, 'Down'],
    [0xe04b, 'Left'],
    [0xe04d, 'Right'],
    [0x0e48, 'Up'],
    [0x0e50, 'Down'],
    [0x0e4b, 'Left'],
    [0x0e4d, 'Right'],
    [0x003b, 'F1'],
    [0x003c, 'F2'],
    [0x003d, 'F3'],
    [0x003e, 'F4'],
    [0x003f, 'F5'],
    [0x0040, 'F6'],
    [0x0041, 'F7'],
    [0x0042, 'F8'],
    [0x0043, 'F9'],
    [0x0044, 'F10'],
    [0x0057, 'F11'],
    [0x0058, 'F12'],
  ];
  for (const [code, key] of named) k[code] = { key };
  return k;
})();

/** Modifier keys: held, not pressed as steps. */
const MODIFIERS = new Set([0x001d, 0x0e1d, 0x002a, 0x0036, 0x0038, 0x0e38, 0x0e5b, 0x0e5c]);

export interface DesktopDemonstration {
  /** The app the demonstration is about: input to its windows only is kept. */
  app: string;
  belongs: (w: WindowInfo) => boolean;
  method?: string;
  args?: ArgValues;
  /** What the person does; the recording ends when it resolves. */
  perform: () => Promise<void>;
}

/**
 * Records a desktop demonstration through a global input hook (uiohook-napi receives X11 input):
 * each key and click with the window in front when it came, and for a click what was under the
 * pointer (the accessible element, or the word read there); then `desktopSteps` makes steps of it.
 */
export async function recordDesktopDemonstration(
  deps: { hook: InputHook; windows: WindowManager; elementAt?: ElementReader },
  d: DesktopDemonstration,
): Promise<Trajectory> {
  const pending: Promise<{ event: RecordedDesktopEvent; time?: number }>[] = [];
  // The window in front when each event came. Where the window manager stamps its changes with the
  // clock the hook stamps input with (X11), an event takes the last change before it, exactly: the
  // key that retitles the window (Enter in a location bar) keeps the old title, the key given once
  // the new title shows takes the new one, however late either is read. Elsewhere the window read
  // last before the event came (a poll), which a key given at once after a retitle can miss.
  const first = await deps.windows.active().catch(() => undefined);
  let front = first;
  const changes: { time: number; window: WindowInfo | undefined }[] = [];
  const stopWatching = await deps.windows.watchFront?.((window, time) => {
    front = window;
    changes.push({ time, window });
  });
  let polling = stopWatching === undefined;
  const watch = (async () => {
    while (polling) {
      front = await deps.windows.active().catch(() => front);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  const windowAt = (time: number | undefined, read: WindowInfo | undefined) => {
    if (stopWatching === undefined || time === undefined) return read;
    let window = first;
    // Server times are 32-bit milliseconds: compared by their difference, across a wrap too.
    for (const c of changes) if (((c.time - time) | 0) < 0) window = c.window;
    return window;
  };
  deps.hook.on('keydown', (e) => {
    if (MODIFIERS.has(e.keycode)) return;
    const known = KEYS[e.keycode];
    if (!known) return;
    const window = front;
    const key: RecordedKey = {
      type: 'key',
      at: Date.now(),
      key: known.key,
      ...(known.char !== undefined && { char: e.shiftKey ? known.shifted : known.char }),
      ctrl: e.ctrlKey,
      alt: e.altKey,
      shift: e.shiftKey,
      meta: e.metaKey,
      ...(window && { window }),
    };
    pending.push(Promise.resolve({ event: key, time: e.time }));
  });
  deps.hook.on('mousedown', (e) => {
    const at = Date.now();
    const point = { x: e.x, y: e.y };
    const window = front;
    pending.push(
      (async () => {
        const element = window && deps.elementAt ? await deps.elementAt(point, window).catch(() => undefined) : undefined;
        const click: RecordedClick = {
          type: 'click',
          at,
          point,
          button: e.button === 2 ? 'right' : 'left',
          double: e.clicks >= 2,
          ...(window && { window }),
          ...(element && { element }),
        };
        return { event: click, time: e.time };
      })(),
    );
  });
  try {
    deps.hook.start();
  } catch (err) {
    throw new SkillDeskError(
      'record.no_hook',
      `The global input hook could not start (${(err as Error).message}): desktop recording needs a display with the RECORD extension`,
    );
  }
  try {
    await d.perform();
    // The last events' windows are still being read.
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    polling = false;
    await watch;
    await stopWatching?.();
    deps.hook.stop();
    deps.hook.removeAllListeners('keydown');
    deps.hook.removeAllListeners('mousedown');
  }
  const events = (await Promise.all(pending))
    .map(({ event, time }): RecordedDesktopEvent => {
      const { window: read, ...rest } = event;
      const window = windowAt(time, read);
      return { ...rest, ...(window && { window }) };
    })
    .sort((a, b) => a.at - b.at);
  return {
    kind: 'trajectory',
    app: d.app,
    source: 'desktop',
    ...(d.method && { method: d.method }),
    args: d.args ?? {},
    steps: desktopSteps(events, d.belongs),
    recordedAt: Date.now(),
  };
}
