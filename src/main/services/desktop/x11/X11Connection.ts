import type { Duplex } from 'node:stream';
import { DesktopError } from '../errors';
import type { Cb, RawClient, RawDamage, RawDisplay, RawFixes, RawProperty, RawXTest, X11Event, X11Module } from './X11Raw';

export type { X11Event } from './X11Raw';

/**
 * A promise-based view of the parts of the pure-JS `x11` client SkillDesk uses: properties,
 * window geometry, focus, the keyboard mapping, XTest and selections. The package ships no types,
 * so the slice we call is declared here.
 */

/** A property value as read from the server. */
export interface X11Property {
  type: number;
  format: number;
  data: Buffer;
}

/** When a window last drew, per XDAMAGE. */
export interface DrawingWatch {
  lastDrawAt: number;
  dispose(): void;
}

/** Types of ANY property (`AnyPropertyType`). */
export const ANY_TYPE = 0;

/** An open connection to an X display; one per adapter, closed with `close()`. */
export class X11Connection {
  private readonly atoms = new Map<string, number>();
  private xtestPromise?: Promise<RawXTest>;
  private damagePromise?: Promise<RawDamage | undefined>;
  private fixesPromise?: Promise<RawFixes | undefined>;
  /** Asynchronous errors (requests without replies); surfaced by `sync()`. */
  private lastError: Error | undefined;
  private closed = false;

  private constructor(
    readonly display: string,
    readonly raw: RawClient,
    readonly root: number,
    readonly minKeycode: number,
    readonly maxKeycode: number,
  ) {
    raw.on('error', (err) => {
      this.lastError = err;
    });
    raw.on('end', () => {
      this.closed = true;
    });
  }

  /**
   * Connects to `display` (default `$DISPLAY`); fails with `desktop.no_display` when there is none.
   * `stream` carries the connection instead of the display's socket (tests: an in-process server).
   */
  static async open(display = process.env.DISPLAY, stream?: Duplex): Promise<X11Connection> {
    if (!display) {
      throw new DesktopError(
        'desktop.no_display',
        'Expected `DISPLAY` to name an X display (e.g. `:99`), got nothing; start one with `scripts/test-desktop.sh start`',
      );
    }
    const mod = (await import('x11')) as { default?: X11Module } & X11Module;
    const x11 = mod.default ?? mod;
    const raw = await new Promise<RawDisplay>((resolve, reject) => {
      const client = x11.createClient({ display, ...(stream && { stream }) }, (err, d) => (err ? reject(err) : resolve(d)));
      client.on('error', reject);
    }).catch((err: Error) => {
      throw new DesktopError('desktop.x11_connect', `Could not connect to X display \`${display}\`: ${err.message}`);
    });
    const screen = raw.screen[0];
    if (!screen) throw new DesktopError('desktop.x11_connect', `X display \`${display}\` reported no screen`);
    return new X11Connection(display, raw.client, screen.root, raw.min_keycode, raw.max_keycode);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private call<T>(what: string, fn: (cb: Cb<T>) => void): Promise<T> {
    if (this.closed) return Promise.reject(new DesktopError('desktop.x11_closed', `The connection to \`${this.display}\` is closed`));
    return new Promise<T>((resolve, reject) => {
      fn((err, value) => {
        if (err) reject(new DesktopError('desktop.x11_request', `X11 ${what} failed: ${err.message}`));
        else resolve(value);
        return true;
      });
    });
  }

  async atom(name: string): Promise<number> {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const id = await this.call<number>(`InternAtom(${name})`, (cb) => this.raw.InternAtom(false, name, cb));
    this.atoms.set(name, id);
    return id;
  }

  /** Reads a whole property (up to `maxBytes`); undefined when the window has no such property. */
  async property(wid: number, name: string, type = ANY_TYPE, maxBytes = 1 << 16): Promise<X11Property | undefined> {
    const prop = await this.atom(name);
    const p = await this.call<RawProperty>(`GetProperty(${name})`, (cb) =>
      this.raw.GetProperty(0, wid, prop, type, 0, Math.ceil(maxBytes / 4), cb),
    );
    if (p.type === 0) return undefined;
    return { type: p.type, format: p.format, data: p.data };
  }

  /** A property of 32-bit values (CARDINAL, WINDOW, ATOM). */
  async cardinals(wid: number, name: string): Promise<number[]> {
    const p = await this.property(wid, name);
    if (!p || p.format !== 32) return [];
    const out: number[] = [];
    for (let i = 0; i + 4 <= p.data.length; i += 4) out.push(p.data.readUInt32LE(i));
    return out;
  }

  geometry(wid: number) {
    return this.call('GetGeometry', (cb: Cb<{ xPos: number; yPos: number; width: number; height: number }>) =>
      this.raw.GetGeometry(wid, cb),
    );
  }

  /** Where the window's (0,0) lies on the root window. */
  toRoot(wid: number) {
    return this.call('TranslateCoordinates', (cb: Cb<{ destX: number; destY: number }>) =>
      this.raw.TranslateCoordinates(wid, this.root, 0, 0, cb),
    );
  }

  children(wid: number) {
    return this.call('QueryTree', (cb: Cb<{ children: number[]; parent: number }>) => this.raw.QueryTree(wid, cb));
  }

  attributes(wid: number) {
    return this.call('GetWindowAttributes', (cb: Cb<{ mapState: number; overrideRedirect: number }>) =>
      this.raw.GetWindowAttributes(wid, cb),
    );
  }

  /** The window owning `selection` (an atom), 0 when none does. */
  selectionOwner(selection: number) {
    return this.call<number>('GetSelectionOwner', (cb) => this.raw.GetSelectionOwner(selection, cb));
  }

  inputFocus() {
    return this.call('GetInputFocus', (cb: Cb<{ focus: number }>) => this.raw.GetInputFocus(cb));
  }

  pointer() {
    return this.call('QueryPointer', (cb: Cb<{ keyMask: number; rootX: number; rootY: number }>) => this.raw.QueryPointer(this.root, cb));
  }

  /** keysyms per keycode, rows indexed from `minKeycode`. */
  keyboardMapping() {
    return this.call('GetKeyboardMapping', (cb: Cb<number[][]>) =>
      this.raw.GetKeyboardMapping(this.minKeycode, this.maxKeycode - this.minKeycode + 1, cb),
    );
  }

  /** Eight rows (Shift, Lock, Control, Mod1..Mod5) of keycodes, zero-padded. */
  modifierMapping() {
    return this.call('GetModifierMapping', (cb: Cb<number[][]>) => this.raw.GetModifierMapping(cb));
  }

  xtest(): Promise<RawXTest> {
    this.xtestPromise ??= this.call<RawXTest>('require(XTEST)', (cb) => this.raw.require('xtest', cb)).catch((err: Error) => {
      throw new DesktopError(
        'desktop.no_xtest',
        `X display \`${this.display}\` lacks the XTEST extension needed for input (${err.message}); start Xvfb with +extension XTEST`,
      );
    });
    return this.xtestPromise;
  }

  /**
   * Watches a window for drawing (XDAMAGE): `lastDrawAt` is when it last changed on screen.
   * Undefined when the server lacks the extension.
   */
  async watchDrawing(wid: number): Promise<DrawingWatch | undefined> {
    this.damagePromise ??= this.call<RawDamage>('require(DAMAGE)', (cb) => this.raw.require('damage', cb)).catch(() => undefined);
    const ext = await this.damagePromise;
    if (!ext) return undefined;
    const id = this.raw.AllocID();
    const watch: DrawingWatch = { lastDrawAt: Date.now(), dispose: () => undefined };
    const onEvent = (ev: X11Event) => {
      if (ev.name !== 'DamageNotify' || ev.damage !== id) return;
      watch.lastDrawAt = Date.now();
      // NonEmpty reports once until the damage is cleared: clear it to hear of the next change.
      ext.Subtract(id, 0, 0);
    };
    this.raw.on('event', onEvent);
    ext.Create(id, wid, ext.ReportLevel.NonEmpty);
    await this.sync();
    watch.dispose = () => {
      this.raw.removeListener('event', onEvent);
      if (!this.closed) ext.Destroy(id);
    };
    return watch;
  }

  /** XFIXES (selection owner change events); undefined when the server lacks it. */
  fixes(): Promise<RawFixes | undefined> {
    this.fixesPromise ??= this.call<RawFixes>('require(XFIXES)', (cb) => this.raw.require('fixes', cb)).catch(() => undefined);
    return this.fixesPromise;
  }

  /** Calls `listener` with every event the connection receives until the returned function is called. */
  onEvent(listener: (ev: X11Event) => void): () => void {
    this.raw.on('event', listener);
    return () => this.raw.removeListener('event', listener);
  }

  /**
   * Round trip: every request sent so far has been processed. Errors of requests without a reply
   * (a message to a window that just closed) are dropped; use `syncChecked` where they matter.
   */
  async sync(): Promise<void> {
    await this.raw.sync();
    this.lastError = undefined;
  }

  /** Like `sync`, but rejects with the first error any request caused since the last sync. */
  async syncChecked(what: string): Promise<void> {
    await this.raw.sync();
    const err = this.lastError;
    this.lastError = undefined;
    if (err) throw new DesktopError('desktop.x11_request', `X11 ${what} failed: ${err.message}`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.raw.close(() => resolve()));
  }
}
