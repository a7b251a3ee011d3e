import { argGuardHolds, type Guard } from '../conditions';
import { checkArgs, type ArgValues } from '../domains';
import type { Skill, SkillLibrary } from '../library';
import { renderDeep } from '../template';
import { modelFor, type ModelContext } from './models';
import { setClipboard } from './models/types';
import { renderFact, type SymbolicWorld } from './world';

/** What a step did to the symbolic world: the identities it set, and what it returns when known. */
export interface StepOutcome {
  /** Identities (world.ts) of the facts the step set: the task's check looks at these. */
  touched: Set<string>;
  result?: unknown;
}

/** Why a skill cannot run in a world (a precondition fails, or its model refuses). */
export class Blocked extends Error {}

/**
 * Runs a skill on the symbolic world: its declared postconditions first, then what its model
 * (models.ts) computes, or, for a composite without a model, its graph walked as a dry run walks
 * it (argument guards decided, guards on the screen taken as false) with each call applied in
 * turn. Throws Blocked when a precondition or a model says the skill cannot run.
 */
export function applySkill(library: SkillLibrary, w: SymbolicWorld, skill: Skill, app: string, given: ArgValues, depth = 0): StepOutcome {
  if (depth > 8) throw new Blocked(`\`${skill.id}\` calls too deep to model`);
  // What the run will use: an argument left out takes its default (a close that cancels keeps the document).
  const args: ArgValues = { ...defaultArgs(skill), ...given };
  // Every skill brings its app up when it is not running (a precondition the implementation meets itself).
  w.apply({ fact: 'app_running', holds: true, app });
  for (const f of skill.conditions.pre) {
    const q = renderFact(f, args, app);
    if (q && !w.holds(q)) throw new Blocked(`\`${skill.id}\` needs ${q.fact}${q.holds ? '' : ' not to hold'}`);
  }
  const model = modelFor(library, skill.implements && library.canonicalRef(skill.implements), app);
  const ctx: ModelContext = { app, ...(library.apps.get(app) && { profile: library.apps.get(app) }) };
  // Whether it can run is told by the world before it: its model, and a document open elsewhere in its suite.
  const why = model?.blocked?.(w, ctx, args) ?? openElsewhereInSuite(library, w, skill, app, args);
  if (why) throw new Blocked(`\`${skill.id}\`: ${why}`);
  const touched = new Set<string>();
  const before = new Map([...w.facts].map(([k, f]) => [k, JSON.stringify(f)]));
  for (const f of skill.conditions.post) {
    const p = renderFact(f, args, app);
    if (p) w.apply(p);
  }
  // A skill that writes the clipboard (a path pasted into a dialog) leaves it holding what the task cannot tell.
  if (skill.kind !== 'composite' && skill.permissions.some((p) => p.capability === 'clipboard.write')) setClipboardUnknown(w);
  let result: unknown;
  if (model?.apply) {
    result = model.apply(w, ctx, args)?.result;
  } else if (skill.kind === 'composite') {
    result = walkComposite(library, w, skill, app, args, depth, touched);
  }
  for (const [k, f] of w.facts) if (before.get(k) !== JSON.stringify(f)) touched.add(k);
  return { touched, ...(result !== undefined && { result }) };
}

/** The defaults of a skill's arguments. */
function defaultArgs(skill: Skill): ArgValues {
  const out: ArgValues = {};
  for (const [name, spec] of Object.entries(skill.args)) if ('default' in spec && spec.default !== undefined) out[name] = spec.default;
  return out;
}

/** The composite's graph from start to a terminal, as a dry run takes it; returns its `result`. */
function walkComposite(
  library: SkillLibrary,
  w: SymbolicWorld,
  skill: Skill,
  app: string,
  args: ArgValues,
  depth: number,
  touched: Set<string>,
): unknown {
  const scope: Record<string, unknown> = { ...args };
  let at = skill.graph.start;
  for (let steps = 0; steps < 200; steps++) {
    const node = skill.graph.nodes.find((n) => n.id === at);
    if (!node) throw new Blocked(`\`${skill.id}\` has no node \`${at}\``);
    if (node.kind === 'terminal') {
      if (node.outcome === 'failure') throw new Blocked(`\`${skill.id}\` would end at ${node.id}: ${node.message ?? 'failure'}`);
      return scope.result;
    }
    const p = node.primitive;
    if (p.action === 'call') {
      const callee = library.resolve(p.skill, app);
      const given = renderDeep(p.args ?? {}, scope) as ArgValues;
      // The callee's own domain (an app may take one item where the interface takes several).
      const checked = checkArgs(callee.args, given);
      if (!checked.ok) throw new Blocked(`\`${callee.id}\` refuses its arguments: ${checked.errors.join('; ')}`);
      const out = applySkill(library, w, callee, app, checked.values, depth + 1);
      for (const k of out.touched) touched.add(k);
      if (p.into) scope[p.into] = out.result;
    } else if (p.action === 'read' && p.into) {
      if (p.source !== 'clipboard') throw new Blocked(`\`${skill.id}\` reads the ${p.source}, which a task cannot know`);
      scope[p.into] = w.valueOf({ fact: 'clipboard_holds' });
    }
    const edges = skill.graph.edges
      .filter((e) => e.from === at)
      .sort((a, b) => (b.weight ?? 1) - (a.weight ?? 1))
      .filter((e) => !e.when || guardHolds(e.when, scope, w, library.apps.get(app)?.platforms ?? []));
    if (!edges[0]) throw new Blocked(`\`${skill.id}\` has no way on from \`${at}\``);
    at = edges[0].to;
  }
  throw new Blocked(`\`${skill.id}\` loops`);
}

/** A guard as a dry run decides it: arguments and files by value, anything on screen as false. */
function guardHolds(g: Guard, scope: Record<string, unknown>, w: SymbolicWorld, platforms: readonly string[]): boolean {
  if ('all' in g) return g.all.every((x) => guardHolds(x, scope, w, platforms));
  if ('any' in g) return g.any.some((x) => guardHolds(x, scope, w, platforms));
  if ('not' in g) return !guardHolds(g.not, scope, w, platforms);
  if ('platform' in g) return platforms.includes(g.platform);
  if ('arg' in g) return argGuardHolds(g, scope);
  if ('file_exists' in g) {
    const path = String(renderDeep(g.file_exists, scope));
    return w.holds({ fact: 'file_exists', holds: true, path }) || w.holds({ fact: 'folder_exists', holds: true, path });
  }
  return false;
}

function setClipboardUnknown(w: SymbolicWorld): void {
  if (w.valueOf({ fact: 'clipboard_holds' }) !== undefined) setClipboard(w, undefined);
}

/** Opening a file another app of the suite has open brings that app up, not this one (app profiles' `suite`). */
function openElsewhereInSuite(library: SkillLibrary, w: SymbolicWorld, skill: Skill, app: string, args: ArgValues): string | undefined {
  const suite = library.apps.get(app)?.suite;
  if (!suite || !skill.implements || library.canonicalRef(skill.implements) !== 'Document.open_file') return undefined;
  for (const other of library.apps.values()) {
    if (other.id === app || other.suite !== suite) continue;
    if (w.holds({ fact: 'document_open', holds: true, app: other.id, path: String(args.path) }))
      return `${String(args.path)} is open in ${other.id}, which shares its documents with ${app}`;
  }
  return undefined;
}
