import { DEFAULT_WORKSPACE_ENTRIES, type WorkspacePolicy } from './manifest';
import { decide } from './PolicyEngine';
import type { DeclaredSkill, Grant, GrantScope, PermissionRequest, PolicyDecision, PolicyState } from './policy';
import type { ScopeEnv } from './scopes';

/**
 * The live session state around the pure engine: the declared pool (loaded skills' manifests),
 * the granted set (once / session / persistent grants) and rate-limit usage. Pure TS: the
 * mediator persists persistent grants and the audit; this only keeps the facts.
 */
export class PermissionSession {
  private readonly skills = new Map<string, DeclaredSkill>();
  private grants: Grant[] = [];
  /** Mutated in place: counting an allow does not invalidate the snapshot. */
  private readonly usage: Record<string, number[]> = {};
  private nextGrant = 1;
  private readonly idPrefix: string;
  /** `decide` runs before every primitive: the snapshot is rebuilt only after a change. */
  private snapshot?: PolicyState;

  constructor(
    readonly workspace: WorkspacePolicy,
    readonly env: ScopeEnv,
    init: { skills?: Record<string, DeclaredSkill>; grants?: readonly Grant[]; idPrefix?: string } = {},
  ) {
    for (const [id, s] of Object.entries(init.skills ?? {})) this.skills.set(id, s);
    this.grants = [...(init.grants ?? [])];
    this.idPrefix = init.idPrefix ?? 's';
  }

  /** Adds (or replaces) a skill in the declared pool. */
  loadSkill(id: string, skill: DeclaredSkill): void {
    this.skills.set(id, skill);
    this.snapshot = undefined;
  }

  hasSkill(id: string): boolean {
    return this.skills.has(id);
  }

  /** A snapshot for `decide`. */
  state(): PolicyState {
    return (this.snapshot ??= {
      skills: Object.fromEntries(this.skills),
      workspace: this.workspace,
      grants: this.grants,
      usage: this.usage,
      env: this.env,
    });
  }

  decide(req: PermissionRequest): PolicyDecision {
    return decide(req, this.state());
  }

  /** Records an allow: counts it against rate limits and consumes a once-grant. */
  recordAllowed(decision: PolicyDecision, time: number): void {
    if (decision.effect !== 'allow') return;
    // Only allows under a rate-limited entry or grant are counted, and only within its window.
    const count = (key: string, limit: { per_seconds: number } | undefined) => {
      if (!limit) return;
      this.usage[key] = [...(this.usage[key] ?? []).filter((t) => t > time - limit.per_seconds * 1000), time];
    };
    if (decision.rateKey) count(decision.rateKey, decision.entry?.constraints?.rate_limit);
    if (decision.grantId) {
      const g = this.grants.find((x) => x.id === decision.grantId);
      if (g?.scope === 'once') {
        this.grants = this.grants.filter((x) => x !== g);
        this.snapshot = undefined;
      } else if (g) count(`grant:${g.id}`, g.constraints.rate_limit);
    }
  }

  /**
   * Turns an answer to a confirm into a grant for exactly what the prompt showed: this skill
   * content, this capability, this target (canonical, compared exactly: glob characters in it
   * are plain characters). Nothing is copied from the entry that asked, so an unconstrained
   * entry (the workspace's `secrets.* confirm`) yields a grant for one file, not for all.
   * Undefined when the target is unknown: what could not be shown cannot be granted ahead, and
   * the answer counts for this request only.
   */
  grantFor(
    req: PermissionRequest,
    decision: PolicyDecision,
    scope: GrantScope,
    opts: { expiresAt?: number; id?: string } = {},
  ): Grant | undefined {
    if (decision.effect !== 'confirm' || !decision.entry) {
      throw new Error(`Expected a confirm decision to grant, got \`${decision.effect}\` from ${decision.source}`);
    }
    if (req.target.kind === 'unknown') return undefined;
    const contentHash = this.skills.get(req.skill)?.contentHash;
    const grant: Grant = {
      id: opts.id ?? `${this.idPrefix}${this.nextGrant++}`,
      skill: req.skill,
      capability: req.capability,
      scope,
      constraints: {},
      target: req.target,
      ...(contentHash !== undefined && { skillHash: contentHash }),
      grantedAt: req.time,
      answers: decision.source,
      ...(opts.expiresAt !== undefined && { expiresAt: opts.expiresAt }),
    };
    this.grants = [...this.grants, grant];
    this.snapshot = undefined;
    return grant;
  }

  /** Adds an existing grant (a persistent one read back from the store). */
  addGrant(grant: Grant): void {
    this.grants = [...this.grants.filter((g) => g.id !== grant.id), grant];
    this.snapshot = undefined;
  }

  revokeGrant(id: string, at: number): boolean {
    const g = this.grants.find((x) => x.id === id);
    if (!g) return false;
    this.grants = this.grants.map((x) => (x.id === id ? { ...x, revokedAt: at } : x));
    this.snapshot = undefined;
    return true;
  }

  listGrants(): readonly Grant[] {
    return this.grants;
  }
}

/** The workspace policy used when none is configured. */
export function defaultWorkspacePolicy(): WorkspacePolicy {
  return { version: 1, entries: [...DEFAULT_WORKSPACE_ENTRIES], trust: {}, folders: {} };
}
