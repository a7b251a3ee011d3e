import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  AUTH_SCHEME,
  type Call,
  type Hello,
  HelloSchema,
  MAX_BODY_BYTES,
  type Op,
  PROTOCOL_VERSION,
  RESULT_SCHEMAS,
  ReplySchema,
} from '../../../shared/desktopHost/protocol';
import type { Desktop, Screenshot, WindowInfo } from '../../../shared/ports/desktop';
import { DesktopError } from '../desktop/errors';

/** Options of connectDesktopHost. */
export interface RemoteDesktopOptions {
  /** `http://127.0.0.1:PORT` or `https://host:PORT`, as the host printed it. */
  url: string;
  token: string;
  /** PEM CA certificate(s) to trust for an https host with a private certificate. */
  ca?: string | Buffer;
  /** Longest wait for one call (a script's own timeout is added to it). @default 120 s */
  callTimeoutMs?: number;
}

/** A desktop driven through a desktop host; `hello` is what the host said of itself. */
export interface RemoteDesktop extends Desktop {
  hello: Hello;
  close(): Promise<void>;
}

type Value<O extends Op> = ReturnType<(typeof RESULT_SCHEMAS)[O]['parse']>;

/**
 * Connects to a desktop host (`skilldesk desktop-host`) and returns a `Desktop` that forwards every
 * port call to it. The executor, mediator and journal use it exactly as the local desktop: the
 * host's adapter errors arrive with their own codes, so guards and messages read the same.
 */
export async function connectDesktopHost(o: RemoteDesktopOptions): Promise<RemoteDesktop> {
  let base: URL;
  try {
    base = new URL(o.url);
  } catch {
    throw new DesktopError('desktop.host_bad_url', `Expected a desktop host URL such as http://127.0.0.1:47800, got \`${o.url}\``);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new DesktopError('desktop.host_bad_url', `Expected an http: or https: desktop host URL, got \`${o.url}\``);
  }
  const secure = base.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, ...(o.ca && { ca: o.ca }) }) : new HttpAgent({ keepAlive: true });
  const timeoutMs = o.callTimeoutMs ?? 120_000;

  const exchange = async (method: 'GET' | 'POST', path: string, body: string | undefined, waitMs: number, signal?: AbortSignal) => {
    const { status, text } = await send({ base, secure, agent, token: o.token, method, path, body, waitMs, signal });
    if (status === 401) {
      throw new DesktopError(
        'desktop.host_unauthorized',
        `The desktop host at ${o.url} refused the token; give the token it printed (SKILLDESK_DESKTOP_TOKEN)`,
      );
    }
    let reply;
    try {
      reply = ReplySchema.parse(JSON.parse(text));
    } catch {
      throw new DesktopError(
        'desktop.host_bad_reply',
        `The desktop host at ${o.url} answered HTTP ${status} with something that is not a SkillDesk reply`,
      );
    }
    if (!reply.ok) throw new DesktopError(reply.error.code, reply.error.message, { host: o.url });
    return reply.value;
  };

  const call = async <O extends Op>(
    c: Extract<Call, { op: O }>,
    extra: { waitMs?: number; signal?: AbortSignal } = {},
  ): Promise<Value<O>> => {
    const value = await exchange('POST', '/v1/call', JSON.stringify(c), extra.waitMs ?? timeoutMs, extra.signal);
    const parsed = RESULT_SCHEMAS[c.op].safeParse(value);
    if (!parsed.success) {
      throw new DesktopError(
        'desktop.host_bad_reply',
        `The desktop host's answer to ${c.op} does not match protocol ${PROTOCOL_VERSION}: ${parsed.error.issues[0]?.message}`,
      );
    }
    return parsed.data as Value<O>;
  };

  const helloValue = await exchange('GET', '/v1/hello', undefined, 15_000);
  const helloParsed = HelloSchema.safeParse(helloValue);
  if (!helloParsed.success) {
    throw new DesktopError('desktop.host_bad_reply', `The desktop host at ${o.url} sent a hello this version does not understand`);
  }
  const hello = helloParsed.data;
  if (hello.protocol !== PROTOCOL_VERSION) {
    throw new DesktopError(
      'desktop.host_version',
      `The desktop host at ${o.url} speaks protocol ${hello.protocol}; this SkillDesk speaks ${PROTOCOL_VERSION}. Run the same SkillDesk version on both sides`,
    );
  }

  return {
    hello,
    platform: hello.platform,
    input: {
      pressKey: async (key) => void (await call({ op: 'input.pressKey', key })),
      hotkey: async (keys) => void (await call({ op: 'input.hotkey', keys: [...keys] })),
      typeText: async (text) => void (await call({ op: 'input.typeText', text })),
      click: async (at, button, count) => void (await call({ op: 'input.click', at: point(at), button, count })),
      drag: async (from, to) => void (await call({ op: 'input.drag', from: point(from), to: point(to) })),
      scroll: async (at, dx, dy) => void (await call({ op: 'input.scroll', ...(at && { at: point(at) }), dx, dy })),
    },
    windows: {
      list: async (): Promise<WindowInfo[]> => (await call({ op: 'windows.list' })).map(withoutUndefined),
      active: async () => {
        const w = await call({ op: 'windows.active' });
        return w ? withoutUndefined(w) : undefined;
      },
      focus: async (id) => void (await call({ op: 'windows.focus', id })),
      close: async (id) => void (await call({ op: 'windows.close', id })),
    },
    screen: {
      capture: async (region): Promise<Screenshot> => {
        const shot = await call({ op: 'screen.capture', ...(region && { region }) });
        return { width: shot.width, height: shot.height, png: new Uint8Array(Buffer.from(shot.pngBase64, 'base64')) };
      },
    },
    clipboard: {
      readText: () => call({ op: 'clipboard.read' }),
      writeText: async (text) => void (await call({ op: 'clipboard.write', text })),
    },
    processes: {
      launch: (req) =>
        call({
          op: 'processes.launch',
          command: req.command,
          args: [...req.args],
          ...(req.env && { env: req.env }),
          ...(req.cwd !== undefined && { cwd: req.cwd }),
        }),
      runScript: (req) =>
        call(
          {
            op: 'processes.runScript',
            interpreter: req.interpreter,
            script: req.script,
            args: [...req.args],
            timeoutMs: req.timeoutMs,
            ...(req.env && { env: req.env }),
          },
          { waitMs: req.timeoutMs + timeoutMs, ...(req.signal && { signal: req.signal }) },
        ),
    },
    files: {
      exists: (path) => call({ op: 'files.exists', path }),
      readText: (path) => call({ op: 'files.readText', path }),
    },
    // Only a Windows host has a registry: elsewhere the port is left out, as a local desktop's is.
    ...(hello.platform === 'win32' && {
      registry: {
        readValue: async (key: string, name: string) => (await call({ op: 'registry.readValue', key, name })) ?? undefined,
      },
    }),
    close: async () => agent.destroy(),
  };
}

/** Pixel coordinates cross as integers (the host's schema refuses fractions). */
function point(p: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.round(p.x), y: Math.round(p.y) };
}

/** `exactOptionalPropertyTypes`-friendly copy: JSON never carries undefined, zod's output type may. */
function withoutUndefined(w: {
  id: string;
  title: string;
  pid?: number | undefined;
  processName?: string | undefined;
  className?: string | undefined;
  bounds: WindowInfo['bounds'];
}): WindowInfo {
  return {
    id: w.id,
    title: w.title,
    bounds: w.bounds,
    ...(w.pid !== undefined && { pid: w.pid }),
    ...(w.processName !== undefined && { processName: w.processName }),
    ...(w.className !== undefined && { className: w.className }),
  };
}

interface SendOptions {
  base: URL;
  secure: boolean;
  agent: HttpAgent;
  token: string;
  method: 'GET' | 'POST';
  path: string;
  body: string | undefined;
  waitMs: number;
  signal?: AbortSignal | undefined;
}

function send(s: SendOptions): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(s.path, s.base);
    const req = (s.secure ? httpsRequest : httpRequest)(
      url,
      {
        method: s.method,
        agent: s.agent,
        headers: {
          authorization: `${AUTH_SCHEME} ${s.token}`,
          ...(s.body !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s.body) }),
        },
        timeout: s.waitMs,
        ...(s.signal && { signal: s.signal }),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            res.destroy(new DesktopError('desktop.host_bad_reply', `The desktop host's reply exceeds ${MAX_BODY_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new DesktopError('desktop.host_timeout', `The desktop host at ${s.base.origin} did not answer within ${s.waitMs} ms`)),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof DesktopError) return reject(err);
      if (err.name === 'AbortError') return reject(new DesktopError('script.aborted', 'Stopped'));
      reject(
        new DesktopError(
          'desktop.host_unreachable',
          `Could not reach the desktop host at ${s.base.origin} (${err.code ?? err.message}); is \`skilldesk desktop-host\` running there?`,
        ),
      );
    });
    req.end(s.body);
  });
}
