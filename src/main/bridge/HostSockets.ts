import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { WebSocket } from 'ws';
import { fail, HOST_CLOSE_UNAUTHORIZED, type HostHello, type HostWelcome } from '../../shared/ipc';
import type { Dispatcher } from './Dispatcher';
import type { EventHub } from './EventHub';

/** How long a new socket has to present the token. */
const HELLO_TIMEOUT_MS = 10_000;

/** Timing-safe comparison of a presented secret with the expected one. */
export function sameSecret(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || expected === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Host mode's WebSocket sessions (protocol: src/shared/ipc/hostHandshake.ts): each socket must
 * present the token in its first message before it hears an event or reaches the dispatcher;
 * the first to claim it becomes the owner, the only one whose requests may answer prompts and
 * save settings.
 */
export class HostSockets {
  private readonly sockets = new Set<WebSocket>();
  private readonly ownerSockets = new Set<WebSocket>();
  /** Given once per launch, to the first page that claims it. */
  private ownerKey: string | undefined;

  constructor(
    private readonly o: {
      token: string;
      dispatcher: Dispatcher;
      hub: EventHub;
    },
  ) {}

  /** Authenticated sockets. */
  clients(): number {
    return this.sockets.size;
  }

  /** Authenticated owner sockets: the UIs that can answer prompts. */
  owners(): number {
    return this.ownerSockets.size;
  }

  terminateAll(): void {
    for (const s of this.sockets) s.terminate();
  }

  /** Takes a freshly upgraded socket; it is refused unless its first message is a valid hello. */
  accept(ws: WebSocket): void {
    let unsubscribe: (() => void) | undefined;
    let owner = false;
    const deadline = setTimeout(() => ws.close(HOST_CLOSE_UNAUTHORIZED, 'expected a hello with the token'), HELLO_TIMEOUT_MS);
    deadline.unref?.();
    const send = (message: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    ws.on('message', (data) => {
      const msg = parseMessage(data);
      if (!unsubscribe) {
        clearTimeout(deadline);
        const hello = msg as Partial<HostHello> | undefined;
        if (hello?.type !== 'hello' || !sameSecret(hello.token, this.o.token)) {
          ws.close(HOST_CLOSE_UNAUTHORIZED, 'missing or wrong token: open the URL SkillDesk printed');
          return;
        }
        owner = this.ownership(hello);
        this.sockets.add(ws);
        if (owner) this.ownerSockets.add(ws);
        unsubscribe = this.o.hub.subscribe((event, payload) => send({ event, payload }));
        send({ type: 'welcome', owner, ...(owner && { ownerKey: this.ownerKey }) } satisfies HostWelcome);
        return;
      }
      if (!msg || typeof msg !== 'object') {
        send({ id: null, result: fail('ipc.bad_message', 'Expected a JSON message {id, channel, payload}') });
        return;
      }
      const { id, channel, payload } = msg as { id?: unknown; channel?: unknown; payload?: unknown };
      const replyId = typeof id === 'number' || typeof id === 'string' ? id : null;
      void this.o.dispatcher.dispatch(channel, payload, { owner }).then((result) => send({ id: replyId, result }));
    });
    ws.on('close', () => {
      clearTimeout(deadline);
      this.sockets.delete(ws);
      this.ownerSockets.delete(ws);
      unsubscribe?.();
    });
  }

  /** Whether a hello makes its socket the owner: the key given earlier, or the first claim of this launch. */
  private ownership(hello: Partial<HostHello>): boolean {
    if (sameSecret(hello.ownerKey, this.ownerKey)) return true;
    if (hello.claimOwner !== true || this.ownerKey !== undefined) return false;
    this.ownerKey = randomBytes(24).toString('base64url');
    return true;
  }
}

function parseMessage(data: unknown): unknown {
  try {
    return JSON.parse(String(data)) as unknown;
  } catch {
    return undefined;
  }
}
