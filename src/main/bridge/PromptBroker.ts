import { randomUUID } from 'node:crypto';
import type { PermissionPromptView, PromptAnswer } from '../../shared/ipc';
import type { PermissionPrompt, PermissionPrompter, PromptResult } from '../../shared/ports/prompter';
import type { EventHub } from './EventHub';

/** The prompt as the UI shows it (skill, capability, target, policy source, reason). */
export function promptView(p: PermissionPrompt, promptId: string, askedAt: number, timeoutMs: number): PermissionPromptView {
  return {
    promptId,
    askedAt,
    expiresAt: askedAt + timeoutMs,
    skillId: p.skill.id,
    trust: p.skill.trust,
    capability: p.capability,
    level: p.level,
    ...(p.target && { target: p.target }),
    ...(p.fallbackMsg && { fallbackMsg: p.fallbackMsg }),
    reason: p.reason,
    policySource: p.policySource,
  };
}

export interface PromptBrokerOptions {
  hub: EventHub;
  /** Upper bound on how long a prompt waits, whatever the prompt asks for. @default 300000 */
  maxTimeoutMs?: number;
  /** How many UIs are connected; with none, a prompt is answered `no_user` at once. */
  connectedClients: () => number;
  now?: () => number;
}

/**
 * Asks permission questions through the UI (host mode's in-app modal): emits
 * `permissions:prompt`, waits for `permissions:answer`, and denies on timeout or abort, so a
 * run never waits forever on an absent user.
 */
export class PromptBroker implements PermissionPrompter {
  private readonly pending = new Map<string, { view: PermissionPromptView; settle: (o: PromptResult) => void }>();
  private readonly maxTimeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PromptBrokerOptions) {
    this.maxTimeoutMs = options.maxTimeoutMs ?? 300_000;
    this.now = options.now ?? Date.now;
  }

  /** Asks the user; never rejects: no UI, a timeout or an abort resolve `deny` with who stood in. */
  ask(prompt: PermissionPrompt, signal?: AbortSignal): Promise<PromptResult> {
    if (this.options.connectedClients() === 0) return Promise.resolve({ answer: 'deny', by: 'no_user' });
    if (signal?.aborted) return Promise.resolve({ answer: 'deny', by: 'cancelled' });
    const timeoutMs = Math.min(Math.max(prompt.timeoutMs, 1), this.maxTimeoutMs);
    const view = promptView(prompt, randomUUID(), this.now(), timeoutMs);
    return new Promise<PromptResult>((resolve) => {
      const finish = (o: PromptResult): void => {
        if (!this.pending.delete(view.promptId)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.options.hub.emit('permissions:settled', { promptId: view.promptId, answer: o.answer, by: o.by });
        resolve(o);
      };
      const onAbort = (): void => finish({ answer: 'deny', by: 'cancelled' });
      const timer = setTimeout(() => finish({ answer: 'deny', by: 'timeout' }), timeoutMs);
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
    p.settle({ answer, by: 'user' });
    return true;
  }

  list(): PermissionPromptView[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Denies everything pending (emergency stop, shutdown). */
  denyAll(): void {
    for (const p of [...this.pending.values()]) p.settle({ answer: 'deny', by: 'cancelled' });
  }
}
