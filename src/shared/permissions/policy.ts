import type { Constraints, Effect, Manifest, PermissionEntry, TrustTier, WorkspacePolicy } from './manifest';
import type { ScopeEnv } from './scopes';
import type { Capability } from './taxonomy';

/** Types shared by the policy engine, the session, the mediator and simulation. */

/** What a request acts on; `unknown` when static analysis could not tell (only unconstrained entries allow it). */
export type PermissionTarget =
  | { kind: 'path'; path: string }
  | { kind: 'app'; app: string }
  | { kind: 'url'; url: string }
  | { kind: 'command'; command: string }
  | { kind: 'skill'; skill: string }
  | { kind: 'none' }
  | { kind: 'unknown'; hint?: string };

/** One capability a skill wants to use now. */
export interface PermissionRequest {
  skill: string;
  capability: Capability;
  target: PermissionTarget;
  /** Values `${arg}` slots in constraints bind to (the skill's arguments and variables). */
  args?: Readonly<Record<string, unknown>>;
  /** The app the step addresses; binds `${app}`. */
  app?: string;
  /** Epoch milliseconds (rate limits, time windows, grant expiry). */
  time: number;
}

/** A loaded skill as the policy sees it: the declared pool is the union of these manifests. */
export interface DeclaredSkill {
  permissions: Manifest;
  trust: TrustTier;
  /** The app the skill drives; input and launch entries without `apps` are scoped to it. */
  app?: string;
  version?: string;
}

export type GrantScope = 'once' | 'session' | 'persistent';

/**
 * A user's answer to a confirmation, made durable. Its constraints are a copy of the entry it
 * answered with argument slots bound at answer time, so a grant never reaches beyond that entry.
 */
export interface Grant {
  id: string;
  skill: string;
  capability: Capability;
  constraints: Constraints;
  scope: GrantScope;
  grantedAt: number;
  expiresAt?: number;
  revokedAt?: number;
  /** Policy source of the entry the grant answered. */
  answers?: string;
}

/** Everything `decide` needs: declared pool, workspace defaults, granted set, usage, environment. */
export interface PolicyState {
  skills: Readonly<Record<string, DeclaredSkill>>;
  workspace: WorkspacePolicy;
  grants: readonly Grant[];
  /** Allowed-decision timestamps per rate-limit key (`rateKey` of a decision). */
  usage: Readonly<Record<string, readonly number[]>>;
  env: ScopeEnv;
}

/** The outcome of `decide`. `source` names the entry or grant that decided, e.g. `manifest:mousepad.save_as#1`. */
export interface PolicyDecision {
  effect: Effect;
  reason: string;
  source: string;
  entry?: PermissionEntry;
  grantId?: string;
  fallbackMsg?: string;
  /** Key under which an allow counts against the deciding entry's rate limit. */
  rateKey?: string;
}

/** Commands longer than this are cut in a target's `summary` (reasons, the audit, CLI tables). */
const COMMAND_SUMMARY_CHARS = 200;

/**
 * A human-readable rendering of a target. `full` is what a permission prompt shows: the whole
 * target, never cut (a payload after a long comment must not go unseen). `summary`, for reasons,
 * the audit and tables, cuts a long command and says by how much (the audit row's args digest
 * still identifies the whole script).
 */
export function describeTarget(t: PermissionTarget, length: 'summary' | 'full' = 'summary'): string | undefined {
  switch (t.kind) {
    case 'path':
      return t.path;
    case 'app':
      return `app:${t.app}`;
    case 'url':
      return t.url;
    case 'command':
      return length === 'full' || t.command.length <= COMMAND_SUMMARY_CHARS
        ? t.command
        : `${t.command.slice(0, COMMAND_SUMMARY_CHARS)}… (${t.command.length - COMMAND_SUMMARY_CHARS} more characters)`;
    case 'skill':
      return `skill:${t.skill}`;
    case 'unknown':
      return `unknown${t.hint ? `:${t.hint}` : ''}`;
    case 'none':
      return undefined;
  }
}
