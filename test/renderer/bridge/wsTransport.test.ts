import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { Dispatcher } from '../../../src/main/bridge/Dispatcher';
import { EventHub } from '../../../src/main/bridge/EventHub';
import { startHostServer, type HostServer } from '../../../src/main/bridge/HostServer';
import { createWsTransport } from '../../../src/renderer/src/bridge/wsTransport';
import { buildBridge, CHANNELS, EVENT_CHANNELS } from '../../../src/shared/ipc';
import { recordingCore } from '../../main/bridge/fakeCore';

/** The browser's WebSocket, played by `ws` with the Origin a page on the host's origin sends. */
function browserLikeWebSocket(origin: string) {
  return class extends NodeWebSocket {
    constructor(url: string) {
      super(url, { headers: { origin } });
    }
  };
}

/** The page's storage, in memory. */
function credentials(token: string | undefined) {
  const stored: { ownerKey?: string } = {};
  return { token, ownerKey: () => stored.ownerKey, setOwnerKey: (k: string) => void (stored.ownerKey = k), stored };
}

const TOKEN = 'tok-0123456789abcdef';

describe('src/renderer/src/bridge/wsTransport', () => {
  let dir: string;
  let server: HostServer;
  let hub: EventHub;
  const realWebSocket = (globalThis as { WebSocket?: unknown }).WebSocket;
  let transports: { close(): void }[] = [];
  /** A transport closed after the test, so no reconnection outlives it. */
  const transport = (...args: Parameters<typeof createWsTransport>) => {
    const t = createWsTransport(...args);
    transports.push(t);
    return t;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-ws-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    hub = new EventHub();
    server = await startHostServer({
      dispatcher: new Dispatcher({ core: recordingCore().core, hub, mode: 'host' }),
      hub,
      rendererDir: dir,
      token: TOKEN,
    });
    (globalThis as { WebSocket?: unknown }).WebSocket = browserLikeWebSocket(server.origin);
  });
  afterEach(async () => {
    for (const t of transports) t.close();
    transports = [];
    (globalThis as { WebSocket?: unknown }).WebSocket = realWebSocket;
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries typed calls and events between the bridge and host mode', async () => {
    const states: string[] = [];
    const creds = credentials(TOKEN);
    const bridge = buildBridge(
      transport(`ws://127.0.0.1:${server.port}/ws`, creds, (s, session) => states.push(`${s}${session?.owner ? ' owner' : ''}`)),
      CHANNELS,
      EVENT_CHANNELS,
    );
    // A call made before the server welcomes the page waits for it.
    const info = await bridge.appInfo({});
    expect(info).toMatchObject({ ok: true, value: { mode: 'host', version: '0.0.0' } });
    expect(await bridge.runsList({ limit: 0 })).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    const seen: unknown[] = [];
    const off = bridge.onLibraryChanged((p) => seen.push(p));
    hub.emit('library:changed', { reason: 'one' });
    await new Promise((r) => setTimeout(r, 50));
    off();
    hub.emit('library:changed', { reason: 'two' });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([{ reason: 'one' }]);
    // The first page claimed the owner key and keeps it for its reconnections.
    expect(states[0]).toBe('open owner');
    expect(creds.stored.ownerKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(server.owners()).toBe(1);
  });

  it('stops at `refused`, without reconnecting, when the page has no token or a wrong one', async () => {
    for (const token of [undefined, 'wrong-token-0123456789']) {
      const states: string[] = [];
      const bridge = buildBridge(
        transport(`ws://127.0.0.1:${server.port}/ws`, credentials(token), (s) => states.push(s)),
        CHANNELS,
        EVENT_CHANNELS,
      );
      expect(await bridge.appInfo({})).toMatchObject({ ok: false, error: { code: 'ipc.unauthorized' } });
      await new Promise((r) => setTimeout(r, 300)); // longer than the first reconnection delay
      expect(states).toEqual(['refused']);
    }
    expect(server.clients()).toBe(0);
  });

  it('answers calls in flight with ipc.disconnected when the server goes away', async () => {
    // A host whose library never loads: the call stays in flight until the connection drops.
    await server.close();
    const core = { ...recordingCore().core, library: () => new Promise<never>(() => {}) };
    server = await startHostServer({ dispatcher: new Dispatcher({ core, hub, mode: 'host' }), hub, rendererDir: dir, token: TOKEN });
    (globalThis as { WebSocket?: unknown }).WebSocket = browserLikeWebSocket(server.origin);
    const states: string[] = [];
    const bridge = buildBridge(
      transport(`ws://127.0.0.1:${server.port}/ws`, credentials(TOKEN), (s) => states.push(s)),
      CHANNELS,
      EVENT_CHANNELS,
    );
    expect((await bridge.appInfo({})).ok).toBe(true);
    const pending = bridge.libraryGet({});
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    expect(await pending).toMatchObject({
      ok: false,
      error: { code: 'ipc.disconnected', message: expect.stringContaining('reconnecting') },
    });
    expect(states.slice(0, 2)).toEqual(['open', 'closed']);
  });
});
