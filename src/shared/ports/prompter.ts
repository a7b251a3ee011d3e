import type { TrustTier } from '../permissions/manifest';
import type { ProtectionLevel } from '../permissions/taxonomy';

/**
 * Approval of sensitive actions. The mediator asks when the policy says `confirm`; adapters
 * are the Electron native dialog, the renderer modal (host mode) and the terminal prompt.
 * Contract: an adapter that cannot reach a person, or gets no answer within `timeoutMs`,
 * resolves `deny` with `by: 'no_user'` or `by: 'timeout'`; it never rejects for those.
 */
export interface PermissionPrompt {
  skill: { id: string; version: string; trust: TrustTier };
  capability: string;
  level: ProtectionLevel;
  /**
   * What the action touches (path, app, URL, command), whole and raw: never shortened, and
   * possibly holding control or bidi characters. Adapters show it through `formatPromptText`
   * or `displaySegments` (src/shared/permissions/), which escape them.
   */
  target?: string;
  /** The entry that asked, e.g. `manifest:mousepad.save_as#1`. */
  policySource: string;
  /** The manifest's message for this entry, if any: the skill's words, shown labelled as such. */
  fallbackMsg?: string;
  /** The engine's explanation. */
  reason: string;
  /** How long the adapter waits for an answer. */
  timeoutMs: number;
}

export type PromptAnswer = 'allow_once' | 'allow_session' | 'deny';

export interface PromptResult {
  answer: PromptAnswer;
  /** Who answered: the user, or the deny that stands in when nobody could. */
  by: 'user' | 'timeout' | 'no_user' | 'cancelled';
}

export interface PermissionPrompter {
  ask(prompt: PermissionPrompt, signal?: AbortSignal): Promise<PromptResult>;
}
