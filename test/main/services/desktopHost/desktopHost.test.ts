import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecordingDesktop } from '../../../../src/main/services/desktop/RecordingDesktop';
import { connectDesktopHost, startDesktopHost, type DesktopHost } from '../../../../src/main/services/desktopHost';
import { PROTOCOL_VERSION } from '../../../../src/shared/desktopHost/protocol';
import type { Desktop } from '../../../../src/shared/ports/desktop';

const TOKEN = 'test-token-0123456789-abcdefghijklmnop';
const hosts: DesktopHost[] = [];

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function serve(desktop: Desktop, token = TOKEN) {
  const host = await startDesktopHost({ desktop, token, describeScreen: async () => ({ width: 1280, height: 800, scale: 1.5 }) });
  hosts.push(host);
  return host;
}

/** A raw exchange with the host, for what a well-behaved client never sends. */
function raw(url: string, o: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(new URL(o.path ?? '/v1/call', url), { method: o.method ?? 'POST', headers: o.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('src/main/services/desktopHost', () => {
  it('forwards every port call to the host desktop and answers as the local desktop would', async () => {
    const rec = createRecordingDesktop({
      platform: 'win32',
      windows: [
        { id: '65630', title: 'Untitled - Notepad', pid: 276, processName: 'notepad.exe', bounds: { x: 0, y: 0, width: 760, height: 570 } },
      ],
      files: { 'C:\\x.txt': 'hello' },
      clipboard: 'before',
      scriptResult: (req) => ({ exitCode: 3, stdout: `ran ${req.args.join(' ')}`, stderr: '' }),
    });
    const host = await serve(rec.desktop);
    const remote = await connectDesktopHost({ url: host.url, token: TOKEN });
    try {
      expect(remote.platform).toBe('win32');
      expect(remote.hello).toMatchObject({
        protocol: PROTOCOL_VERSION,
        platform: 'win32',
        screen: { width: 1280, height: 800, scale: 1.5 },
      });
      const text = 'every printable: !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ àéîõü ß\tC:\\Users\n';
      await remote.input.typeText(text);
      await remote.input.hotkey(['Control', 'Shift', 's']);
      await remote.input.pressKey('Enter');
      await remote.input.click({ x: 10.4, y: 20.6 }, 'right', 2);
      await remote.input.drag({ x: 1, y: 2 }, { x: 3, y: 4 });
      await remote.input.scroll(undefined, 0, -3);
      expect(await remote.windows.list()).toEqual(rec.windows);
      expect((await remote.windows.active())?.title).toBe('Untitled - Notepad');
      await remote.windows.focus('65630');
      await remote.clipboard.writeText('ünïcode ✓');
      expect(await remote.clipboard.readText()).toBe('ünïcode ✓');
      const shot = await remote.screen.capture({ x: 0, y: 0, width: 4, height: 3 });
      expect([shot.width, shot.height, [...shot.png.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')]).toEqual([4, 3, 'PNG']);
      expect(await remote.processes.launch({ command: 'notepad.exe', args: [] })).toHaveProperty('pid');
      expect(await remote.processes.runScript({ interpreter: 'cmd', script: 'echo', args: ['a', 'b'], timeoutMs: 1000 })).toEqual({
        exitCode: 3,
        stdout: 'ran a b',
        stderr: '',
      });
      expect(await remote.files.exists('C:\\x.txt')).toBe(true);
      expect(await remote.files.readText('C:\\x.txt')).toBe('hello');
      expect(rec.calls.map((c) => c.op)).toEqual([
        'type',
        'hotkey',
        'key',
        'click',
        'drag',
        'scroll',
        'windows.list',
        'windows.active',
        'focus',
        'clipboard.write',
        'clipboard.read',
        'screen.capture',
        'launch',
        'script',
        'file.exists',
        'file.read',
      ]);
      expect(rec.calls[0]).toEqual({ op: 'type', text });
      expect(rec.calls[3]).toEqual({ op: 'click', at: { x: 10, y: 21 }, button: 'right', count: 2 });
    } finally {
      await remote.close();
    }
  });

  it('passes adapter errors through with their code, so guards and messages read the same', async () => {
    const rec = createRecordingDesktop();
    const host = await serve(rec.desktop);
    const remote = await connectDesktopHost({ url: host.url, token: TOKEN });
    try {
      await expect(remote.files.readText('/nope')).rejects.toMatchObject({
        code: expect.any(String) as string,
        message: expect.stringContaining('/nope') as string,
      });
      const local = await rec.desktop.files.readText('/nope').catch((e: { code: string }) => e.code);
      await expect(remote.files.readText('/nope')).rejects.toMatchObject({ code: local });
    } finally {
      await remote.close();
    }
  });

  it('refuses a wrong token, a web page, a foreign Host header and a malformed call', async () => {
    const host = await serve(createRecordingDesktop().desktop);
    await expect(connectDesktopHost({ url: host.url, token: 'x'.repeat(40) })).rejects.toMatchObject({ code: 'desktop.host_unauthorized' });
    const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    expect((await raw(host.url, { headers: {}, body: '{"op":"windows.list"}' })).status).toBe(401);
    expect((await raw(host.url, { headers: { ...auth, origin: 'http://evil.example' }, body: '{"op":"windows.list"}' })).status).toBe(403);
    expect((await raw(host.url, { headers: { ...auth, host: 'evil.example:80' }, body: '{"op":"windows.list"}' })).status).toBe(403);
    const bad = await raw(host.url, { headers: auth, body: '{"op":"input.pressKey","key":"NotAKey"}' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'host.bad_call' } });
    const extra = await raw(host.url, { headers: auth, body: '{"op":"windows.list","also":"rm -rf /"}' });
    expect(extra.status).toBe(400);
    expect((await raw(host.url, { headers: auth, body: 'not json' })).status).toBe(400);
    expect((await raw(host.url, { headers: auth, path: '/v1/other' })).status).toBe(404);
  });

  it('will not serve off loopback without TLS, nor with a short token', async () => {
    const desktop = createRecordingDesktop().desktop;
    await expect(startDesktopHost({ desktop, token: TOKEN, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'host.insecure_bind' });
    await expect(startDesktopHost({ desktop, token: 'short' })).rejects.toMatchObject({ code: 'host.weak_token' });
  });

  it('serves HTTPS when given a certificate, also off loopback, and the core trusts it only with its CA', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(__dirname, '..', '..', '..', 'fixtures', 'tls');
    const tls = { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
    const host = await startDesktopHost({
      desktop: createRecordingDesktop({ platform: 'win32' }).desktop,
      token: TOKEN,
      host: '0.0.0.0',
      tls,
    });
    hosts.push(host);
    const url = host.url.replace('0.0.0.0', '127.0.0.1');
    expect(url).toMatch(/^https:/);
    const remote = await connectDesktopHost({ url, token: TOKEN, ca: tls.cert });
    expect(remote.platform).toBe('win32');
    await remote.close();
    // Without the CA the certificate is not trusted: no call goes through.
    await expect(connectDesktopHost({ url, token: TOKEN })).rejects.toMatchObject({ code: 'desktop.host_unreachable' });
  });

  it('refuses a host that speaks another protocol version, naming both', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => {
      res.end(JSON.stringify({ ok: true, value: { protocol: PROTOCOL_VERSION + 1, platform: 'win32', node: 'v99', osRelease: '10' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      await expect(connectDesktopHost({ url: `http://127.0.0.1:${port}`, token: TOKEN })).rejects.toMatchObject({
        code: 'desktop.host_version',
        message: expect.stringContaining(`protocol ${PROTOCOL_VERSION + 1}`) as string,
      });
    } finally {
      server.close();
    }
  });

  it('says where it could not connect, and stops a script when the core gives up on it', async () => {
    await expect(connectDesktopHost({ url: 'http://127.0.0.1:1', token: TOKEN })).rejects.toMatchObject({
      code: 'desktop.host_unreachable',
    });
    await expect(connectDesktopHost({ url: 'ftp://x', token: TOKEN })).rejects.toMatchObject({ code: 'desktop.host_bad_url' });

    let stopped: (reason: unknown) => void = () => undefined;
    const aborted = new Promise((resolve) => (stopped = resolve));
    const rec = createRecordingDesktop();
    rec.desktop.processes.runScript = (req) =>
      new Promise((_resolve, reject) => {
        req.signal?.addEventListener('abort', () => {
          stopped('aborted');
          reject(new Error('stopped'));
        });
      });
    const host = await serve(rec.desktop);
    const remote = await connectDesktopHost({ url: host.url, token: TOKEN });
    const controller = new AbortController();
    const run = remote.processes.runScript({
      interpreter: 'sh',
      script: 'sleep 100',
      args: [],
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'script.aborted' });
    expect(await aborted).toBe('aborted');
    await remote.close();
  });
});
