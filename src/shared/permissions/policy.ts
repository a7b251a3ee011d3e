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
  /**
   * The trust the request runs with when a less trusted skill called this one: the lowest on
   * the call chain. The skill's own trust applies when absent; a call never raises it.
   */
  trust?: TrustTier;
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

/** A human-readable rendering of a target, for prompts and the audit. */
export function describeTarget(t: PermissionTarget): string | undefined {
  switch (t.kind) {
    case 'path':
      return t.path;
    case 'app':
      return `app:${t.app}`;
    case 'url':
      return t.url;
    case 'command':
      return t.command.length > 200 ? `${t.command.slice(0, 197)}...` : t.command;
    case 'skill':
      return `skill:${t.skill}`;
    case 'unknown':
      return `unknown${t.hint ? `:${t.hint}` : ''}`;
    case 'none':
      return undefined;
  }
}
