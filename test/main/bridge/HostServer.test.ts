import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../../src/main/bridge/Dispatcher';
import { EventHub } from '../../../src/main/bridge/EventHub';
import { startHostServer, type HostServer } from '../../../src/main/bridge/HostServer';
import { HOST_CLOSE_UNAUTHORIZED } from '../../../src/shared/ipc';
import { recordingCore } from './fakeCore';
import { connect, get, openSession } from './hostClient';

const TOKEN = 'secret-token-0123456789';

describe('src/main/bridge/HostServer', () => {
  let dir: string;
  let server: HostServer;
  let hub: EventHub;
  let origin: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-host-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>SkillDesk</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    hub = new EventHub();
    const { core } = recordingCore();
    server = await startHostServer({ dispatcher: new Dispatcher({ core, hub, mode: 'host' }), hub, rendererDir: dir, token: TOKEN });
    origin = server.origin;
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL carrying the token in its fragment', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/#token=${TOKEN}`);
  });

  it('serves the built renderer with a CSP and no cookie', async () => {
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>SkillDesk</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await get(server.port, '/app.js')).headers['content-type']).toMatch(/javascript/);
    expect((await get(server.port, '/runs/42')).body).toContain('<title>SkillDesk</title>'); // client-side route
  });

  it('refuses a foreign Host (DNS rebinding) or Origin', async () => {
    expect((await get(server.port, '/', { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, '/', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(server.port, '/', { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    const r = await get(server.port, '/..%2F..%2F..%2Fetc%2Fpasswd');
    expect(r.body).not.toContain('root:');
  });

  it('answers malformed requests with a short 400, never an exception', async () => {
    for (const path of ['/%E0%A4%A', '/%zz', '/a%00b']) {
      const r = await get(server.port, path);
      expect(r.status).toBe(400);
      expect(r.body).toMatch(/^Bad request: .{1,80}$/);
      expect(r.body).not.toMatch(/URIError|Error:|\n\s+at /);
    }
  });

  it('upgrades /ws only for its own Origin (or none), and only on /ws', async () => {
    const url = `ws://127.0.0.1:${server.port}/ws`;
    expect((await connect(url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await connect(url, { origin: 'http://127.0.0.1.evil.example' })).status).toBe(403);
    expect((await connect(url, { origin, host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await connect(`ws://127.0.0.1:${server.port}/other`, { origin })).status).toBe(404);
    const { ws } = await connect(url, { origin });
    expect(ws).toBeDefined();
    ws!.close();
  });

  it('closes a socket whose first message is not a hello with the token, before any event or call', async () => {
    for (const hello of [{ token: 'wrong-token-0123456789' }, { token: '' }, {}]) {
      const s = await openSession(server.port, hello as { token: string });
      expect(s.closed).toBe(HOST_CLOSE_UNAUTHORIZED);
      expect(s.welcome).toBeUndefined();
    }
    const { ws } = await connect(`ws://127.0.0.1:${server.port}/ws`, { origin });
    const closed = new Promise<number>((r) => ws!.on('close', (code) => r(code)));
    ws!.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} }));
    expect(await closed).toBe(HOST_CLOSE_UNAUTHORIZED);
    expect(server.clients()).toBe(0);
  });

  it('carries the contract over the socket once the token is presented, with errors as data', async () => {
    const s = await openSession(server.port, { token: TOKEN });
    expect(s.welcome).toEqual({ type: 'welcome', owner: false });
    expect(await s.call('app:info')).toEqual({ ok: true, value: expect.objectContaining({ mode: 'host', sessionId: 'sess' }) });
    expect(await s.call('runs:list', { limit: -1 })).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    expect(await s.call('shell:exec')).toMatchObject({ ok: false, error: { code: 'ipc.unknown_channel' } });
    const bad = new Promise<unknown>((r) => s.ws.once('message', (m) => r(JSON.parse(String(m)))));
    s.ws.send('{not json');
    expect(await bad).toEqual({ id: null, result: { ok: false, error: { code: 'ipc.bad_message', message: expect.any(String) } } });
    const changed = s.nextEvent('library:changed');
    hub.emit('library:changed', { reason: 'test' });
    expect(await changed).toEqual({ reason: 'test' });
    expect(server.clients()).toBe(1);
    s.ws.close();
  });

  it('makes the first page that claims it the owner, once per launch; its key brings it back', async () => {
    const script = await openSession(server.port, { token: TOKEN });
    expect(script.welcome?.owner).toBe(false);
    const page = await openSession(server.port, { token: TOKEN, claimOwner: true });
    expect(page.welcome).toEqual({ type: 'welcome', owner: true, ownerKey: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) });
    const late = await openSession(server.port, { token: TOKEN, claimOwner: true });
    expect(late.welcome).toEqual({ type: 'welcome', owner: false });
    const wrongKey = await openSession(server.port, { token: TOKEN, ownerKey: 'x'.repeat(32), claimOwner: true });
    expect(wrongKey.welcome?.owner).toBe(false);
    expect(server.owners()).toBe(1);
    page.ws.close();
    await new Promise((r) => page.ws.once('close', r));
    const back = await openSession(server.port, { token: TOKEN, ownerKey: page.welcome!.ownerKey! });
    expect(back.welcome?.owner).toBe(true);
    // The key alone is not enough: the token is checked first.
    const keyOnly = await openSession(server.port, { token: 'wrong-token-0123456789', ownerKey: page.welcome!.ownerKey! });
    expect(keyOnly.closed).toBe(HOST_CLOSE_UNAUTHORIZED);
    for (const s of [script, late, wrongKey, back]) s.ws.close();
  });
});
