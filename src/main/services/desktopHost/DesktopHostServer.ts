import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { isIP } from 'node:net';
import { release } from 'node:os';
import { SkillDeskError } from '../../../shared/errors';
import {
  AUTH_SCHEME,
  CallSchema,
  type Hello,
  type HostError,
  MAX_BODY_BYTES,
  PROTOCOL_VERSION,
  type Reply,
} from '../../../shared/desktopHost/protocol';
import type { Desktop } from '../../../shared/ports/desktop';
import { dispatchCall } from './dispatch';

/** Options of startDesktopHost. */
export interface DesktopHostOptions {
  desktop: Desktop;
  /** The secret a core must present. @default a fresh random 256-bit token */
  token?: string;
  /** Address to bind. Anything but loopback needs `tls`. @default '127.0.0.1' */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
  /** PEM certificate and key: serve HTTPS (required off loopback). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Screen size and scale reported by `hello`. */
  describeScreen?: () => Promise<Hello['screen']>;
  /** One line per call (op, outcome, milliseconds); never the call's content. */
  log?: (line: string) => void;
}

export interface DesktopHost {
  /** `http://127.0.0.1:PORT` (or https), what a core passes as `--desktop`. */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Shortest token accepted: a guessable token would make the host a remote-control backdoor. */
export const MIN_TOKEN_LENGTH = 24;

/**
 * Serves a desktop's ports to a SkillDesk core (protocol: src/shared/desktopHost/protocol.ts).
 * Every request must carry the token; requests from web pages (an `Origin` header) and with a
 * foreign `Host` (DNS rebinding) are refused, so a browser on the same machine cannot drive it.
 * It binds to loopback unless given TLS: a token sent in clear over a network is not a secret.
 */
export async function startDesktopHost(o: DesktopHostOptions): Promise<DesktopHost> {
  const host = o.host ?? '127.0.0.1';
  if (!isLoopback(host) && !o.tls) {
    throw new SkillDeskError(
      'host.insecure_bind',
      `Refusing to serve the desktop on \`${host}\` without TLS: the token would cross the network in clear. Bind to 127.0.0.1 (and tunnel, e.g. ssh -L), or pass a certificate and key`,
    );
  }
  const token = o.token ?? randomBytes(32).toString('base64url');
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new SkillDeskError('host.weak_token', `Expected a token of at least ${MIN_TOKEN_LENGTH} characters, got ${token.length}`);
  }
  const expected = digest(token);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(req, res).catch((err: unknown) => send(res, 500, fail('host.internal', (err as Error).message)));
  };
  const server: Server = o.tls ? createHttpsServer({ cert: o.tls.cert, key: o.tls.key }, handler) : createHttpServer(handler);
  // Idle keep-alive sockets must not hold `close` open.
  server.keepAliveTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.origin !== undefined) return send(res, 403, fail('host.forbidden_origin', 'Web pages may not drive the desktop host'));
    if (!hostHeaderAllowed(req.headers.host, host)) return send(res, 403, fail('host.forbidden_host', 'Unexpected Host header'));
    if (!authorized(req.headers.authorization, expected)) {
      return send(res, 401, fail('host.unauthorized', 'Missing or wrong token'));
    }
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/hello') return send(res, 200, { ok: true, value: await hello(o) });
    if (req.method !== 'POST' || path !== '/v1/call') return send(res, 404, fail('host.not_found', `No ${req.method} ${path}`));
    const body = await readBody(req);
    if (body === undefined) return send(res, 413, fail('host.too_large', `Bodies are limited to ${MAX_BODY_BYTES} bytes`));
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return send(res, 400, fail('host.bad_call', 'The body is not JSON'));
    }
    const call = CallSchema.safeParse(json);
    if (!call.success) {
      const issue = call.error.issues[0];
      return send(res, 400, fail('host.bad_call', `${issue?.path.join('.') || 'call'}: ${issue?.message ?? 'invalid'}`));
    }
    // A core that gives up on a script (timeout, Stop) closes its request: the script is stopped too.
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const started = Date.now();
    try {
      const value = await dispatchCall(o.desktop, call.data, aborted.signal);
      o.log?.(`${call.data.op} ok ${Date.now() - started} ms`);
      send(res, 200, { ok: true, value });
    } catch (err) {
      const error = asHostError(err);
      o.log?.(`${call.data.op} failed (${error.code}) ${Date.now() - started} ms`);
      send(res, 200, { ok: false, error });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  const shownHost = isIP(host) === 6 ? `[${host}]` : host;
  return {
    url: `${o.tls ? 'https' : 'http'}://${shownHost}:${port}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function hello(o: DesktopHostOptions): Promise<Hello> {
  const screen = await o.describeScreen?.().catch(() => undefined);
  return {
    protocol: PROTOCOL_VERSION,
    platform: o.desktop.platform,
    node: process.version,
    osRelease: release(),
    ...(screen && { screen }),
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Accepts the bound address (with any port) and, on loopback, `localhost`. */
function hostHeaderAllowed(header: string | undefined, bound: string): boolean {
  if (header === undefined) return false;
  const name = header.startsWith('[') ? header.slice(1, header.indexOf(']')) : header.split(':')[0];
  if (name === bound) return true;
  if (isLoopback(bound)) return isLoopback(name ?? '');
  // Off loopback (TLS), a DNS name or another address of this machine may be used.
  return bound === '0.0.0.0' || bound === '::' || isIP(bound) === 0;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  const prefix = `${AUTH_SCHEME} `;
  if (!header?.startsWith(prefix)) return false;
  return timingSafeEqual(digest(header.slice(prefix.length)), expected);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function fail(code: string, message: string): Reply {
  return { ok: false, error: { code, message } };
}

function asHostError(err: unknown): HostError {
  if (err instanceof SkillDeskError) return { code: err.code, message: err.message };
  return { code: 'host.adapter_failed', message: err instanceof Error ? err.message : String(err) };
}

function send(res: ServerResponse, status: number, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(reply);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
