import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventHub } from './EventHub';
import type { Dispatcher } from './Dispatcher';

export interface HostServerOptions {
  dispatcher: Dispatcher;
  hub: EventHub;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Per-launch secret; generated when absent (tests pass their own). */
  token?: string;
}

export interface HostServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Connected WebSocket clients (UIs that can answer prompts). */
  clients(): number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * Host mode: the renderer served on 127.0.0.1 only, with the IPC contract carried over a
 * WebSocket. Every HTTP request and socket needs the per-launch token (query once, then an
 * HttpOnly SameSite=Strict cookie); a foreign Origin or Host is refused, which also defeats
 * DNS rebinding.
 */
export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererDir = resolve(options.rendererDir);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  const sockets = new Set<WebSocket>();
  let port = 0;
  const cookieName = (): string => `skilldesk_token_${port}`;
  const origin = (): string => `http://127.0.0.1:${port}`;
  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = (): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];

  const sameToken = (given: string | undefined): boolean => {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const presentedToken = (req: IncomingMessage, url: URL): { token?: string; via: 'query' | 'cookie' | 'header' | 'none' } => {
    const q = url.searchParams.get('token');
    if (q) return { token: q, via: 'query' };
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) return { token: auth.slice(7), via: 'header' };
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === cookieName()) return { token: v.join('='), via: 'cookie' };
    }
    return { via: 'none' };
  };
  /** Refusal reason, or undefined when the request may proceed. */
  const refuse = (req: IncomingMessage, url: URL, requireOrigin: boolean): { status: number; message: string } | undefined => {
    if (!allowedHosts().includes(req.headers.host ?? ''))
      return { status: 403, message: `Host \`${req.headers.host}\` refused; open ${origin()}` };
    const o = req.headers.origin;
    if (o !== undefined && !allowedOrigins().includes(o))
      return { status: 403, message: `Origin \`${o}\` refused: host mode only answers its own page` };
    if (requireOrigin && o === undefined && presentedToken(req, url).via === 'cookie')
      return { status: 403, message: 'a browser WebSocket must send its Origin' };
    if (!sameToken(presentedToken(req, url).token))
      return { status: 401, message: 'Missing or wrong token: open the URL printed by `skilldesk serve` (it ends in ?token=...)' };
    return undefined;
  };

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${String(err)}`);
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin());
    const refusal = refuse(req, url, false);
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(refusal.message);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (url.searchParams.has('token')) {
      // Trade the token in the URL for a cookie, so it leaves the address bar and history.
      url.searchParams.delete('token');
      res.writeHead(303, {
        'set-cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        location: `${url.pathname}${url.search}`,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '');
    let file = resolve(rendererDir, rel || 'index.html');
    if (file !== rendererDir && !file.startsWith(rendererDir + sep)) {
      res.writeHead(404).end();
      return;
    }
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) file = join(rendererDir, 'index.html'); // client-side routes
    const body = await readFile(file).catch(() => undefined);
    if (!body) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`The UI is not built: run \`npm run build\` (looked in ${rendererDir}).`);
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'`,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', origin());
    const refusal = url.pathname === '/ws' ? refuse(req, url, true) : { status: 404, message: 'not found' };
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal.message}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const unsubscribe = options.hub.subscribe((event, payload) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
    });
    ws.on('message', (data) => {
      let msg: { id?: unknown; channel?: unknown; payload?: unknown };
      try {
        msg = JSON.parse(String(data)) as typeof msg;
      } catch {
        ws.send(
          JSON.stringify({
            id: null,
            result: { ok: false, error: { code: 'ipc.bad_message', message: 'Expected a JSON message {id, channel, payload}' } },
          }),
        );
        return;
      }
      void options.dispatcher.dispatch(msg.channel, msg.payload).then((result) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: msg.id ?? null, result }));
      });
    });
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
    });
  });

  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `${origin()}/?token=${token}`,
    origin: origin(),
    port,
    token,
    clients: () => sockets.size,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.terminate();
        wss.close();
        server.close(() => ok());
        server.closeAllConnections?.();
      }),
  };
}
