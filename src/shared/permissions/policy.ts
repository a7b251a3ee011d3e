import type { Constraints, Effect, Manifest, PermissionEntry, TrustTier, WorkspacePolicy } from './manifest';
import { lexicalCanonicalPath } from './canonical';
import { foldsCase, normalizePath, type ScopeEnv } from './scopes';
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
   * The origin of the website the step's app is; binds `${site}`. Always from the app profile,
   * never from the skill's arguments: without it `${site}` matches nothing.
   */
  site?: string;
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
  /** SHA-256 of the skill's source: grants answered for one content apply to that content only. */
  contentHash?: string;
}

export type GrantScope = 'once' | 'session' | 'persistent';

/**
 * A user's answer to a confirmation, made durable. A grant from a prompt is bound to the exact
 * target the prompt showed (`target`) and to the content of the skill that asked (`skillHash`);
 * an administrator's grant (`skilldesk permissions grant`) carries constraints no wider than the
 * confirm entry it answers. Either way a grant only turns a confirm into an allow.
 */
export interface Grant {
  id: string;
  skill: string;
  capability: Capability;
  /** Further conditions (administrators' grants); `{}` for grants from a prompt. */
  constraints: Constraints;
  /** The one target this grant answers (canonical, compared exactly; never a pattern). */
  target?: PermissionTarget;
  /** Content hash of the skill version the answer was given for; it applies to no other version. */
  skillHash?: string;
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

/**
 * Whether two targets name the same resource, exactly: paths by their canonical form (case-folded
 * where the file system folds case), URLs by their WHATWG serialisation, anything else as text.
 * An unknown target equals nothing: what analysis could not pin down was never shown to anyone.
 */
export function sameTarget(a: PermissionTarget, b: PermissionTarget, env: ScopeEnv): boolean {
  switch (a.kind) {
    case 'path': {
      if (b.kind !== 'path') return false;
      const x = lexicalCanonicalPath(a.path, env.pathStyle);
      const y = lexicalCanonicalPath(b.path, env.pathStyle);
      const fold = foldsCase(env);
      return x.ok && y.ok && normalizePath(x.path, env.pathStyle, fold) === normalizePath(y.path, env.pathStyle, fold);
    }
    case 'url':
      return b.kind === 'url' && serializeUrl(a.url) === serializeUrl(b.url);
    case 'app':
      return b.kind === 'app' && a.app === b.app;
    case 'command':
      return b.kind === 'command' && a.command === b.command;
    case 'skill':
      return b.kind === 'skill' && a.skill === b.skill;
    case 'none':
      return b.kind === 'none';
    case 'unknown':
      return false;
  }
}

function serializeUrl(u: string): string {
  try {
    return new URL(u).href;
  } catch {
    return u;
  }
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
