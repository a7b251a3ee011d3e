import type { GrantView } from '../../shared/ipc';
import type { ActionMediator } from '../../shared/ports/mediation';
import type { PermissionPrompter } from '../../shared/ports/prompter';
import type { SkillLibrary } from '../../shared/skill';
import { createPolicyMediator, loadWorkspacePolicy } from '../services/permissions';
import { listGrants, revokeGrant, type StoreDb } from '../services/store';
import { describeTarget } from '../../shared/permissions/policy';

/** Grants answered "allow for this session", which the Permissions screen lists and revokes. */
export interface SessionGrants {
  list(): GrantView[];
  revoke(id: string): boolean;
}

/** What the mediator reads from the core it guards. */
export interface MediatedCore {
  loadLibrary(): Promise<{ library: SkillLibrary }>;
  readonly db?: StoreDb | undefined;
}

/**
 * The one mediator factory, for every shell (CLI, host mode, Electron): the policy mediator asks
 * through the shell's prompter (terminal, in-page modal or native dialog), audits to the core's
 * store, reads the user's workspace policy, and keeps one permission session per core, so
 * "allow for this session" lasts until the shell exits. Built on the first run.
 */
export function corePermissions(o: { dataDir: string; prompter: PermissionPrompter; now?: () => number }): {
  createMediator(core: MediatedCore): ActionMediator;
  sessionGrants: SessionGrants;
} {
  let built: ReturnType<typeof createPolicyMediator> | undefined;
  const now = o.now ?? Date.now;
  return {
    createMediator: (core) =>
      (built ??= createPolicyMediator({
        library: async () => (await core.loadLibrary()).library,
        prompter: o.prompter,
        ...(core.db && { db: core.db }),
        workspace: loadWorkspacePolicy(o.dataDir).policy,
        ...(o.now && { now: o.now }),
      })).mediator,
    sessionGrants: {
      list: () =>
        (built?.session.listGrants() ?? [])
          .filter((g) => g.scope !== 'persistent' && g.revokedAt === undefined && (g.expiresAt === undefined || g.expiresAt > now()))
          .map((g): GrantView => ({
            id: g.id,
            scope: 'session',
            skillId: g.skill,
            capability: g.capability,
            // A grant from a prompt covers one target: show it (its constraints are empty).
            constraints: g.target ? { target: describeTarget(g.target) } : (g.constraints as Record<string, unknown>),
            grantedAt: g.grantedAt,
            expiresAt: g.expiresAt ?? null,
          })),
      revoke: (id) => built?.session.revokeGrant(id, now()) ?? false,
    },
  };
}

/** Active grants as the Permissions screen lists them: this session's, then the persistent ones ("always allow") from the store. */
export function grantViews(sessionGrants: SessionGrants, db: StoreDb): GrantView[] {
  const persistent = listGrants(db, { state: 'active' }).map((g): GrantView => ({
    id: `p${g.id}`,
    scope: 'persistent',
    skillId: g.skillId,
    capability: g.capability,
    constraints: g.constraints,
    grantedAt: g.grantedAt,
    expiresAt: g.expiresAt,
  }));
  return [...sessionGrants.list(), ...persistent];
}

/** Revokes a grant by the id `grantViews` gave it: `p<n>` is persistent grant n, anything else a session grant. */
export function revokeGrantView(sessionGrants: SessionGrants, db: StoreDb, id: string): boolean {
  const m = /^p(\d+)$/.exec(id);
  if (m) return revokeGrant(db, Number(m[1])) === 'revoked';
  return sessionGrants.revoke(id);
}
