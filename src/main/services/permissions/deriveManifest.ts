import { isAppScoped } from '../../../shared/permissions/constraints';
import type { Constraints, Manifest, PermissionEntry } from '../../../shared/permissions/manifest';
import { describeTarget } from '../../../shared/permissions/policy';
import { CAPABILITIES, patternCovers, patternMatches, type Capability } from '../../../shared/permissions/taxonomy';
import {
  SITE_SLOT,
  callEdges,
  descriptorOf,
  mediatedSteps,
  splitRef,
  type LibraryProblem,
  type Skill,
  type SkillLibrary,
} from '../../../shared/skill';
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
  /**
   * What the web pages its steps (and callees' steps) drive may send, decided request by request
   * when they do (`web.post`...): declaring these is not over-declaring, needing them is not known.
   */
  requests: Capability[];
}

export interface DeriveOptions {
  infer?: ScriptInferrer;
  /**
   * Derivations shared between the skills of one library (a callee is derived once, not once per
   * call path: ten skills calling the next ten times would otherwise be 10^10 visits).
   * @default a memo for this call alone
   */
  memo?: DerivationMemo;
}

/** What a skill's graph and callees need, in the skill's own terms (its `${args}`, its app). */
interface LocalNeeds {
  needs: Map<Capability, { scopes: Set<string>; from: string[] }>;
  errors: string[];
  requests: Set<Capability>;
}

/** Memoised local needs per skill id; create one per library with `new Map()`. */
export type DerivationMemo = Map<string, LocalNeeds>;

/** Evidence kept per need (where it comes from): messages show two and count the rest. */
const MAX_FROM = 12;

/**
 * Skills derived (not found in the memo) for one skill's manifest. Memoisation makes an acyclic
 * call graph linear; call cycles with fan-out could still multiply, and past this the skill is
 * refused rather than analysed for minutes.
 */
export const MAX_DERIVATIONS = 5000;

class DerivationBudgetExceeded extends Error {}

/** Derives what `skill` needs from its graph and callees. */
export function deriveManifest(skill: Skill, library: SkillLibrary, opts: DeriveOptions = {}): DerivedManifest {
  const infer = opts.infer ?? defaultScriptInferrer;
  const needs = new Map<Capability, DerivedNeed>();
  const errors: string[] = [];
  let local: LocalNeeds;
  try {
    local = localNeeds(skill, library, infer, opts.memo ?? new Map(), new Set(), { left: MAX_DERIVATIONS }).result;
  } catch (err) {
    if (!(err instanceof DerivationBudgetExceeded)) throw err;
    local = { needs: new Map(), errors: [], requests: new Set() };
    errors.push(
      `${skill.id}: its calls reach more than ${MAX_DERIVATIONS} skill derivations (call cycles with fan-out); the manifest cannot be checked`,
    );
  }
  errors.push(...local.errors);
  const add = (capability: Capability, scope: string | undefined, from: string) => {
    const n = needs.get(capability) ?? { capability, scopes: [], from: [] };
    if (scope !== undefined && !n.scopes.includes(scope)) n.scopes.push(scope);
    if (!n.from.includes(from)) n.from.push(from);
    needs.set(capability, n);
  };
  for (const [capability, n] of local.needs) {
    needs.set(capability, { capability, scopes: [...n.scopes], from: [...n.from] });
  }
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
  return { skill: skill.id, needs: list, errors, suggested: list.map((n) => suggestEntry(n)), requests: [...local.requests].sort() };
}

/**
 * A skill's needs in its own terms: its mediated steps, plus each callee's needs with the call's
 * arguments substituted and the callee's app read as the caller's. Memoised per skill, except a
 * result that leaned on a skill still being derived (a call cycle): that one is partial, and is
 * derived again from wherever it is asked for.
 * @returns the needs, and the skills in progress they leaned on (other than `s` itself)
 */
function localNeeds(
  s: Skill,
  library: SkillLibrary,
  infer: ScriptInferrer,
  memo: DerivationMemo,
  inProgress: Set<string>,
  budget: { left: number },
): { result: LocalNeeds; leanedOn: Set<string> } {
  const cached = memo.get(s.id);
  if (cached) return { result: cached, leanedOn: new Set() };
  if (inProgress.has(s.id)) return { result: { needs: new Map(), errors: [], requests: new Set() }, leanedOn: new Set([s.id]) };
  if (--budget.left < 0) throw new DerivationBudgetExceeded();
  inProgress.add(s.id);
  const result: LocalNeeds = { needs: new Map(), errors: [], requests: new Set() };
  const leanedOn = new Set<string>();
  const add = (capability: Capability, scope: string, from: string) => {
    let n = result.needs.get(capability);
    if (!n) result.needs.set(capability, (n = { scopes: new Set(), from: [] }));
    if (scope) n.scopes.add(scope);
    if (n.from.length < MAX_FROM && !n.from.includes(from)) n.from.push(from);
  };
  const at = (nodeId: string) => `${s.id}#${nodeId}`;
  for (const node of mediatedSteps(s)) {
    const res = primitiveNeeds(s, node.primitive, {
      raw: node.primitive,
      ...(s.app ? { app: s.app } : { app: '${app}' }),
      screenshot: node.screenshot,
      infer,
      ...(s.app && library.apps.has(s.app) && { profile: library.apps.get(s.app)! }),
      // A web step's relative URLs stand on the app's website, whichever origin it resolves to at run time.
      site: SITE_SLOT,
    });
    for (const c of descriptorOf(node.primitive).requests ?? []) result.requests.add(c);
    if (res.unanalysable) result.errors.push(`${at(node.id)}: ${res.unanalysable}`);
    for (const n of res.needs) add(n.capability, describeTarget(n.target)?.replace(/^(app|skill):/, '') ?? '', at(node.id));
  }
  for (const { nodeId, call } of callEdges(s.graph)) {
    // A composite runs on the apps of its own interface: only their implementations can be reached.
    const domain = s.kind === 'composite' ? splitRef(s.id).head : undefined;
    for (const callee of callees(library, call.skill, s.app, result.errors, at(nodeId), domain)) {
      const sub = localNeeds(callee, library, infer, memo, inProgress, budget);
      for (const id of sub.leanedOn) if (id !== s.id) leanedOn.add(id);
      for (const e of sub.result.errors) if (result.errors.length < MAX_FROM) result.errors.push(`${s.id} > ${e}`);
      for (const c of sub.result.requests) result.requests.add(c);
      for (const [capability, n] of sub.result.needs) {
        // The callee's `${arg}` becomes what the call passes; its own app becomes the caller's.
        const mapped = [...n.scopes].map((scope) => {
          const out = scope.replace(/\$\{([a-z][a-z0-9_]*)\}/g, (m, name: string) => {
            const v = call.args?.[name];
            return typeof v === 'string' ? v : v === undefined ? m : String(v);
          });
          return isAppScoped(capability) && callee.app && out === callee.app ? (s.app ?? '${app}') : out;
        });
        const from = n.from.map((f) => `${s.id} > ${f}`);
        if (mapped.length === 0) for (const f of from) add(capability, '', f);
        for (const scope of mapped) for (const f of from) add(capability, scope, f);
      }
    }
  }
  inProgress.delete(s.id);
  if (leanedOn.size === 0) memo.set(s.id, result);
  return { result, leanedOn };
}

function callees(library: SkillLibrary, ref: string, app: string | undefined, errors: string[], where: string, domain?: string): Skill[] {
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
  const direct = library.skills.get(library.canonicalRef(ref));
  const reachable = library.implementationsOf(ref).filter((impl) => !domain || library.appImplements(impl.app!, domain));
  return [...reachable, ...(direct && direct.kind === 'composite' ? [direct] : [])];
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
  // A URL, or a path on the app's own website (`${site}/...`, whichever origin serves it).
  if (scope === 'url' && known.length && known.every((s) => /^[a-z]+:\/\//.test(s) || s.startsWith(`${SITE_SLOT}/`)))
    constraints.urls = known;
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
    const needed = [...derived.needs.map((n) => n.capability), ...derived.requests];
    if (!needed.some((c) => patternMatches(e.capability, c))) {
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
  const shared: DeriveOptions = { ...opts, memo: opts.memo ?? new Map() };
  const checks = [...library.skills.values()].map((s) => ({ s, check: checkSkillManifest(s, library, shared) }));
  for (const { s, check } of checks) {
    for (const message of check.errors) added.push({ file: s.source.file, path: at(s), message: `${s.id}: ${message}`, severity: 'error' });
    for (const message of check.warnings)
      added.push({ file: s.source.file, path: at(s), message: `${s.id}: ${message}`, severity: 'warning' });
    if (check.errors.length) library.skills.delete(s.id);
  }
  library.problems.push(...added);
  return added;
}
