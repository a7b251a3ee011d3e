import type { GrantView } from '../../shared/ipc';
import { describeTarget } from '../../shared/permissions/policy';
import type { PermissionPrompter } from '../../shared/ports/prompter';
import type { Core } from '../core/Core';
import { createPolicyMediator, loadWorkspacePolicy } from '../services/permissions';

/**
 * Complete mediation for a UI shell: the policy mediator asks through the shell's prompter
 * (in-page modal or native dialog), audits to the core's store, and keeps one permission session
 * per launch, whose grants the Permissions screen lists and revokes.
 */
export function wirePermissions(o: { dataDir: string; prompter: PermissionPrompter; now?: () => number }) {
  let built: ReturnType<typeof createPolicyMediator> | undefined;
  const now = o.now ?? Date.now;
  return {
    /** For `CoreOptions.createMediator`; built on the first run, once per core. */
    createMediator: (core: Core) =>
      (built ??= createPolicyMediator({
        library: async () => (await core.loadLibrary()).library,
        prompter: o.prompter,
        ...(core.db && { db: core.db }),
        workspace: loadWorkspacePolicy(o.dataDir).policy,
      })).mediator,
    /** Grants answered in this session ("allow for this session"); persistent ones are in the store. */
    sessionGrants: {
      list: (): GrantView[] =>
        (built?.session.listGrants() ?? [])
          .filter((g) => g.scope !== 'persistent' && g.revokedAt === undefined && (g.expiresAt === undefined || g.expiresAt > now()))
          .map((g) => ({
            id: g.id,
            scope: 'session',
            skillId: g.skill,
            capability: g.capability,
            // A grant from a prompt covers one target: show it (its constraints are empty).
            constraints: g.target ? { target: describeTarget(g.target) } : (g.constraints as Record<string, unknown>),
            grantedAt: g.grantedAt,
            expiresAt: g.expiresAt ?? null,
          })),
      revoke: (id: string): boolean => built?.session.revokeGrant(id, now()) ?? false,
    },
  };
}
