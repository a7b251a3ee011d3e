import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import type { EventHub } from './EventHub';
import type { Dispatcher } from './Dispatcher';
import { HostSockets } from './HostSockets';

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
  /** The URL to open: the token travels in its fragment, which browsers never send to a server. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Connected WebSocket clients that presented the token. */
  clients(): number;
  /** Connected owner pages: the UIs that can answer prompts. */
  owners(): number;
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

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

/**
 * Host mode: the renderer served on 127.0.0.1 only, with the IPC contract carried over a
 * WebSocket. The static files (the public build) need no secret; the WebSocket does: the page
 * finds the per-launch token in the URL's fragment and presents it in its first message
 * (HostSockets). No cookie is ever set, so nothing reaches the other ports of 127.0.0.1. A
 * foreign Host (DNS rebinding) or Origin (another site's page) is refused.
 */
export async function startHostServer(options: HostServerOptions): Promise<HostServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererDir = resolve(options.rendererDir);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  const sockets = new HostSockets({ token, dispatcher: options.dispatcher, hub: options.hub });
  let port = 0;
  const origin = (): string => `http://127.0.0.1:${port}`;
  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = (): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];

  /** The request's URL, or undefined when it cannot be read. */
  const parseUrl = (req: IncomingMessage): URL | undefined => {
    try {
      return new URL(req.url ?? '/', origin());
    } catch {
      return undefined;
    }
  };
  /** Refusal, or undefined when the request may proceed. */
  const refuse = (req: IncomingMessage): { status: number; message: string } | undefined => {
    if (!allowedHosts().includes(req.headers.host ?? ''))
      return { status: 403, message: `Host \`${req.headers.host}\` refused; open ${origin()}` };
    const o = req.headers.origin;
    if (o !== undefined && !allowedOrigins().includes(o))
      return { status: 403, message: `Origin \`${o}\` refused: host mode only answers its own page` };
    return undefined;
  };
  const reply = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { ...TEXT, ...headers });
    res.end(message);
  };

  const server = createServer((req, res) => {
    void handleHttp(req, res).catch(() => {
      // Never the exception's text: it may name files or carry a stack.
      if (!res.headersSent) reply(res, 500, 'Internal error: SkillDesk could not serve this file.');
      else res.end();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseUrl(req);
    if (!url) return reply(res, 400, 'Bad request: the URL cannot be read.');
    const refusal = refuse(req);
    if (refusal) return reply(res, refusal.status, refusal.message);
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Only GET and HEAD are served.', { allow: 'GET, HEAD' });
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return reply(res, 400, 'Bad request: the path has a malformed %-escape.');
    }
    if (path.includes('\0')) return reply(res, 400, 'Bad request: the path contains a NUL character.');
    const rel = normalize(path).replace(/^[/\\]+/, '');
    let file = resolve(rendererDir, rel || 'index.html');
    if (file !== rendererDir && !file.startsWith(rendererDir + sep)) return reply(res, 404, 'Not found.');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) file = join(rendererDir, 'index.html'); // client-side routes
    const body = await readFile(file).catch(() => undefined);
    if (!body) return reply(res, 503, `The UI is not built: run \`npm run build\` (looked in ${rendererDir}).`);
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
    const url = parseUrl(req);
    const refusal = !url
      ? { status: 400, message: 'bad request' }
      : url.pathname === '/ws'
        ? refuse(req)
        : { status: 404, message: 'not found' };
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${refusal.message}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => sockets.accept(ws));
  });

  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `${origin()}/#token=${token}`,
    origin: origin(),
    port,
    token,
    clients: () => sockets.clients(),
    owners: () => sockets.owners(),
    close: () =>
      new Promise<void>((ok) => {
        sockets.terminateAll();
        wss.close();
        server.close(() => ok());
        server.closeAllConnections?.();
      }),
  };
}
