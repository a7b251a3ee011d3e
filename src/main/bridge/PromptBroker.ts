import { randomUUID } from 'node:crypto';
import type { PermissionPromptView, PromptAnswer } from '../../shared/ipc';
import type { EventHub } from './EventHub';

/** A question for the user, before the broker gives it an id and a deadline. */
export type PromptQuestion = Omit<PermissionPromptView, 'promptId' | 'askedAt' | 'expiresAt'>;

/** How a prompt ended: an answer, or no answer (counted as deny by the policy). */
export type PromptOutcome = PromptAnswer | 'timeout' | 'no_user';

export interface PromptBrokerOptions {
  hub: EventHub;
  /** Unanswered prompts are denied after this long. @default 120000 */
  timeoutMs?: number;
  /** How many UIs are connected; with none, a prompt is answered `no_user` at once. */
  connectedClients: () => number;
  now?: () => number;
}

/**
 * Asks permission questions through the UI (host mode's in-app modal): emits
 * `permissions:prompt`, waits for `permissions:answer`, and denies on timeout or abort, so a
 * run never waits forever on an absent user.
 */
export class PromptBroker {
  private readonly pending = new Map<string, { view: PermissionPromptView; settle: (o: PromptOutcome) => void }>();
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PromptBrokerOptions) {
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.now = options.now ?? Date.now;
  }

  /** Asks the user; resolves with the answer, `timeout`, or `no_user`. */
  ask(question: PromptQuestion, signal?: AbortSignal): Promise<PromptOutcome> {
    if (this.options.connectedClients() === 0) return Promise.resolve('no_user');
    const askedAt = this.now();
    const view: PermissionPromptView = { ...question, promptId: randomUUID(), askedAt, expiresAt: askedAt + this.timeoutMs };
    return new Promise<PromptOutcome>((resolve) => {
      const finish = (o: PromptOutcome): void => {
        if (!this.pending.delete(view.promptId)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.options.hub.emit('permissions:settled', { promptId: view.promptId, answer: o });
        resolve(o);
      };
      const onAbort = (): void => finish('deny');
      const timer = setTimeout(() => finish('timeout'), this.timeoutMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(view.promptId, { view, settle: finish });
      this.options.hub.emit('permissions:prompt', view);
    });
  }

  /** Records the user's answer; false when the prompt is unknown or already settled. */
  answer(promptId: string, answer: PromptAnswer): boolean {
    const p = this.pending.get(promptId);
    if (!p) return false;
    p.settle(answer);
    return true;
  }

  list(): PermissionPromptView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Denies everything pending (emergency stop, shutdown). */
  denyAll(): void {
    for (const p of [...this.pending.values()]) p.settle('deny');
  }
}
