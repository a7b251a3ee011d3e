import { SkillDeskError } from '../../../shared/errors';
import { constraintsWithin, isCapability, patternMatches, withImplicitApps, type Constraints } from '../../../shared/permissions';
import type { SkillLibrary } from '../../../shared/skill';
import { localScopeEnv, skillContentHash } from '../../services/permissions';
import { addGrant, grantState, listGrants, revokeGrant, type StoreDb } from '../../services/store';
import { formatTime, table, type Output } from '../output';

/**
 * Persistent grants ("always allow"), for administrators. A grant answers a `confirm` entry of
 * the skill's manifest ahead of time: it must name a capability some confirm entry covers, and
 * its constraints default to (and may only narrow) that entry's, so it never widens scope.
 */

export interface GrantOptions {
  path?: string[];
  app?: string[];
  domain?: string[];
  /** Age such as `7d`, or an ISO time. */
  expires?: string;
  json?: boolean;
}

const hasSlot = (s: string) => /\$\{[^}]+\}/.test(s);

/** Adds a persistent grant after checking it stays within a confirm entry of the skill. */
export function permissionsGrant(
  db: StoreDb,
  library: SkillLibrary,
  skillId: string,
  capability: string,
  o: GrantOptions,
  io: Output,
  now = Date.now(),
): number {
  const skill = library.skills.get(skillId);
  if (!skill)
    throw new SkillDeskError(
      'permissions.unknown_skill',
      `No skill \`${skillId}\`; grants name a concrete skill id (see \`skilldesk skills list\`)`,
    );
  if (!isCapability(capability))
    throw new SkillDeskError('cli.bad_option', `Expected a capability name such as \`file.write\`, got \`${capability}\``);
  const entries = skill.permissions.filter((e) => e.effect === 'confirm' && patternMatches(e.capability, capability));
  if (entries.length === 0) {
    throw new SkillDeskError(
      'permissions.nothing_to_grant',
      `\`${skillId}\` has no confirm entry for ${capability}; a grant can only answer one ahead of time (allow entries need none, anything else stays denied)`,
    );
  }
  const given: Constraints = {
    ...(o.path?.length && { paths: o.path }),
    ...(o.app?.length && { apps: o.app }),
    ...(o.domain?.length && { domains: o.domain }),
  };
  const env = localScopeEnv({ version: 1, entries: [], trust: {}, folders: {} });
  // Scopes bound to arguments are checked again at decision time (the entry must still apply); others must contain the grant's.
  const fixed = (c: Constraints): Constraints => ({
    ...c,
    ...(c.paths && { paths: c.paths.some(hasSlot) ? undefined : c.paths }),
    ...(c.apps && { apps: c.apps.some(hasSlot) ? undefined : c.apps }),
  });
  const entry = entries.find((e) => {
    const ec = withImplicitApps(e.constraints, capability, skill.app);
    const mine = Object.keys(given).length ? { ...ec, ...given } : ec;
    return constraintsWithin(mine, stripUndefined(fixed(ec)), env);
  });
  if (!entry) {
    throw new SkillDeskError(
      'permissions.grant_too_wide',
      `The grant's constraints ${JSON.stringify(given)} reach beyond every confirm entry of \`${skillId}\` for ${capability}: ${entries.map((e) => JSON.stringify(e.constraints ?? {})).join(', ')}`,
    );
  }
  const constraints = { ...withImplicitApps(entry.constraints, capability, skill.app), ...given };
  const expiresAt = o.expires === undefined ? null : expiry(o.expires, now);
  // Bound to this version of the skill: a file replaced under the same id does not inherit it.
  const row = addGrant(db, { skillId, capability, constraints, skillHash: skillContentHash(skill), grantedAt: now, expiresAt });
  io.out(
    o.json
      ? JSON.stringify(row, null, 2)
      : `Granted #${row.id}: ${skillId} may ${capability} ${JSON.stringify(constraints)} without asking${expiresAt ? ` until ${formatTime(expiresAt)}` : ' until revoked'}`,
  );
  return 0;
}

function stripUndefined(c: Constraints): Constraints {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as Constraints;
}

function expiry(value: string, now: number): number {
  const rel = /^(\d+)\s*(m|h|d)$/.exec(value.trim());
  if (rel) return now + Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm' | 'h' | 'd'];
  const t = Date.parse(value);
  if (Number.isNaN(t) || t <= now)
    throw new SkillDeskError('cli.bad_option', `Expected \`--expires\` to be an age like 7d or a future ISO time, got \`${value}\``);
  return t;
}

/** Lists grants (active ones unless `all`). */
export function permissionsGrants(db: StoreDb, o: { all?: boolean; skill?: string; json?: boolean }, io: Output, now = Date.now()): number {
  const rows = listGrants(db, { state: o.all ? 'all' : 'active', now, ...(o.skill && { skill: o.skill }) });
  if (o.json)
    io.out(
      JSON.stringify(
        rows.map((r) => ({ ...r, state: grantState(r, now) })),
        null,
        2,
      ),
    );
  else if (rows.length === 0) io.out('No persistent grants.');
  else {
    io.out(
      table(
        ['ID', 'SKILL', 'CAPABILITY', 'CONSTRAINTS', 'GRANTED', 'EXPIRES', 'STATE'],
        rows.map((r) => [
          String(r.id),
          r.skillId,
          r.capability,
          JSON.stringify(r.constraints),
          formatTime(r.grantedAt),
          r.expiresAt ? formatTime(r.expiresAt) : 'never',
          grantState(r, now),
        ]),
      ),
    );
  }
  return 0;
}

/** Revokes a grant by id. Exit 1 when there is no such grant. */
export function permissionsRevoke(db: StoreDb, id: string, io: Output, now = Date.now()): number {
  const n = Number(id.replace(/^#/, ''));
  if (!Number.isInteger(n) || n <= 0) throw new SkillDeskError('cli.bad_option', `Expected a grant id such as \`3\`, got \`${id}\``);
  const r = revokeGrant(db, n, now);
  io.out(r === 'revoked' ? `Revoked grant #${n}.` : r === 'already_revoked' ? `Grant #${n} was already revoked.` : `No grant #${n}.`);
  return r === 'not_found' ? 1 : 0;
}
