import type { BridgeTransport, Channel, EventChannel, IpcResult } from '../../../shared/ipc';

type Listener = (payload: unknown) => void;

/**
 * Host mode's transport: the contract over one WebSocket to the page's own origin (the auth
 * cookie travels with it). Calls made while disconnected wait for the reconnection; calls in
 * flight when the socket drops resolve with `ipc.disconnected`.
 */
export function createWsTransport(url: string, onConnection: (state: 'open' | 'closed') => void = () => {}): BridgeTransport {
  const listeners = new Map<EventChannel, Set<Listener>>();
  const pending = new Map<number, (r: IpcResult<unknown>) => void>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let retryMs = 250;

  const connect = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onConnection('open');
      for (const m of queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (msg) => {
      const data = JSON.parse(String(msg.data)) as { id?: number; result?: IpcResult<unknown>; event?: EventChannel; payload?: unknown };
      if (data.event) {
        for (const l of listeners.get(data.event) ?? []) l(data.payload);
      } else if (typeof data.id === 'number' && data.result) {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      }
    };
    ws.onclose = () => {
      onConnection('closed');
      for (const [id, resolve] of pending) {
        resolve({
          ok: false,
          error: { code: 'ipc.disconnected', message: 'Lost the connection to SkillDesk; reconnecting. Try again in a moment.' },
        });
        pending.delete(id);
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  connect();

  return {
    invoke(channel: Channel, request: unknown) {
      const id = nextId++;
      const message = JSON.stringify({ id, channel, payload: request });
      return new Promise((resolve) => {
        pending.set(id, resolve);
        if (socket?.readyState === WebSocket.OPEN) socket.send(message);
        else queue.push(message);
      });
    },
    subscribe(event: EventChannel, listener: Listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}
