import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Dispatcher } from '../../../src/main/bridge/Dispatcher';
import { EventHub } from '../../../src/main/bridge/EventHub';
import { startHostServer, type HostServer } from '../../../src/main/bridge/HostServer';
import { recordingCore } from './fakeCore';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a socket; resolves with it when open, or with the refusal status. */
function connect(url: string, headers: Record<string, string>): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

describe('src/main/bridge/HostServer', () => {
  let dir: string;
  let server: HostServer;
  let hub: EventHub;
  let cookie: string;
  let origin: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-host-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>SkillDesk</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    hub = new EventHub();
    const { core } = recordingCore();
    server = await startHostServer({
      dispatcher: new Dispatcher({ core, hub, mode: 'host' }),
      hub,
      rendererDir: dir,
      token: 'secret-token-123',
    });
    cookie = `skilldesk_token_${server.port}=secret-token-123`;
    origin = server.origin;
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/?token=secret-token-123`);
  });

  it('refuses every page without the right token', async () => {
    expect((await get(server.port, '/')).status).toBe(401);
    expect((await get(server.port, '/app.js')).status).toBe(401);
    expect((await get(server.port, '/?token=wrong')).status).toBe(401);
    expect((await get(server.port, '/', { cookie: `skilldesk_token_${server.port}=secret-token-12` })).status).toBe(401);
  });

  it('trades the token in the URL for an HttpOnly SameSite=Strict cookie, then serves with a CSP', async () => {
    const first = await get(server.port, '/?token=secret-token-123');
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    const page = await get(server.port, '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>SkillDesk</title>');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await get(server.port, '/app.js', { cookie })).headers['content-type']).toMatch(/javascript/);
  });

  it('refuses a foreign Host (DNS rebinding) or Origin even with the token', async () => {
    expect((await get(server.port, '/', { cookie, host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, '/', { cookie, origin: 'http://evil.example' })).status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    const r = await get(server.port, '/..%2F..%2F..%2Fetc%2Fpasswd', { cookie });
    expect(r.body).not.toContain('root:');
  });

  it('carries the contract over a WebSocket from its own page only', async () => {
    const url = `ws://127.0.0.1:${server.port}/ws`;
    expect((await connect(url, { origin })).status).toBe(401);
    expect((await connect(url, { cookie, origin: 'http://evil.example' })).status).toBe(403);
    expect((await connect(url, { cookie })).status).toBe(403); // a browser always sends its Origin
    const { ws } = await connect(url, { cookie, origin });
    expect(ws).toBeDefined();
    const messages: unknown[] = [];
    ws!.on('message', (m) => messages.push(JSON.parse(String(m))));
    ws!.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} }));
    ws!.send(JSON.stringify({ id: 2, channel: 'runs:list', payload: { limit: -1 } }));
    await new Promise((r) => setTimeout(r, 100));
    hub.emit('library:changed', { reason: 'test' });
    await new Promise((r) => setTimeout(r, 50));
    expect(messages).toContainEqual({ id: 1, result: { ok: true, value: expect.objectContaining({ mode: 'host', sessionId: 'sess' }) } });
    expect(messages).toContainEqual({ id: 2, result: { ok: false, error: expect.objectContaining({ code: 'ipc.invalid_request' }) } });
    expect(messages).toContainEqual({ event: 'library:changed', payload: { reason: 'test' } });
    expect(server.clients()).toBe(1);
    ws!.close();
  });

  it('accepts a non-browser client presenting the token as a bearer header', async () => {
    const { ws } = await connect(`ws://127.0.0.1:${server.port}/ws`, { authorization: 'Bearer secret-token-123' });
    expect(ws).toBeDefined();
    ws!.close();
  });
});
