import {
  HOST_CLOSE_UNAUTHORIZED,
  type BridgeTransport,
  type Channel,
  type EventChannel,
  type HostHello,
  type HostWelcome,
  type IpcResult,
} from '../../../shared/ipc';

type Listener = (payload: unknown) => void;

/** `open` once the server accepted the token; `refused` when it did not (no reconnection then). */
export type ConnectionState = 'open' | 'closed' | 'refused';

/** What the page presents in its hello (src/shared/ipc/hostHandshake.ts). */
export interface HostCredentials {
  /** The per-launch token from the URL's fragment; undefined when the page was opened without it. */
  token: string | undefined;
  ownerKey(): string | undefined;
  setOwnerKey(key: string): void;
}

const REFUSED: IpcResult<never> = {
  ok: false,
  error: {
    code: 'ipc.unauthorized',
    message: 'This page has no valid SkillDesk token: open the address `skilldesk serve` printed (it ends in #token=...).',
  },
};

/**
 * Host mode's transport: the contract over one WebSocket to the page's own origin. The first
 * message presents the token (and the owner key, or a claim to it); calls wait until the server
 * welcomes the page. Calls made while disconnected wait for the reconnection; calls in flight
 * when the socket drops resolve with `ipc.disconnected`.
 */
export function createWsTransport(
  url: string,
  credentials: HostCredentials,
  onConnection: (state: ConnectionState, session?: { owner: boolean }) => void = () => {},
): BridgeTransport & { close(): void } {
  const listeners = new Map<EventChannel, Set<Listener>>();
  const pending = new Map<number, (r: IpcResult<unknown>) => void>();
  /** Calls not sent yet (made before the welcome); they survive a reconnection. */
  const queue: { id: number; message: string }[] = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let welcomed = false;
  let refused = credentials.token === undefined;
  let retryMs = 250;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const connect = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    welcomed = false;
    ws.onopen = () => {
      const ownerKey = credentials.ownerKey();
      const hello: HostHello = { type: 'hello', token: credentials.token ?? '', claimOwner: true, ...(ownerKey && { ownerKey }) };
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (msg) => {
      const data = JSON.parse(String(msg.data)) as Partial<HostWelcome> & {
        id?: number;
        result?: IpcResult<unknown>;
        event?: EventChannel;
        payload?: unknown;
      };
      if (!welcomed) {
        if (data.type !== 'welcome') return;
        welcomed = true;
        retryMs = 250;
        if (data.ownerKey) credentials.setOwnerKey(data.ownerKey);
        onConnection('open', { owner: data.owner === true });
        for (const q of queue.splice(0)) ws.send(q.message);
      } else if (data.event) {
        for (const l of listeners.get(data.event) ?? []) l(data.payload);
      } else if (typeof data.id === 'number' && data.result) {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      }
    };
    ws.onerror = () => {}; // a close event follows every error; it is handled there
    ws.onclose = (e) => {
      welcomed = false;
      refused = e.code === HOST_CLOSE_UNAUTHORIZED;
      onConnection(refused ? 'refused' : 'closed');
      if (refused) queue.length = 0;
      const unsent = new Set(queue.map((q) => q.id));
      for (const [id, resolve] of pending) {
        if (unsent.has(id)) continue;
        resolve(
          refused
            ? REFUSED
            : {
                ok: false,
                error: { code: 'ipc.disconnected', message: 'Lost the connection to SkillDesk; reconnecting. Try again in a moment.' },
              },
        );
        pending.delete(id);
      }
      if (refused || stopped) return; // a wrong token stays wrong: reconnecting would only hammer the server
      retry = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  if (refused) onConnection('refused');
  else connect();

  return {
    invoke(channel: Channel, request: unknown) {
      if (refused) return Promise.resolve(REFUSED);
      const id = nextId++;
      const message = JSON.stringify({ id, channel, payload: request });
      return new Promise((resolve) => {
        pending.set(id, resolve);
        if (welcomed && socket?.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push({ id, message });
      });
    },
    subscribe(event: EventChannel, listener: Listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    /** Closes the socket for good (no reconnection). */
    close() {
      stopped = true;
      clearTimeout(retry);
      socket?.close();
    },
  };
}
