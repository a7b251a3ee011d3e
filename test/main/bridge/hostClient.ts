import { request } from 'node:http';
import { WebSocket } from 'ws';
import type { HostHello, HostWelcome, IpcResult } from '../../../src/shared/ipc';

/** Test helpers speaking host mode's HTTP and WebSocket protocol as a page or a script would. */

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
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
export function connect(url: string, headers: Record<string, string> = {}): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

/** A socket after its hello: the server's welcome, or the close code it answered with. */
export interface Session {
  ws: WebSocket;
  welcome?: HostWelcome;
  closed?: number;
  /** Every event received, in order. */
  events: { event: string; payload: unknown }[];
  call<T = unknown>(channel: string, payload?: unknown): Promise<IpcResult<T>>;
  /** Resolves with the first event named `event` whose payload passes `match`. */
  nextEvent(event: string, match?: (payload: unknown) => boolean): Promise<unknown>;
}

/** Connects to `/ws` of `port` with the page's Origin and says hello. */
export async function openSession(port: number, hello: Omit<HostHello, 'type'>, origin = `http://127.0.0.1:${port}`): Promise<Session> {
  const { ws, status } = await connect(`ws://127.0.0.1:${port}/ws`, { origin });
  if (!ws) throw new Error(`upgrade refused with ${status}`);
  const events: Session['events'] = [];
  const replies = new Map<number, (r: IpcResult<unknown>) => void>();
  const waiters: { event: string; match: (p: unknown) => boolean; resolve: (p: unknown) => void }[] = [];
  let nextId = 1;
  const session = await new Promise<Session>((resolve) => {
    const s: Session = {
      ws,
      events,
      call: <T>(channel: string, payload: unknown = {}) =>
        new Promise<IpcResult<T>>((ok) => {
          const id = nextId++;
          replies.set(id, ok as (r: IpcResult<unknown>) => void);
          ws.send(JSON.stringify({ id, channel, payload }));
        }),
      nextEvent: (event, match = () => true) =>
        new Promise((ok) => {
          const seen = events.find((e) => e.event === event && match(e.payload));
          if (seen) ok(seen.payload);
          else waiters.push({ event, match, resolve: ok });
        }),
    };
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as {
        type?: string;
        id?: number;
        result?: IpcResult<unknown>;
        event?: string;
        payload?: unknown;
      };
      if (msg.type === 'welcome') {
        s.welcome = msg as HostWelcome;
        resolve(s);
      } else if (msg.event) {
        events.push({ event: msg.event, payload: msg.payload });
        for (const w of waiters.filter((x) => x.event === msg.event && x.match(msg.payload))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg.payload);
        }
      } else if (typeof msg.id === 'number') replies.get(msg.id)?.(msg.result!);
    });
    ws.on('close', (code) => {
      s.closed = code;
      resolve(s);
    });
    ws.send(JSON.stringify({ type: 'hello', ...hello }));
  });
  return session;
}
