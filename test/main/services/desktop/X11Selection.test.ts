import { afterEach, describe, expect, it } from 'vitest';
import type { Duplex } from 'node:stream';
import { createRequire } from 'node:module';
import { X11Connection, type X11Event } from '../../../../src/main/services/desktop/x11/X11Connection';
import { isCopyShortcut, noticeCopies } from '../../../../src/main/services/desktop/copies';
import { X11Selection } from '../../../../src/main/services/desktop/x11/X11Selection';

/** The `x11` package's in-process X server (pure JS): the real protocol, no display needed. */
const { XServer, createStreamPair } = createRequire(import.meta.url)('x11/lib/xserver') as {
  XServer: new (o: { width: number; height: number }) => { addClientStream(s: unknown): void };
  createStreamPair(): [unknown, unknown];
};

type Answer = (req: { requestor: number; target: string; property: number; time: number }, owner: Owner) => void;

/** Another client owning CLIPBOARD, answering conversion requests as `answer` says. */
interface Owner {
  x: X11Connection;
  wid: number;
  /** Selects PropertyNotify on another client's window (an INCR sender watches the requestor's deletes). */
  watchProperties(wid: number): void;
  atom(name: string): Promise<number>;
  /** Puts data on the requestor's window and tells it (SelectionNotify); property 0 refuses. */
  reply(req: { requestor: number; target: string; property: number; time: number }, type: string, data: Buffer | undefined): Promise<void>;
}

const open: X11Connection[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

async function connect(server: { addClientStream(s: unknown): void }): Promise<X11Connection> {
  const [a, b] = createStreamPair();
  server.addClientStream(a);
  const x = await X11Connection.open(':0', b as Duplex);
  open.push(x);
  return x;
}

async function setup(answer?: Answer) {
  const server = new XServer({ width: 64, height: 64 });
  const reader = await connect(server);
  const selection = await X11Selection.open(reader, { answerTimeoutMs: 150, attempts: 2 });
  if (!answer) return { selection };
  const ox = await connect(server);
  const wid = ox.raw.AllocID();
  ox.raw.CreateWindow(wid, ox.root, 0, 0, 1, 1, 0, 0, 2, 0, {});
  const raw = ox.raw as unknown as {
    SetSelectionOwner(wid: number, selection: number, time: number): void;
    SendEvent(dest: number, propagate: number, mask: number, ev: object): void;
    GetAtomName(atom: number, cb: (err: unknown, name: string) => void): void;
    ChangeWindowAttributes(wid: number, values: { eventMask: number }): void;
  };
  const owner: Owner = {
    x: ox,
    wid,
    atom: (name) => ox.atom(name),
    watchProperties: (w) => raw.ChangeWindowAttributes(w, { eventMask: 0x00400000 }),
    reply: async (req, type, data) => {
      if (data) ox.raw.ChangeProperty(0, req.requestor, req.property, await ox.atom(type), type === 'INCR' ? 32 : 8, data);
      const selection = await ox.atom('CLIPBOARD');
      const target = await ox.atom(req.target);
      raw.SendEvent(req.requestor, 0, 0, {
        name: 'SelectionNotify',
        time: req.time,
        requestor: req.requestor,
        selection,
        target,
        property: data ? req.property : 0,
      });
      await ox.sync();
    },
  };
  raw.SetSelectionOwner(wid, await ox.atom('CLIPBOARD'), 0);
  ox.onEvent((ev: X11Event) => {
    if (ev.name !== 'SelectionRequest') return;
    raw.GetAtomName(ev.target!, (_err, target) =>
      answer({ requestor: ev.requestor!, target, property: ev.property!, time: ev.time! }, owner),
    );
  });
  await ox.sync();
  return { selection, owner };
}

describe('src/main/services/desktop/x11/X11Selection', () => {
  it('reads the text the owner converts to UTF8_STRING', async () => {
    const { selection } = await setup((req, o) => void o.reply(req, 'UTF8_STRING', Buffer.from('−3512.16 ✓')));
    expect(await selection.readText()).toBe('−3512.16 ✓');
  });

  it('reads an empty clipboard as "" when nothing owns it', async () => {
    const { selection } = await setup();
    expect(await selection.readText()).toBe('');
  });

  it('falls back to Latin-1 STRING when the owner refuses UTF8_STRING', async () => {
    const { selection } = await setup(
      (req, o) =>
        void (req.target === 'UTF8_STRING' ? o.reply(req, req.target, undefined) : o.reply(req, 'STRING', Buffer.from('café', 'latin1'))),
    );
    expect(await selection.readText()).toBe('café');
  });

  it('asks again when the owner drops a request', async () => {
    let requests = 0;
    const { selection } = await setup((req, o) => {
      if (++requests > 1) void o.reply(req, 'UTF8_STRING', Buffer.from('second time'));
    });
    expect(await selection.readText()).toBe('second time');
    expect(requests).toBe(2);
  });

  it('names the owner when it answers no request, instead of waiting forever', async () => {
    const { selection, owner } = await setup(() => undefined);
    await expect(selection.readText()).rejects.toMatchObject({
      code: 'clipboard.timeout',
      message: `The clipboard's owner (window 0x${owner!.wid.toString(16).padStart(8, '0')}) did not answer 2 requests for its text in 300 ms; the app may be hung`,
    });
  });

  it('reassembles an INCR transfer, chunk by chunk', async () => {
    const text = 'x'.repeat(10) + 'é'.repeat(5);
    const chunks = [Buffer.from(text).subarray(0, 8), Buffer.from(text).subarray(8), Buffer.alloc(0)];
    const { selection } = await setup(async (req, o) => {
      // The requestor deletes each property to ask for the next chunk (the first: the INCR header).
      const utf8 = await o.atom('UTF8_STRING');
      o.watchProperties(req.requestor);
      const pending = [...chunks];
      const stop = o.x.onEvent((ev) => {
        if (ev.name !== 'PropertyNotify' || ev.wid !== req.requestor || ev.atom !== req.property || ev.state !== 1) return;
        const next = pending.shift();
        if (next === undefined) return stop();
        o.x.raw.ChangeProperty(0, req.requestor, req.property, utf8, 8, next);
      });
      await o.reply(req, 'INCR', Buffer.from([text.length, 0, 0, 0]));
    });
    expect(await selection.readText()).toBe(text);
  });
});

describe('src/main/services/desktop/x11/X11Selection noticeCopies', () => {
  it('recognises copy and cut shortcuts, whatever the case of their keys', () => {
    expect(
      [
        ['Control', 'c'],
        ['Control', 'X'],
        ['Control', 'Insert'],
        ['Shift', 'Delete'],
      ].every((k) => isCopyShortcut(k)),
    ).toBe(true);
    expect([['Control', 'v'], ['Control', 'a'], ['c']].some((k) => isCopyShortcut(k))).toBe(false);
  });

  it('tells the selection before a copy shortcut goes out, and only then', async () => {
    const calls: string[] = [];
    const keyboard = noticeCopies(
      {
        typeText: async (t) => void calls.push(`type ${t}`),
        pressKey: async (k) => void calls.push(`key ${k}`),
        hotkey: async (keys) => void calls.push(`hotkey ${keys.join('+')}`),
      },
      { expectCopy: async () => void calls.push('expect copy') },
    );
    await keyboard.hotkey(['Control', 'a']);
    await keyboard.hotkey(['Control', 'c']);
    await keyboard.typeText('c');
    expect(calls).toEqual(['hotkey Control+a', 'expect copy', 'hotkey Control+c', 'type c']);
  });
});

/** A connection with XFIXES whose clipboard an app takes when told (`claim`): events come a tick later, as from a server. */
function fakeXfixes() {
  const atoms: Record<string, number> = { CLIPBOARD: 1, UTF8_STRING: 2, STRING: 3, INCR: 4, SKILLDESK_SELECTION: 5, SKILLDESK_CLOCK: 6 };
  const listeners = new Set<(ev: X11Event) => void>();
  const emit = (ev: X11Event) => setImmediate(() => listeners.forEach((l) => l(ev)));
  let now = 1000;
  let owner = 0;
  let text = Buffer.alloc(0);
  const x = {
    root: 1,
    display: ':fake',
    raw: {
      AllocID: () => 7,
      CreateWindow: () => undefined,
      DeleteProperty: () => undefined,
      ChangeProperty: (_mode: number, wid: number, atom: number) => emit({ name: 'PropertyNotify', wid, atom, time: ++now, state: 0 }),
      ConvertSelection: (requestor: number, selection: number, target: number, property: number, time: number) =>
        emit({ name: 'SelectionNotify', requestor, selection, target, property, time }),
    },
    atom: async (name: string) => atoms[name]!,
    fixes: async () => ({ SelectSelectionInput: () => undefined }),
    syncChecked: async () => undefined,
    onEvent: (l: (ev: X11Event) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    selectionOwner: async () => owner,
    property: async () => ({ type: atoms.UTF8_STRING, format: 8, data: text }),
  };
  const claim = (value: string) => {
    owner = 9;
    text = Buffer.from(value);
    emit({ name: 'SelectionNotify', selection: atoms.CLIPBOARD, owner, selectionTimestamp: ++now });
  };
  return { x: x as unknown as X11Connection, claim };
}

describe('src/main/services/desktop/x11/X11Selection (after a copy shortcut)', () => {
  it('waits for the copy to land before reading, instead of returning what the clipboard held before', async () => {
    const { x, claim } = fakeXfixes();
    const selection = await X11Selection.open(x, { copyTimeoutMs: 2000 });
    claim('before the copy');
    expect(await selection.readText()).toBe('before the copy');
    await selection.expectCopy();
    const read = selection.readText();
    setTimeout(() => claim('the copy'), 100);
    expect(await read).toBe('the copy');
  });

  it('reads what is there once the copy has had its time and nothing changed hands (nothing was selected)', async () => {
    const { x, claim } = fakeXfixes();
    const selection = await X11Selection.open(x, { copyTimeoutMs: 150 });
    claim('unchanged');
    await selection.expectCopy();
    const started = Date.now();
    expect(await selection.readText()).toBe('unchanged');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('does not wait again for a copy whose time is already over', async () => {
    const { x, claim } = fakeXfixes();
    const selection = await X11Selection.open(x, { copyTimeoutMs: 150 });
    claim('unchanged');
    await selection.expectCopy();
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    expect(await selection.readText()).toBe('unchanged');
    expect(Date.now() - started).toBeLessThan(100);
  });
});
