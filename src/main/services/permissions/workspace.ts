import { existsSync, readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SkillDeskError } from '../../../shared/errors';
import { ConstraintsSchema, parseWorkspacePolicy, type Folders, type WorkspacePolicy } from '../../../shared/permissions/manifest';
import type { Grant } from '../../../shared/permissions/policy';
import type { ScopeEnv } from '../../../shared/permissions/scopes';
import { defaultWorkspacePolicy } from '../../../shared/permissions/session';
import { isCapability } from '../../../shared/permissions/taxonomy';
import { listGrants, type StoreDb } from '../store';
import { createPathCanonicalizer, foldsCaseAt } from './canonicalPaths';

/** The workspace policy file in the data folder: `policy.yaml` or `policy.json`; built-in defaults when absent. */
export function loadWorkspacePolicy(dataDir: string): { policy: WorkspacePolicy; file?: string } {
  for (const name of ['policy.yaml', 'policy.yml', 'policy.json']) {
    const file = join(dataDir, name);
    if (!existsSync(file)) continue;
    let raw: unknown;
    try {
      const text = readFileSync(file, 'utf8');
      raw = name.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      throw new SkillDeskError('permissions.policy_unreadable', `Cannot read the workspace policy ${file}: ${(err as Error).message}`);
    }
    const res = parseWorkspacePolicy(raw, file);
    if (!res.ok) throw new SkillDeskError('permissions.policy_invalid', `The workspace policy is invalid:\n  ${res.errors.join('\n  ')}`);
    return { policy: res.value, file };
  }
  return { policy: defaultWorkspacePolicy() };
}

/**
 * This machine's folders and conventions, with the workspace policy's folder overrides applied.
 * The folders are canonical (symlinks resolved, e.g. macOS's `/var` -> `/private/var`), since the
 * paths they are compared with are; paths compare case-insensitively on Windows, and on macOS when
 * the home folder's volume ignores case.
 */
export function localScopeEnv(policy: WorkspacePolicy, platform: NodeJS.Platform = process.platform): ScopeEnv {
  const home = homedir();
  const pathStyle = platform === 'win32' ? 'win32' : 'posix';
  const canonical = createPathCanonicalizer({ style: pathStyle });
  const folders: Folders = {
    home,
    documents: join(home, 'Documents'),
    desktop: join(home, 'Desktop'),
    downloads: join(home, 'Downloads'),
    temp: tmpdir(),
    ...policy.folders,
  };
  for (const key of Object.keys(folders) as (keyof Folders)[]) {
    const c = folders[key] === undefined ? undefined : canonical(folders[key]);
    if (c?.ok) folders[key] = c.path;
  }
  return {
    folders,
    pathStyle,
    ...((platform === 'win32' || (platform === 'darwin' && foldsCaseAt(home))) && { caseInsensitive: true }),
    utcOffsetMinutes: -new Date().getTimezoneOffset(),
  };
}

/**
 * Active persistent grants from the store, as session grants, each bound to the skill content it
 * was given for; rows that no longer validate, or that name no content (stored before schema 3),
 * are skipped.
 */
export function persistentGrants(db: StoreDb, now = Date.now()): Grant[] {
  return listGrants(db, { state: 'active', now }).flatMap((row): Grant[] => {
    const c = ConstraintsSchema.safeParse(row.constraints);
    if (!c.success || !isCapability(row.capability) || row.skillHash === null) return [];
    return [
      {
        id: `p${row.id}`,
        skill: row.skillId,
        capability: row.capability,
        constraints: c.data,
        skillHash: row.skillHash,
        scope: 'persistent',
        grantedAt: row.grantedAt,
        ...(row.expiresAt !== null && { expiresAt: row.expiresAt }),
      },
    ];
  });
}
