import { DesktopError } from '../errors';
import { formatWindowId } from '../X11WindowManager';
import type { X11Connection, X11Event } from './X11Connection';

const INPUT_ONLY = 2;
const PROPERTY_CHANGE_MASK = 0x00400000;
/** XFIXES SetSelectionOwnerNotifyMask. */
const OWNER_CHANGES = 1;
const APPEND = 2;
const NEW_VALUE = 0;
const PROPERTY = 'SKILLDESK_SELECTION';
const CLOCK = 'SKILLDESK_CLOCK';
/** Whole properties: the server caps a reply at its maximum request size anyway. */
const ALL_BYTES = 1 << 30;

/** Options of X11Selection. */
export interface X11SelectionOptions {
  /**
   * How long one conversion request may go unanswered before it is sent again (an owner can drop
   * a request: GTK 4 ignores one that reaches it while it believes another client owns the selection).
   * @default 2000
   */
  answerTimeoutMs?: number;
  /** Requests sent before a silent owner is reported. @default 3 */
  attempts?: number;
  /** After a copy shortcut, how long a read waits for the selection to change hands. @default 5000 */
  copyTimeoutMs?: number;
}

/** `a` is at or after `b` in X server time, which wraps around every 49.7 days. */
const notBefore = (a: number, b: number) => (a - b) >>> 0 < 0x80000000;

/**
 * The CLIPBOARD selection read over the desktop's own X connection, as ICCCM says (a conversion
 * into a property of our own window, INCR transfers included), without a process per read: each
 * request has a timeout and is sent again when the owner stays silent, and an owner that never
 * answers is named in the error. With XFIXES it also sees the selection change hands, so a read
 * right after a copy shortcut (see `noticeCopies`) gets what that copy put there, not what the
 * clipboard held before the app got round to the keys.
 */
export class X11Selection {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly waiters = new Set<(ev: X11Event) => void>();
  /** Server time of the latest owner change seen (XFIXES). */
  private lastOwnerChange: number | undefined;
  /** The latest copy shortcut (server time just before it, and local time), until a read has waited for it. */
  private copy: { since: number; at: number } | undefined;
  private readonly stopListening: () => void;

  private constructor(
    private readonly x: X11Connection,
    private readonly wid: number,
    private readonly atoms: Record<'clipboard' | 'utf8' | 'string' | 'incr' | 'property' | 'clock', number>,
    private readonly watchesOwners: boolean,
    private readonly o: X11SelectionOptions,
  ) {
    this.stopListening = x.onEvent((ev) => {
      if (ev.selectionTimestamp !== undefined && ev.selection === atoms.clipboard) this.lastOwnerChange = ev.selectionTimestamp;
      for (const w of [...this.waiters]) w(ev);
    });
  }

  /** Creates the hidden window conversions are delivered to, and subscribes to owner changes when XFIXES is there. */
  static async open(x: X11Connection, options: X11SelectionOptions = {}): Promise<X11Selection> {
    const wid = x.raw.AllocID();
    x.raw.CreateWindow(wid, x.root, -1, -1, 1, 1, 0, 0, INPUT_ONLY, 0, { eventMask: PROPERTY_CHANGE_MASK, overrideRedirect: 1 });
    const names = ['CLIPBOARD', 'UTF8_STRING', 'STRING', 'INCR', PROPERTY, CLOCK] as const;
    const [clipboard, utf8, string, incr, property, clock] = await Promise.all(names.map((n) => x.atom(n)));
    const fixes = await x.fixes();
    fixes?.SelectSelectionInput(wid, clipboard!, OWNER_CHANGES);
    await x.syncChecked('creating the window the clipboard is read into');
    const atoms = { clipboard: clipboard!, utf8: utf8!, string: string!, incr: incr!, property: property!, clock: clock! };
    return new X11Selection(x, wid, atoms, fixes !== undefined, options);
  }

  /** The clipboard's text ('' when nothing owns it or its owner has no text); one read at a time. */
  readText(): Promise<string> {
    const read = this.queue.then(() => this.read());
    this.queue = read.catch(() => undefined);
    return read;
  }

  /** Call just before sending a copy shortcut: the next read waits (bounded) until the selection changes hands after it. */
  async expectCopy(): Promise<void> {
    if (this.watchesOwners) this.copy = { since: await this.serverTime(), at: Date.now() };
  }

  dispose(): void {
    this.stopListening();
  }

  private async read(): Promise<string> {
    await this.awaitCopy();
    const owner = await this.x.selectionOwner(this.atoms.clipboard);
    if (owner === 0) return '';
    const utf8 = await this.convert(owner, this.atoms.utf8);
    if (utf8) return utf8.toString('utf8');
    // Owners from before UTF-8 (old Xt apps) offer only Latin-1 STRING.
    return (await this.convert(owner, this.atoms.string))?.toString('latin1') ?? '';
  }

  private async awaitCopy(): Promise<void> {
    const copy = this.copy;
    this.copy = undefined;
    if (!copy || (this.lastOwnerChange !== undefined && notBefore(this.lastOwnerChange, copy.since))) return;
    // If the copy had nothing to copy, nothing changes hands: the read goes ahead with what is there
    // once the copy has had its time (counted from the shortcut, not from the read).
    const left = (this.o.copyTimeoutMs ?? 5000) - (Date.now() - copy.at);
    if (left <= 0) return;
    await this.nextEvent(
      (ev) => ev.selectionTimestamp !== undefined && ev.selection === this.atoms.clipboard && notBefore(ev.selectionTimestamp, copy.since),
      left,
    );
  }

  /** The selection converted to `target`: its bytes, or undefined when the owner refuses that target. */
  private async convert(owner: number, target: number): Promise<Buffer | undefined> {
    const attempts = this.o.attempts ?? 3;
    const timeoutMs = this.o.answerTimeoutMs ?? 2000;
    const asked: number[] = [];
    for (let i = 0; i < attempts; i++) {
      const time = await this.serverTime();
      asked.push(time);
      // An answer to an earlier attempt is as good: the owner is slow, not deaf.
      const answer = this.nextEvent(
        (ev) =>
          ev.name === 'SelectionNotify' &&
          ev.selectionTimestamp === undefined &&
          ev.requestor === this.wid &&
          ev.target === target &&
          (ev.time === 0 || asked.includes(ev.time!)),
        timeoutMs,
      );
      this.x.raw.DeleteProperty(this.wid, this.atoms.property);
      this.x.raw.ConvertSelection(this.wid, this.atoms.clipboard, target, this.atoms.property, time);
      const ev = await answer;
      if (!ev) continue;
      if (!ev.property) return undefined;
      return this.takeAnswer(timeoutMs);
    }
    throw new DesktopError(
      'clipboard.timeout',
      `The clipboard's owner (${await this.describe(owner)}) did not answer ${attempts} requests for its text in ${attempts * timeoutMs} ms; the app may be hung`,
    );
  }

  /** Reads the answer out of our property; an INCR answer arrives in chunks, each asked for by deleting the last. */
  private async takeAnswer(timeoutMs: number): Promise<Buffer> {
    const head = await this.x.property(this.wid, PROPERTY, 0, ALL_BYTES);
    if (!head || head.type !== this.atoms.incr) {
      this.x.raw.DeleteProperty(this.wid, this.atoms.property);
      return head?.data ?? Buffer.alloc(0);
    }
    const chunks: Buffer[] = [];
    for (;;) {
      const next = this.nextEvent(
        (ev) => ev.name === 'PropertyNotify' && ev.wid === this.wid && ev.atom === this.atoms.property && ev.state === NEW_VALUE,
        timeoutMs,
      );
      this.x.raw.DeleteProperty(this.wid, this.atoms.property);
      if (!(await next))
        throw new DesktopError('clipboard.timeout', `The clipboard's owner stopped sending its text after ${chunks.length} chunk(s)`);
      const chunk = await this.x.property(this.wid, PROPERTY, 0, ALL_BYTES);
      if (!chunk || chunk.data.length === 0) {
        this.x.raw.DeleteProperty(this.wid, this.atoms.property);
        return Buffer.concat(chunks);
      }
      chunks.push(chunk.data);
    }
  }

  /** The server's clock now, from the PropertyNotify of an empty append to our window (what Xt and GDK do). */
  private async serverTime(): Promise<number> {
    const stamped = this.nextEvent((ev) => ev.name === 'PropertyNotify' && ev.wid === this.wid && ev.atom === this.atoms.clock, 5000);
    this.x.raw.ChangeProperty(APPEND, this.wid, this.atoms.clock, this.atoms.string, 8, Buffer.alloc(0));
    const ev = await stamped;
    if (ev?.time === undefined)
      throw new DesktopError('clipboard.no_clock', `The X server on ${this.x.display} did not report a property change within 5000 ms`);
    return ev.time;
  }

  /** Resolves with the first event that satisfies `match` from now on, or undefined after `timeoutMs`. */
  private nextEvent(match: (ev: X11Event) => boolean, timeoutMs: number): Promise<X11Event | undefined> {
    return new Promise((resolve) => {
      const finish = (ev: X11Event | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(ev);
      };
      const waiter = (ev: X11Event) => {
        if (match(ev)) finish(ev);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private async describe(owner: number): Promise<string> {
    const pid = (await this.x.cardinals(owner, '_NET_WM_PID').catch(() => []))[0];
    const klass = await this.x.property(owner, 'WM_CLASS').catch(() => undefined);
    const name = klass?.data.toString('latin1').split('\0')[0];
    return [`window ${formatWindowId(owner)}`, name, pid !== undefined && `pid ${pid}`].filter(Boolean).join(', ');
  }
}
