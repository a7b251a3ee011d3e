import { DesktopError } from '../errors';

/**
 * A promise-based view of the parts of the pure-JS `x11` client SkillDesk uses: properties,
 * window geometry, focus, the keyboard mapping and XTest. The package ships no types, so the
 * slice we call is declared here.
 */

/** Returning true tells the client the error was handled (it would also emit it otherwise). */
type Cb<T> = (err: Error | null | undefined, value: T) => boolean | void;

interface RawProperty {
  type: number;
  format: number;
  bytesAfter: number;
  data: Buffer;
}

interface RawClient {
  InternAtom(onlyIfExists: boolean, name: string, cb: Cb<number>): void;
  GetProperty(del: 0 | 1, wid: number, prop: number, type: number, longOffset: number, longLength: number, cb: Cb<RawProperty>): void;
  GetGeometry(wid: number, cb: Cb<{ xPos: number; yPos: number; width: number; height: number; borderWidth: number }>): void;
  TranslateCoordinates(src: number, dst: number, x: number, y: number, cb: Cb<{ destX: number; destY: number; child: number }>): void;
  QueryTree(wid: number, cb: Cb<{ root: number; parent: number; children: number[] }>): void;
  GetWindowAttributes(wid: number, cb: Cb<{ mapState: number; overrideRedirect: number }>): void;
  GetInputFocus(cb: Cb<{ focus: number; revertTo: number }>): void;
  SetInputFocus(wid: number, revertTo: number): void;
  RaiseWindow(wid: number): void;
  QueryPointer(wid: number, cb: Cb<{ keyMask: number; rootX: number; rootY: number }>): void;
  GetKeyboardMapping(first: number, count: number, cb: Cb<number[][]>): void;
  ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
  GetModifierMapping(cb: Cb<number[][]>): void;
  SendClientMessage(destination: number, wid: number, type: number, format: 8 | 16 | 32, data: number[], eventMask?: number): void;
  require(ext: 'xtest', cb: Cb<RawXTest>): void;
  require(ext: 'damage', cb: Cb<RawDamage>): void;
  AllocID(): number;
  on(event: 'event', listener: (ev: { name?: string; damage?: number }) => void): void;
  removeListener(event: 'event', listener: (ev: { name?: string; damage?: number }) => void): void;
  sync(): Promise<void>;
  close(cb?: (err?: Error) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'end' | 'close', listener: () => void): void;
}

interface RawXTest {
  KeyPress: number;
  KeyRelease: number;
  ButtonPress: number;
  ButtonRelease: number;
  MotionNotify: number;
  FakeInput(type: number, detail: number, time: number, wid: number, x: number, y: number): void;
}

interface RawDamage {
  ReportLevel: { NonEmpty: number };
  Create(damage: number, drawable: number, level: number): void;
  Destroy(damage: number): void;
  Subtract(damage: number, repair: number, parts: number): void;
}

interface RawDisplay {
  client: RawClient;
  min_keycode: number;
  max_keycode: number;
  screen: { root: number; pixel_width: number; pixel_height: number }[];
}

interface X11Module {
  createClient(
    options: { display: string },
    cb: (err: Error | null, display: RawDisplay) => void,
  ): { on(event: 'error', l: (err: Error) => void): void };
}

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

  /** Connects to `display` (default `$DISPLAY`); fails with `desktop.no_display` when there is none. */
  static async open(display = process.env.DISPLAY): Promise<X11Connection> {
    if (!display) {
      throw new DesktopError(
        'desktop.no_display',
        'Expected `DISPLAY` to name an X display (e.g. `:99`), got nothing; start one with `scripts/test-desktop.sh start`',
      );
    }
    const mod = (await import('x11')) as { default?: X11Module } & X11Module;
    const x11 = mod.default ?? mod;
    const raw = await new Promise<RawDisplay>((resolve, reject) => {
      const client = x11.createClient({ display }, (err, d) => (err ? reject(err) : resolve(d)));
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
    const onEvent = (ev: { name?: string; damage?: number }) => {
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
