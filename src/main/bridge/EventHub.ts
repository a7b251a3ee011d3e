import type { EventChannel, EventMap } from '../../shared/ipc';

type Listener = <E extends EventChannel>(event: E, payload: EventMap[E]) => void;

/** Fans main's events out to every connected UI (Electron windows, host-mode sockets). */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  /** Registers a sink for every event; returns its removal. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void {
    for (const l of this.listeners) {
      try {
        l(event, payload);
      } catch {
        // a closed window or socket must not stop the others from hearing about the run
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
