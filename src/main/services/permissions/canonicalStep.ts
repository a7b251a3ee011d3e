import type { CapabilityNeed } from '../../../shared/permissions/needs';
import type { PermissionTarget } from '../../../shared/permissions/policy';
import { canonicalRegistryKey, REGISTRY_ROOTS_HELP } from '../../../shared/registryKeys';
import { primitivePaths, type ArgSpecs, type ArgValues, type Primitive } from '../../../shared/skill';
import type { PathCanonicalizer } from './canonicalPaths';
import { isProfilePath, isSchedulerPath, isSecretPath } from './inference/paths';

/**
 * Puts one step's paths in canonical form before the mediator decides anything: every path
 * target of its needs, its path fields (`primitivePaths`) and the values of its path arguments
 * (which `${arg}` scopes bind to). The credential and shell-profile checks run again on the
 * canonical paths, so a link that leads to `~/.ssh/id_rsa` asks for `secrets.read` like the
 * file itself would. A path that cannot be canonicalised stops the step (fail closed).
 */

export type CanonicalStep =
  | { ok: true; needs: CapabilityNeed[]; args: ArgValues }
  | { ok: false; reason: string; capability: CapabilityNeed['capability']; target: string };

export interface CanonicalStepInput {
  primitive: Primitive;
  needs: readonly CapabilityNeed[];
  /** Targets found by script analysis: `~` there is the home folder the shell expands, and wildcards are expanded at run time. */
  inferred: ReadonlySet<PermissionTarget>;
  args: Readonly<ArgValues>;
  argSpecs: ArgSpecs;
  canonicalize: PathCanonicalizer;
  /** The home folder (for `~` in script paths). */
  home: string | undefined;
}

export function canonicalizeStep(o: CanonicalStepInput): CanonicalStep {
  for (const path of primitivePaths(o.primitive)) {
    const c = o.canonicalize(path);
    if (!c.ok) return { ok: false, reason: c.reason, capability: 'file.read', target: path };
  }
  const needs: CapabilityNeed[] = [];
  for (const need of o.needs) {
    if (need.target.kind !== 'path') {
      needs.push(need);
      continue;
    }
    const raw = need.target.path;
    // A registry key is no file: its canonical form spells its root out. One that names no root cannot be judged.
    if (need.capability === 'registry.read' || need.capability === 'registry.write') {
      const key = canonicalRegistryKey(raw);
      if (!key)
        return {
          ok: false,
          reason: `\`${raw}\` is not a registry key (it starts with none of ${REGISTRY_ROOTS_HELP})`,
          capability: need.capability,
          target: raw,
        };
      needs.push({ ...need, target: { kind: 'path', path: key.key } });
      continue;
    }
    const fromScript = o.inferred.has(need.target);
    if (fromScript && /[*?[]/.test(raw))
      return {
        ok: false,
        reason: `\`${raw}\` has wildcards the shell expands when the script runs: the files it names cannot be judged now`,
        capability: need.capability,
        target: raw,
      };
    const c = o.canonicalize(raw, fromScript && o.home !== undefined ? { home: o.home } : {});
    if (!c.ok) return { ok: false, reason: c.reason, capability: need.capability, target: raw };
    const target: PermissionTarget = { kind: 'path', path: c.path };
    needs.push({ ...need, target });
    const via = c.path === raw ? need.detail : `${need.detail} (via ${raw})`;
    if (need.capability === 'file.read' && (isSecretPath(c.path) || isSecretPath(raw)))
      needs.push({ capability: 'secrets.read', target, detail: via });
    if (need.capability === 'file.write' && (isProfilePath(c.path) || isProfilePath(raw)))
      needs.push({ capability: 'settings.write', target, detail: via });
    // A systemd unit, cron table, launch agent or task file saved from any app runs later, as a script's would.
    if (need.capability === 'file.write' && (isSchedulerPath(c.path) || isSchedulerPath(raw)))
      needs.push({ capability: 'scheduled_job.create', target, detail: via });
  }
  const args: ArgValues = { ...o.args };
  for (const [name, spec] of Object.entries(o.argSpecs)) {
    const v = args[name];
    if (spec.type !== 'path' || typeof v !== 'string') continue;
    // An argument that cannot be canonicalised keeps its value: scopes bound to it then match no canonical target.
    const c = o.canonicalize(v);
    if (c.ok) args[name] = c.path;
  }
  return { ok: true, needs, args };
}
