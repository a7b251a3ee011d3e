import { isAppScoped } from '../../../shared/permissions/constraints';
import type { Constraints, Manifest, PermissionEntry } from '../../../shared/permissions/manifest';
import { describeTarget } from '../../../shared/permissions/policy';
import { CAPABILITIES, patternCovers, patternMatches, type Capability } from '../../../shared/permissions/taxonomy';
import { callEdges, mediatedSteps, splitRef, type LibraryProblem, type Skill, type SkillLibrary } from '../../../shared/skill';
import { defaultScriptInferrer, primitiveNeeds, type ScriptInferrer } from './primitiveNeeds';

/**
 * Manifest derivation: the capabilities a skill's graph needs, including those of the skills
 * it calls (every implementation, for a polymorphic call) and those inferred from its scripts.
 * `checkSkillManifest` compares that with what the skill declares: under-declared is an error
 * (the loader rejects the skill), over-declared a warning.
 */

export interface DerivedNeed {
  capability: Capability;
  /** Targets as templates: app ids (`${app}` for the caller's app), path templates, URLs. */
  scopes: string[];
  /** Where: `skill#node`, through calls. */
  from: string[];
}

export interface DerivedManifest {
  skill: string;
  needs: DerivedNeed[];
  /** Parts that could not be analysed (scripts, callees): the skill cannot be admitted. */
  errors: string[];
  /** A manifest that declares exactly the needs (allow, scoped where the scope is known). */
  suggested: Manifest;
}

export interface DeriveOptions {
  infer?: ScriptInferrer;
}

/** Derives what `skill` needs from its graph and callees. */
export function deriveManifest(skill: Skill, library: SkillLibrary, opts: DeriveOptions = {}): DerivedManifest {
  const infer = opts.infer ?? defaultScriptInferrer;
  const needs = new Map<Capability, DerivedNeed>();
  const errors: string[] = [];
  const add = (capability: Capability, scope: string | undefined, from: string) => {
    const n = needs.get(capability) ?? { capability, scopes: [], from: [] };
    if (scope !== undefined && !n.scopes.includes(scope)) n.scopes.push(scope);
    if (!n.from.includes(from)) n.from.push(from);
    needs.set(capability, n);
  };
  const visit = (s: Skill, chain: string[], mapScope: (scope: string, cap: Capability) => string) => {
    const path = [...chain, s.id];
    const at = (nodeId: string) => `${path.join(' > ')}#${nodeId}`;
    for (const node of mediatedSteps(s)) {
      const where = at(node.id);
      const res = primitiveNeeds(s, node.primitive, {
        raw: node.primitive,
        ...(s.app ? { app: s.app } : { app: '${app}' }),
        screenshot: node.screenshot,
        infer,
        ...(s.app && library.apps.has(s.app) && { profile: library.apps.get(s.app)! }),
      });
      if (res.unanalysable) errors.push(`${where}: ${res.unanalysable}`);
      for (const n of res.needs)
        add(n.capability, mapScope(describeTarget(n.target)?.replace(/^(app|skill):/, '') ?? '', n.capability) || undefined, where);
    }
    if (chain.length > 8 || chain.includes(s.id)) return;
    for (const { nodeId, call } of callEdges(s.graph)) {
      for (const callee of callees(library, call.skill, s.app, errors, at(nodeId))) {
        visit(callee, path, (scope, cap) => {
          // The callee's `${arg}` becomes what the call passes; its own app becomes the caller's.
          let out = scope.replace(/\$\{([a-z][a-z0-9_]*)\}/g, (m, name: string) => {
            const v = call.args?.[name];
            return typeof v === 'string' ? v : v === undefined ? m : String(v);
          });
          if (isAppScoped(cap) && callee.app && out === callee.app) out = s.app ?? '${app}';
          return mapScope(out, cap);
        });
      }
    }
  };
  visit(skill, [], (scope) => scope);
  // Feasible domains computed by a command run a script too, before the skill starts.
  for (const [name, spec] of Object.entries(skill.args)) {
    if (spec.type !== 'choice') continue;
    const where = `${skill.id} args.${name}`;
    if (spec.source.kind === 'directory') add('file.read', spec.source.path, where);
    if (spec.source.kind !== 'command') continue;
    add('script.execute', undefined, where);
    const r = infer(spec.source.script, spec.source.interpreter, []);
    for (const c of r.capabilities) add(c.capability, describeTarget(c.target), where);
    if (!r.ok) errors.push(`${where}: the choice command cannot be fully analysed: ${r.errors.slice(0, 2).join('; ')}`);
  }
  const list = [...needs.values()].sort((a, b) => a.capability.localeCompare(b.capability));
  return { skill: skill.id, needs: list, errors, suggested: list.map((n) => suggestEntry(n)) };
}

function callees(library: SkillLibrary, ref: string, app: string | undefined, errors: string[], where: string): Skill[] {
  const { head } = splitRef(ref);
  if (!library.interfaces.has(head)) {
    const s = library.skills.get(ref);
    if (!s) errors.push(`${where}: calls unknown skill \`${ref}\``);
    return s ? [s] : [];
  }
  if (app) {
    try {
      return [library.resolve(ref, app)];
    } catch (err) {
      errors.push(`${where}: ${(err as Error).message}`);
      return [];
    }
  }
  // A composite runs in whichever app calls it: it may reach every implementation.
  const direct = library.skills.get(ref);
  return [...library.implementationsOf(ref), ...(direct && direct.kind === 'composite' ? [direct] : [])];
}

function suggestEntry(n: DerivedNeed): PermissionEntry {
  const scope = CAPABILITIES[n.capability].scope;
  const known = n.scopes.filter((s) => s && !s.startsWith('unknown') && s !== 'none');
  const constraints: Constraints = {};
  if (scope === 'app' && known.length) constraints.apps = known;
  if (
    scope === 'path' &&
    known.length &&
    known.every((s) => s.startsWith('/') || s.startsWith('${') || s.startsWith('~') || /^[A-Za-z]:/.test(s))
  )
    constraints.paths = known;
  if (scope === 'url' && known.length && known.every((s) => /^[a-z]+:\/\//.test(s))) constraints.urls = known;
  return {
    capability: n.capability,
    effect: CAPABILITIES[n.capability].level === 'normal' ? 'allow' : 'confirm',
    ...(Object.keys(constraints).length && { constraints }),
  };
}

export interface ManifestCheck {
  errors: string[];
  warnings: string[];
  derived: DerivedManifest;
}

/** Under-declared needs are errors (reject the skill); over-declared and too-broad entries are warnings. */
export function checkSkillManifest(skill: Skill, library: SkillLibrary, opts: DeriveOptions = {}): ManifestCheck {
  const derived = deriveManifest(skill, library, opts);
  const errors = [...derived.errors];
  const warnings: string[] = [];
  const manifest = skill.permissions;
  for (const need of derived.needs) {
    const covering = manifest.filter((e) => e.effect !== 'deny' && patternCovers(e.capability, need.capability));
    const where = need.from.slice(0, 2).join(', ') + (need.from.length > 2 ? `, +${need.from.length - 2} more` : '');
    const suggestion = JSON.stringify(suggestEntry(need))
      .replace(/"([a-z_]+)":/g, '$1: ')
      .replace(/,/g, ', ');
    if (covering.length === 0) {
      errors.push(
        `under-declared: needs \`${need.capability}\`${need.scopes.length ? ` on ${need.scopes.slice(0, 3).join(', ')}` : ''} (${where}) but the manifest does not declare it; add ${suggestion}`,
      );
      continue;
    }
    if (isAppScoped(need.capability)) {
      const own = skill.app ?? '${app}';
      for (const app of need.scopes) {
        if (app.startsWith('unknown')) continue;
        const ok = covering.some(
          (e) => (e.constraints?.apps ?? [own]).includes(app) || (!skill.app && (e.constraints?.apps ?? ['${app}']).includes('${app}')),
        );
        if (!ok) errors.push(`under-declared: \`${need.capability}\` to app \`${app}\` (${where}) is not in any entry's \`apps\``);
      }
    }
  }
  manifest.forEach((e, i) => {
    if (e.capability === '*') warnings.push(`entry #${i} (${e.effect} *) covers every capability; name the ones the skill needs`);
    if (e.effect === 'deny') return;
    if (!derived.needs.some((n) => patternMatches(e.capability, n.capability))) {
      warnings.push(`over-declared: entry #${i} (${e.effect} ${e.capability}) matches nothing the skill's graph needs`);
    }
    const kinds = new Set(expandScopes(e.capability));
    const c = e.constraints ?? {};
    if ((c.paths || c.workspace_only) && !kinds.has('path')) warnings.push(`entry #${i}: \`paths\` has no effect on ${e.capability}`);
    if (c.apps && !kinds.has('app')) warnings.push(`entry #${i}: \`apps\` has no effect on ${e.capability}`);
    if ((c.domains || c.urls || c.hosts) && !kinds.has('url'))
      warnings.push(`entry #${i}: \`domains\`/\`urls\`/\`hosts\` have no effect on ${e.capability}`);
  });
  return { errors, warnings, derived };
}

function expandScopes(pattern: string): string[] {
  return (Object.keys(CAPABILITIES) as Capability[]).filter((c) => patternMatches(pattern, c)).map((c) => CAPABILITIES[c].scope);
}

/**
 * Applies manifest checking to a loaded library: under-declared skills are removed and reported
 * as errors (file, `permissions` path); over-declared ones stay, with warnings. For the loader.
 * @returns the problems added to `library.problems`
 */
export function enforceManifests(library: SkillLibrary, opts: DeriveOptions = {}): LibraryProblem[] {
  const added: LibraryProblem[] = [];
  const at = (s: Skill): (string | number)[] =>
    s.kind === 'composite' ? ['methods', splitRef(s.id).method, 'composite', 'permissions'] : ['permissions'];
  // Decide on every skill first: removing one must not change how its callers are judged.
  const checks = [...library.skills.values()].map((s) => ({ s, check: checkSkillManifest(s, library, opts) }));
  for (const { s, check } of checks) {
    for (const message of check.errors) added.push({ file: s.source.file, path: at(s), message: `${s.id}: ${message}`, severity: 'error' });
    for (const message of check.warnings)
      added.push({ file: s.source.file, path: at(s), message: `${s.id}: ${message}`, severity: 'warning' });
    if (check.errors.length) library.skills.delete(s.id);
  }
  library.problems.push(...added);
  return added;
}
