import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import type { WindowInfo, WindowManager } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';

/**
 * The slice of node-window-manager's native addon used here. The addon is called directly: the
 * package's JavaScript layer loads `extract-file-icon` (a second native module, for window icons
 * SkillDesk never shows) as soon as a window object is made.
 */
export interface NwmAddon {
  getWindows(): number[];
  /** GetForegroundWindow: 0 when no window is in the foreground. */
  getActiveWindow(): number;
  getWindowTitle(handle: number): string;
  getWindowBounds(handle: number): { x: number; y: number; width: number; height: number };
  /** Process id and executable path ('' when the process cannot be opened). */
  initWindow(handle: number): { processId: number; path: string };
  isWindow(handle: number): boolean;
  isWindowVisible(handle: number): boolean;
  getMonitors(): number[];
  getMonitorInfo(monitor: number): { bounds: { x: number; y: number; width: number; height: number }; isPrimary: boolean };
  getMonitorScaleFactor(monitor: number): number;
}

/**
 * Loads node-window-manager's addon the way the package does (node-gyp-build: `build/Release`
 * from a local build, else `prebuilds/win32-x64`), or explains how to get it.
 */
export function loadNodeWindowManager(): NwmAddon {
  try {
    const local = createRequire(__filename);
    const pkg = local.resolve('node-window-manager/package.json');
    const fromPkg = createRequire(pkg);
    const nodeGypBuild = fromPkg('node-gyp-build') as (dir: string) => NwmAddon;
    return nodeGypBuild(dirname(pkg));
  } catch (err) {
    throw new DesktopError(
      'desktop.no_window_manager',
      `Windows needs node-window-manager's native addon, built for this machine (\`npm rebuild node-window-manager\`, or a prebuild under its prebuilds/win32-x64): ${(err as Error).message}`,
    );
  }
}

/** Focus is confirmed by polling the foreground window for this long. */
const FOCUS_WAIT_MS = 2_000;
const FOCUS_POLL_MS = 20;
const SETTLE_WAIT_MS = 2_000;
/** How long the keyboard focus must stay in one control before keys are sent (see `awaitKeys`). */
const STEADY_FOCUS_MS = 200;

/** What the window manager cannot do with node-window-manager alone, given by the composition root. */
export interface Win32WindowActions {
  /**
   * Brings a window to the foreground (nut.js's `focusWindow`: restore if minimised, then
   * SetForegroundWindow). Not node-window-manager's `bringToTop`: after SetForegroundWindow it
   * attaches to the foreground thread and calls SetFocus/SetActiveWindow on another process's
   * window, which can leave no foreground window at all (seen under Wine: GetForegroundWindow
   * then answers 0, and keystrokes go nowhere).
   */
  raise(handle: number): Promise<void>;
  /** Asks a window to close as its title-bar button does; the program may still ask to save. */
  close(handle: number): void;
  /**
   * Resolves once a newly started process is ready for input (WaitForInputIdle, bounded): its
   * window can show before it takes keys.
   */
  settle?(pid: number): Promise<unknown>;
  /**
   * Where the window's keys go: once its thread answers a message within `timeoutMs` (it is in
   * its message loop), the window or its control that has the keyboard focus; undefined while the
   * thread does not answer or the focus is outside the window.
   */
  keyFocus?(handle: number, timeoutMs: number): Promise<number | undefined>;
  /** The window's owner window (0 when none): an owned window is a dialog. */
  owner?(handle: number): number;
}

/** Windows on Win32: listing and facts through node-window-manager's addon, raising through nut.js. */
export class NodeWindowManager implements WindowManager {
  constructor(
    private readonly addon: NwmAddon,
    private readonly actions: Win32WindowActions,
  ) {}

  async list(): Promise<WindowInfo[]> {
    const out: WindowInfo[] = [];
    for (const handle of this.addon.getWindows()) {
      if (!this.addon.isWindowVisible(handle)) continue;
      const w = this.describe(handle);
      // Titled windows of a process SkillDesk can see are the ones a person could switch to.
      if (w && w.title !== '') out.push(w);
    }
    return out;
  }

  async active(): Promise<WindowInfo | undefined> {
    // 0 while no window is in the foreground, e.g. between one window losing focus and the next
    // one getting it: "no active window", not a window without a title.
    const handle = this.addon.getActiveWindow();
    return handle ? this.describe(handle) : undefined;
  }

  async focus(id: string): Promise<void> {
    const handle = this.handle(id);
    await this.actions.raise(handle);
    const deadline = Date.now() + FOCUS_WAIT_MS;
    let retried = false;
    while (Date.now() < deadline) {
      if (this.addon.getActiveWindow() === handle) {
        if (this.actions.settle) await this.actions.settle(this.addon.initWindow(handle).processId);
        await this.awaitKeys(handle);
        return;
      }
      await new Promise((r) => setTimeout(r, FOCUS_POLL_MS));
      // Windows may ignore the first SetForegroundWindow of a process that is not in front.
      if (!retried && Date.now() > deadline - FOCUS_WAIT_MS / 2) {
        retried = true;
        await this.actions.raise(handle);
      }
    }
    throw new DesktopError(
      'window.focus_failed',
      `Window \`${id}\` did not come to the foreground within ${FOCUS_WAIT_MS} ms (Windows may refuse focus changes while another app is in front)`,
    );
  }

  async close(id: string): Promise<void> {
    this.actions.close(this.handle(id));
  }

  /**
   * Waits (bounded) until a window in front takes keys where its program means them to go: its
   * thread answers, and the keyboard focus is inside it and stays in one control for
   * STEADY_FOCUS_MS. A dialog comes to the front while its thread is still setting it up: under
   * Wine the Open dialog's focus is on its folder list for about 100 ms (longer on a busy
   * machine), or still in the document behind it, and its file name field is empty; keys sent then
   * land there. Two equal readings 20 ms apart were not enough: both could fall inside that phase
   * (a Windows-lane run typed a path into the folder list). A window that never settles is left to
   * the step's own check.
   */
  private async awaitKeys(handle: number): Promise<void> {
    const keyFocus = this.actions.keyFocus;
    if (!keyFocus) return;
    const deadline = Date.now() + SETTLE_WAIT_MS;
    let last: number | undefined;
    let since = 0;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      const focus = await keyFocus(handle, left);
      if (focus === undefined || focus !== last) since = Date.now();
      else if (Date.now() - since >= STEADY_FOCUS_MS) return;
      last = focus;
      await new Promise((r) => setTimeout(r, FOCUS_POLL_MS));
    }
  }

  /** Scale factor of the primary monitor (1 = 96 DPI) and its size in pixels. */
  primaryScreen(): { width: number; height: number; scale: number } | undefined {
    for (const monitor of this.addon.getMonitors()) {
      const info = this.addon.getMonitorInfo(monitor);
      if (!info.isPrimary) continue;
      return { width: info.bounds.width, height: info.bounds.height, scale: this.addon.getMonitorScaleFactor(monitor) || 1 };
    }
    return undefined;
  }

  private handle(id: string): number {
    const handle = Number(id);
    if (!/^\d+$/.test(id) || !this.addon.isWindow(handle)) {
      throw new DesktopError('window.not_found', `No window \`${id}\`; it may have closed`);
    }
    return handle;
  }

  private describe(handle: number): WindowInfo | undefined {
    if (!this.addon.isWindow(handle)) return undefined;
    const { processId, path } = this.addon.initWindow(handle);
    const b = this.addon.getWindowBounds(handle);
    return {
      id: String(handle),
      title: this.addon.getWindowTitle(handle),
      pid: processId,
      ...(path && { processName: basename(path.replace(/\\/g, '/')).toLowerCase() }),
      ...(this.actions.owner?.(handle) && { dialog: true }),
      bounds: { x: b.x, y: b.y, width: b.width, height: b.height },
    };
  }
}
