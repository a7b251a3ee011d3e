import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeValue } from '../../../shared/errors';
import type { WindowInfo, WindowManager } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import type { X11Connection } from './x11/X11Connection';
import type { FocusTarget } from './x11/XTestKeyboard';

const UTF8_STRING = 'UTF8_STRING';
const VIEWABLE = 2;
/** EWMH source indication "pager": window managers honour it without focus-stealing checks. */
const SOURCE_PAGER = 2;
const PROPERTY_CHANGE_MASK = 0x00400000;

/** Options of X11WindowManager. */
export interface X11WindowManagerOptions {
  /**
   * How long `focus` waits for the window manager to confirm the focus change.
   * @default 3000
   */
  focusTimeoutMs?: number;
}

/**
 * Windows on an X11 desktop, read straight from the X server with the EWMH properties every
 * modern window manager keeps (`_NET_CLIENT_LIST`, `_NET_ACTIVE_WINDOW`, `_NET_WM_PID`...).
 * Without a window manager it falls back to the mapped top-level windows and plain X focus.
 * Ids are hexadecimal X window ids (`0x00c00001`), as `wmctrl -l` prints them.
 */
/** How long the focus must stay in a window before keys are sent to it. */
const STEADY_FOCUS_MS = 150;

export class X11WindowManager implements WindowManager {
  private readonly focusTimeoutMs: number;

  constructor(
    private readonly x: X11Connection,
    options: X11WindowManagerOptions = {},
  ) {
    this.focusTimeoutMs = options.focusTimeoutMs ?? 3000;
  }

  async list(): Promise<WindowInfo[]> {
    const ids = await this.clientIds();
    const infos = await Promise.all(ids.map((wid) => this.describe(wid).catch(() => undefined)));
    // A window can vanish between the list and the query; it is simply gone.
    return infos.filter((w): w is WindowInfo => w !== undefined);
  }

  async active(): Promise<WindowInfo | undefined> {
    const wid = await this.activeId();
    return wid ? this.describe(wid).catch(() => undefined) : undefined;
  }

  /** The focused window's X id and WM_CLASS (`instance.class`), for the keyboard's pace and idle checks. */
  async focusTarget(): Promise<FocusTarget | undefined> {
    const wid = await this.activeId();
    if (!wid) return undefined;
    const className = await this.windowClass(wid).catch(() => undefined);
    return { wid, ...(className && { className }) };
  }

  async focus(id: string): Promise<void> {
    const wid = parseWindowId(id);
    const clients = await this.clientIds();
    if (!clients.includes(wid)) throw new DesktopError('window.not_found', `No window \`${id}\` on ${this.x.display}; it may have closed`);
    const deadline = Date.now() + this.focusTimeoutMs;
    let since: number | undefined;
    let held = false;
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      if (attempt % 10 === 0 && since === undefined) await this.requestFocus(wid);
      await sleep(30);
      const focused = (await this.activeId()) === wid && (await this.focusIsWithin(wid));
      since = focused ? (since ?? Date.now()) : undefined;
      held ||= focused;
      // Held for a moment: the program has had its focus-in (a GTK file dialog selects the stem of
      // the name it shows then; keys sent before it land in a field that is rearranged after them).
      if (since !== undefined && Date.now() - since >= STEADY_FOCUS_MS) return;
      // Focus that came and went for a second and a half: the window has it as often as it will.
      if (held && focused && deadline - Date.now() < this.focusTimeoutMs / 2) return;
    }
    if (held) return;
    throw new DesktopError(
      'window.focus_failed',
      `Window \`${id}\` did not get the focus within ${this.focusTimeoutMs} ms (a modal dialog may be holding it)`,
    );
  }

  async close(id: string): Promise<void> {
    const wid = parseWindowId(id);
    if (await this.hasWindowManager()) {
      this.x.raw.SendClientMessage(this.x.root, wid, await this.x.atom('_NET_CLOSE_WINDOW'), 32, [0, SOURCE_PAGER, 0, 0, 0]);
    } else {
      const protocols = await this.x.atom('WM_PROTOCOLS');
      this.x.raw.SendClientMessage(wid, wid, protocols, 32, [await this.x.atom('WM_DELETE_WINDOW'), 0, 0, 0, 0], 0);
    }
    await this.x.sync();
  }

  /**
   * The window in front and its title, as PropertyNotify events on the root (`_NET_ACTIVE_WINDOW`)
   * and on the window in front (`_NET_WM_NAME`, `WM_NAME`) tell of their changes: each is stamped
   * with the server time of the event, the clock libuiohook stamps the keys and clicks it records
   * with. So a key is known to have come before or after a retitle however late either is read.
   */
  async watchFront(listener: (window: WindowInfo | undefined, serverTime: number) => void): Promise<() => Promise<void>> {
    const [activeAtom, ...titleAtoms] = await Promise.all(['_NET_ACTIVE_WINDOW', '_NET_WM_NAME', 'WM_NAME'].map((a) => this.x.atom(a)));
    const select = (wid: number, eventMask: number) => this.x.raw.ChangeWindowAttributes(wid, { eventMask });
    let watched: number | undefined;
    let open = true;
    // One report at a time, in the order the events came: the last one read is the last one told.
    let chain: Promise<void> = Promise.resolve();
    const report = (time: number) => {
      chain = chain.then(async () => {
        const wid = await this.activeId().catch(() => undefined);
        if (wid !== watched) {
          if (watched) select(watched, 0);
          if (wid) select(wid, PROPERTY_CHANGE_MASK);
          watched = wid;
        }
        const window = wid ? await this.describe(wid).catch(() => undefined) : undefined;
        if (open) listener(window, time);
      });
    };
    const off = this.x.onEvent((ev) => {
      if (ev.name !== 'PropertyNotify' || ev.time === undefined) return;
      const front = ev.wid === this.x.root && ev.atom === activeAtom;
      const retitled = ev.wid !== undefined && ev.wid === watched && titleAtoms.includes(ev.atom ?? -1);
      if (front || retitled) report(ev.time);
    });
    select(this.x.root, PROPERTY_CHANGE_MASK);
    watched = await this.activeId().catch(() => undefined);
    if (watched) select(watched, PROPERTY_CHANGE_MASK);
    await this.x.sync();
    return async () => {
      open = false;
      off();
      await chain;
      select(this.x.root, 0);
      if (watched) select(watched, 0);
      await this.x.sync();
    };
  }

  private async hasWindowManager(): Promise<boolean> {
    return (await this.x.cardinals(this.x.root, '_NET_SUPPORTING_WM_CHECK')).length > 0;
  }

  private async clientIds(): Promise<number[]> {
    const managed = await this.x.cardinals(this.x.root, '_NET_CLIENT_LIST');
    if (managed.length > 0 || (await this.hasWindowManager())) return managed;
    // No window manager: the mapped top-level windows that carry a class are the app windows.
    const { children } = await this.x.children(this.x.root);
    const out: number[] = [];
    for (const wid of children) {
      const attrs = await this.x.attributes(wid).catch(() => undefined);
      if (attrs && attrs.mapState === VIEWABLE && !attrs.overrideRedirect && (await this.x.property(wid, 'WM_CLASS'))) out.push(wid);
    }
    return out;
  }

  private async activeId(): Promise<number | undefined> {
    const [wid] = await this.x.cardinals(this.x.root, '_NET_ACTIVE_WINDOW');
    if (wid) return wid;
    if (await this.hasWindowManager()) return undefined;
    const { focus } = await this.x.inputFocus();
    return focus > 1 ? this.topLevelOf(focus) : undefined;
  }

  private async requestFocus(wid: number): Promise<void> {
    if (await this.hasWindowManager()) {
      this.x.raw.SendClientMessage(this.x.root, wid, await this.x.atom('_NET_ACTIVE_WINDOW'), 32, [SOURCE_PAGER, 0, 0, 0, 0]);
    } else {
      this.x.raw.RaiseWindow(wid);
      this.x.raw.SetInputFocus(wid, 1);
    }
    await this.x.sync();
  }

  /** Whether the X input focus is the window or one of its descendants (what keystrokes reach). */
  private async focusIsWithin(wid: number): Promise<boolean> {
    const { focus } = await this.x.inputFocus();
    if (focus <= 1) return false;
    return (await this.topLevelOf(focus, wid)) === wid;
  }

  /** Walks up from `wid` to the child of the root (or stops at `target`). */
  private async topLevelOf(wid: number, target?: number): Promise<number> {
    let current = wid;
    for (let depth = 0; depth < 32; depth++) {
      if (current === target) return current;
      const { parent } = await this.x.children(current);
      if (parent === this.x.root || parent === 0) return current;
      current = parent;
    }
    return current;
  }

  private async windowClass(wid: number): Promise<string | undefined> {
    const p = await this.x.property(wid, 'WM_CLASS');
    if (!p) return undefined;
    const [instance = '', klass = ''] = p.data.toString('latin1').split('\0');
    return `${instance}.${klass}`;
  }

  private async describe(wid: number): Promise<WindowInfo> {
    const [title, className, pidList, geometry, origin, dialog] = await Promise.all([
      this.title(wid),
      this.windowClass(wid),
      this.x.cardinals(wid, '_NET_WM_PID'),
      this.x.geometry(wid),
      this.x.toRoot(wid),
      this.isDialog(wid),
    ]);
    const pid = pidList[0];
    const processName = await processNameOf(className, pid);
    return {
      id: formatWindowId(wid),
      title,
      ...(pid !== undefined && { pid }),
      ...(processName && { processName }),
      ...(className && { className }),
      ...(dialog && { dialog }),
      bounds: { x: origin.destX, y: origin.destY, width: geometry.width, height: geometry.height },
    };
  }

  /** Transient for another window, or typed a dialog by its program (EWMH). */
  private async isDialog(wid: number): Promise<boolean> {
    const [owner, types, dialogType] = await Promise.all([
      this.x.cardinals(wid, 'WM_TRANSIENT_FOR'),
      this.x.cardinals(wid, '_NET_WM_WINDOW_TYPE'),
      this.x.atom('_NET_WM_WINDOW_TYPE_DIALOG'),
    ]);
    return owner.some((w) => w !== 0) || types.includes(dialogType);
  }

  private async title(wid: number): Promise<string> {
    const utf8 = await this.x.property(wid, '_NET_WM_NAME', await this.x.atom(UTF8_STRING));
    if (utf8) return utf8.data.toString('utf8');
    const legacy = await this.x.property(wid, 'WM_NAME');
    return legacy ? legacy.data.toString('latin1') : '';
  }
}

/**
 * The executable behind a window: Wine windows are named by their Windows executable (the
 * WM_CLASS instance, `notepad.exe`); others by the process, from /proc.
 */
async function processNameOf(className: string | undefined, pid: number | undefined): Promise<string | undefined> {
  const instance = className?.slice(0, className.indexOf('.exe.') + 4);
  if (className && /\.exe\./i.test(className) && instance) return instance.toLowerCase();
  if (pid === undefined) return undefined;
  try {
    const comm = (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
    // comm is cut at 15 characters; the command line has the whole name.
    if (comm.length < 15) return comm;
    const argv0 = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0] ?? '';
    return basename(argv0.replace(/\\/g, '/')) || comm;
  } catch {
    return undefined;
  }
}

/** `0x00c00001` from an X window id. */
export function formatWindowId(wid: number): string {
  return `0x${wid.toString(16).padStart(8, '0')}`;
}

/** The X window id from `0x00c00001` (or a decimal id). */
export function parseWindowId(id: string): number {
  const wid = /^0x[0-9a-f]+$/i.test(id) ? Number.parseInt(id, 16) : /^\d+$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isInteger(wid) || wid <= 0 || wid > 0xffffffff) {
    throw new DesktopError('window.bad_id', `Expected an X11 window id like \`0x00c00001\`, got ${describeValue(id)}`);
  }
  return wid;
}
