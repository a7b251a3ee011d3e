import type { Channel, EventChannel, EventMap, RequestInput, ResponseOf } from './contract';
import type { IpcResult } from './result';

/**
 * The renderer's view of main, derived from the contract: `library:get` becomes
 * `libraryGet(req)`, event `run:event` becomes `onRunEvent(listener)`. Preload builds it over
 * Electron IPC; host mode builds the same object over a WebSocket.
 */

type Camel<S extends string> = S extends `${infer D}:${infer V}` ? `${D}${Capitalize<V>}` : never;

/** `library:get` -> `libraryGet`. */
export function methodName<C extends string>(channel: C): Camel<C> {
  const [d, v] = channel.split(':') as [string, string];
  return `${d}${v.charAt(0).toUpperCase()}${v.slice(1)}` as Camel<C>;
}

/** `run:event` -> `onRunEvent`. */
export function listenerName<E extends string>(event: E): `on${Capitalize<Camel<E>>}` {
  const m = methodName(event);
  return `on${m.charAt(0).toUpperCase()}${m.slice(1)}` as `on${Capitalize<Camel<E>>}`;
}

export type InvokeMethods = {
  [C in Channel as Camel<C>]: (request: RequestInput<C>) => Promise<IpcResult<ResponseOf<C>>>;
};

export type EventMethods = {
  [E in EventChannel as `on${Capitalize<Camel<E>>}`]: (listener: (payload: EventMap[E]) => void) => () => void;
};

/** What `window.skilldesk` is in Electron, and what the host-mode client implements. */
export type SkillDeskBridge = InvokeMethods & EventMethods;

/** The untyped transport both shells provide; `buildBridge` types it. */
export interface BridgeTransport {
  invoke(channel: Channel, request: unknown): Promise<IpcResult<unknown>>;
  subscribe(event: EventChannel, listener: (payload: unknown) => void): () => void;
}

/** Builds the typed bridge over a transport: one method per contract entry. */
export function buildBridge(transport: BridgeTransport, channels: readonly Channel[], events: readonly EventChannel[]): SkillDeskBridge {
  const bridge: Record<string, unknown> = {};
  for (const c of channels) bridge[methodName(c)] = (request: unknown) => transport.invoke(c, request ?? {});
  for (const e of events) bridge[listenerName(e)] = (listener: (payload: unknown) => void) => transport.subscribe(e, listener);
  return bridge as SkillDeskBridge;
}
