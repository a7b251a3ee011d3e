import { randomBytes, randomUUID } from 'node:crypto';
import { SkillDeskError } from '../../shared/errors';
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
  /** How many UIs that may answer (host mode's owner pages) are connected; with none, a prompt is answered `no_user` at once. */
  connectedClients: () => number;
  /**
   * How long a prompt must have been on screen (since `show`) before an answer counts, so neither a
   * script nor a double click meant for the previous prompt can answer it. @default 700
   */
  minDisplayMs?: number;
  now?: () => number;
}

interface Pending {
  view: PermissionPromptView;
  settle: (o: PromptResult) => void;
  /** Nonce of each time the prompt was shown -> when; an answer must name one. */
  shown: Map<string, number>;
}

/** At most this many live `show` nonces per prompt (a page that reconnects shows it again). */
const MAX_SHOWS = 8;

/**
 * Asks permission questions through the UI (host mode's in-app modal): emits
 * `permissions:prompt`, waits for `permissions:answer`, and denies on timeout or abort, so a
 * run never waits forever on an absent user.
 *
 * An answer needs proof that the prompt was on screen: the page calls `show` when its modal
 * displays the prompt and gets a nonce that neither the prompt event nor `list` carries; the
 * answer must bring that nonce, at least `minDisplayMs` after the `show`. (Who may call `show`
 * and `answer` at all is the transport's business: host mode lets only its owner page.)
 */
export class PromptBroker implements PermissionPrompter {
  private readonly pending = new Map<string, Pending>();
  private readonly maxTimeoutMs: number;
  private readonly minDisplayMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PromptBrokerOptions) {
    this.maxTimeoutMs = options.maxTimeoutMs ?? 300_000;
    this.minDisplayMs = options.minDisplayMs ?? 700;
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
      this.pending.set(view.promptId, { view, settle: finish, shown: new Map() });
      this.options.hub.emit('permissions:prompt', view);
    });
  }

  /**
   * Records that a page displays the prompt now; returns the nonce its answer must carry and how
   * long until an answer counts. Undefined when the prompt is unknown or already settled.
   */
  show(promptId: string): { nonce: string; answerableInMs: number } | undefined {
    const p = this.pending.get(promptId);
    if (!p) return undefined;
    if (p.shown.size >= MAX_SHOWS) p.shown.delete(p.shown.keys().next().value!);
    const nonce = randomBytes(16).toString('base64url');
    p.shown.set(nonce, this.now());
    return { nonce, answerableInMs: this.minDisplayMs };
  }

  /**
   * Records the user's answer; false when the prompt is unknown or already settled. Throws
   * `permissions.not_shown` without a nonce from `show`, and `permissions.too_soon` before the
   * prompt has been on screen for `minDisplayMs` (the prompt stays pending in both cases).
   */
  answer(promptId: string, answer: PromptAnswer, nonce: string): boolean {
    const p = this.pending.get(promptId);
    if (!p) return false;
    const shownAt = p.shown.get(nonce);
    if (shownAt === undefined)
      throw new SkillDeskError(
        'permissions.not_shown',
        'Refused an answer to a prompt that was not shown: answer it with the buttons of the SkillDesk page.',
      );
    const onScreen = this.now() - shownAt;
    if (onScreen < this.minDisplayMs)
      throw new SkillDeskError(
        'permissions.too_soon',
        `Refused an answer given ${onScreen} ms after the prompt appeared: read it first (at least ${this.minDisplayMs} ms).`,
      );
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
