import { z } from 'zod';
import { SkillDeskError } from '../../errors';
import { checkArgs, sampleArg, seededRandom, type ArgSpec, type ArgValue, type ArgValues } from '../domains';
import type { Skill, SkillLibrary } from '../library';
import { compositionGraph, type MayFollowEdge, type StateNode } from '../states';
import { callTree, primitiveCount } from '../tasks';
import { renderTemplate } from '../template';
import { composeChecks, TaskCheckSchema } from './checks';
import { applySkill, Blocked } from './effects';
import {
  extensionOf,
  FIXTURE_IMAGE_SIZE,
  fixtureFor,
  fixtureSuffix,
  markArchive,
  markTitle,
  TEXT_SAMPLES,
  type FixtureFile,
} from './fixtures';
import { instructionFor } from './instruction';
import { modelFor } from './models';
import { SymbolicWorld } from './world';

const FixtureSchema = z.union([z.strictObject({ text: z.string() }), z.strictObject({ base64: z.string() })]);

/** A task synthesized by a walk on the composition graph, with everything needed to run and check it again. */
export const SynthesizedTaskSchema = z.strictObject({
  /** `s<seed>-<index>`: the seed and the position give the task back. */
  id: z.string(),
  seed: z.number().int(),
  index: z.number().int().min(0),
  instruction: z.string(),
  /** The apps it runs on, in order of first use. */
  apps: z.array(z.string()),
  /** Its own folder (made empty before a run) and the files and folders it starts from. */
  dir: z.string(),
  setup: z.strictObject({ files: z.record(z.string(), FixtureSchema), folders: z.array(z.string()) }),
  /** The skills to run, in order: the method or app skill asked for, the app, the arguments. */
  steps: z.array(z.strictObject({ skill: z.string(), app: z.string(), args: z.record(z.string(), z.unknown()) })),
  check: z.array(TaskCheckSchema).min(1),
  /** Every concrete skill the steps run, callees included (each once). */
  skills: z.array(z.string()),
  /** Primitive actions summed over those skills' graphs. */
  primitives: z.number().int(),
});
export type SynthesizedTask = z.infer<typeof SynthesizedTaskSchema>;

export interface SynthesisOptions {
  /** The apps tasks may use; each task starts on the next one in turn. */
  apps: readonly string[];
  count: number;
  /** @default 1 */
  seed?: number;
  /** Each task works in `<tempDir>/<id>` (POSIX). */
  tempDir: string;
  /** Skills per task. @default 2 */
  minSteps?: number;
  /** @default 8 */
  maxSteps?: number;
}

/** What the graph can make: its runnable skills, may-follow edges, and skill sequences of 2..8 along them. */
export interface SynthesisSpace {
  nodes: number;
  mayFollow: number;
  /** Walks of `minSteps`..`maxSteps` skills along may-follow edges (a decimal string: it outgrows numbers). */
  walks: string;
}

const ATTEMPTS = 40;

/**
 * Synthesizes tasks by walks on the composition graph (after CUA-Skill): each task starts on an
 * app, and every next skill is one whose preconditions hold in the world the task has made so far
 * (preferring skills a may-follow edge links to the last one, across apps through files and the
 * clipboard), with arguments bound to what earlier steps made (the file one step saves is the one
 * the next opens), to what the state holds, or drawn from their domains. Its check is composed
 * from what the steps' postconditions and models leave: file bytes, folders, the clipboard, a
 * window title, what a step returns. Pure and deterministic: task `i` depends on `seed` and `i` only.
 */
export function synthesizeTasks(library: SkillLibrary, opts: SynthesisOptions): { tasks: SynthesizedTask[]; space: SynthesisSpace } {
  const min = opts.minSteps ?? 2;
  const max = opts.maxSteps ?? 8;
  if (!Number.isInteger(opts.count) || opts.count < 0)
    throw new SkillDeskError('tasks.bad_option', `Expected \`count\` to be a non-negative integer, got \`${opts.count}\``);
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && min <= max))
    throw new SkillDeskError('tasks.bad_option', `Expected 1 <= minSteps <= maxSteps, got ${min} and ${max}`);
  for (const app of opts.apps)
    if (!library.apps.has(app)) throw new SkillDeskError('tasks.unknown_app', `No app \`${app}\` in the library`);
  const graph = compositionGraph(library);
  const apps = new Set(opts.apps);
  const nodes = graph.nodes.filter((n) => apps.has(n.app) && eligible(library, n));
  const key = (n: { skill: string; app: string }) => `${n.skill}@${n.app}`;
  const eligibleKeys = new Set(nodes.map(key));
  const edges = graph.mayFollow.filter((e) => eligibleKeys.has(key(e.from)) && eligibleKeys.has(key(e.to)));
  const seed = opts.seed ?? 1;
  // Tasks start on the apps that have a skill to start with, in turn.
  const starts = opts.apps.filter((app) => nodes.some((n) => n.app === app));
  const tasks: SynthesizedTask[] = [];
  for (let index = 0; index < opts.count && starts.length; index++) {
    const task = synthesizeOne(library, nodes, edges, { ...opts, apps: starts, seed, min, max }, index);
    if (task) tasks.push(task);
  }
  return { tasks, space: { nodes: nodes.length, mayFollow: edges.length, walks: countWalks(nodes.map(key), edges, min, max).toString() } };
}

/**
 * A skill a walk can take: one whose effect is declared (postconditions) or modelled, so the task
 * knows what it did; a method with neither (a view option, a snapshot to a folder the app picks)
 * would leave the walk guessing. Generic Desktop fallbacks are left out.
 */
function eligible(library: SkillLibrary, n: StateNode): boolean {
  const skill = library.skills.get(n.skill)!;
  if (n.method?.startsWith('Desktop.')) return false;
  return skill.conditions.post.length > 0 || Boolean(modelFor(library, n.method && library.canonicalRef(n.method), n.app));
}

interface Walk {
  world: SymbolicWorld;
  steps: { skill: string; method: string; app: string; args: ArgValues }[];
  touched: string[];
  results: Map<number, unknown>;
  files: Record<string, FixtureFile>;
  folders: string[];
  fresh: number;
}

function synthesizeOne(
  library: SkillLibrary,
  nodes: readonly StateNode[],
  edges: readonly MayFollowEdge[],
  o: SynthesisOptions & { seed: number; min: number; max: number },
  index: number,
): SynthesizedTask | undefined {
  const rand = seededRandom((o.seed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const id = `s${o.seed}-${String(index).padStart(4, '0')}`;
  const dir = `${o.tempDir.replace(/\/+$/, '')}/${id}`;
  const startApp = o.apps[index % o.apps.length]!;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const length = o.min + Math.floor(rand() * (o.max - o.min + 1));
    const walk: Walk = { world: new SymbolicWorld(), steps: [], touched: [], results: new Map(), files: {}, folders: [], fresh: 0 };
    // The task's folder is there from the start (the runner makes it); what it holds is the task's.
    walk.world.model('@task', () => ({ dir }));
    walk.world.apply({ fact: 'folder_exists', holds: true, path: dir });
    while (walk.steps.length < length) {
      const last = walk.steps.at(-1);
      const app = last?.app ?? startApp;
      const linked = new Set(
        last ? edges.filter((e) => e.from.skill === last.skill && e.from.app === last.app).map((e) => `${e.to.skill}@${e.to.app}`) : [],
      );
      const candidates = nodes.filter((n) => n.app === app || linked.has(`${n.skill}@${n.app}`));
      // Linked skills first; a method already used is less likely again (a task is not five opens).
      const used = (n: StateNode) => walk.steps.filter((s) => s.method === (n.method ?? n.skill)).length;
      const weighted = candidates.map((n) => ({
        n,
        w: (linked.has(`${n.skill}@${n.app}`) ? 3 : 1) * 0.35 ** used(n) * (n.app === app ? 1 : 0.7),
      }));
      if (!takeStep(library, walk, weighted, edges, rand, pick, dir)) break;
    }
    if (walk.steps.length < o.min) continue;
    const check = composeChecks(walk.world, walk.touched, walk.results);
    if (check.length === 0) continue;
    const skills = [...new Set(walk.steps.flatMap((s) => (callTree(library, library.skills.get(s.skill)!, s.app) ?? []).map((k) => k.id)))];
    return {
      id,
      seed: o.seed,
      index,
      instruction: instructionFor(library, walk.steps, pick),
      apps: [...new Set(walk.steps.map((s) => s.app))],
      dir,
      setup: { files: walk.files, folders: walk.folders },
      steps: walk.steps.map((s) => ({ skill: s.method, app: s.app, args: s.args })),
      check,
      skills,
      primitives: skills.reduce((n, k) => n + primitiveCount(library.skills.get(k)!), 0),
    };
  }
  return undefined;
}

/** Chooses and applies the next step among `weighted`; false when none can run in the walk's world. */
function takeStep(
  library: SkillLibrary,
  walk: Walk,
  weighted: { n: StateNode; w: number }[],
  edges: readonly MayFollowEdge[],
  rand: () => number,
  pick: <T>(xs: readonly T[]) => T,
  dir: string,
): boolean {
  const pool = [...weighted];
  while (pool.length) {
    const total = pool.reduce((s, c) => s + c.w, 0);
    let r = rand() * total;
    const i = Math.max(
      0,
      pool.findIndex((c) => (r -= c.w) < 0),
    );
    const { n } = pool.splice(i, 1)[0]!;
    const skill = library.skills.get(n.skill)!;
    const trial: Walk = { ...walk, world: walk.world.clone(), files: { ...walk.files }, folders: [...walk.folders] };
    const args = bindArgs(library, trial, skill, n, edges, rand, pick, dir);
    if (!args) continue;
    try {
      const out = applySkill(library, trial.world, skill, n.app, args);
      walk.world = trial.world;
      walk.files = trial.files;
      walk.folders = trial.folders;
      walk.fresh = trial.fresh;
      for (const t of out.touched) if (!walk.touched.includes(t)) walk.touched.push(t);
      if (out.result !== undefined) walk.results.set(walk.steps.length, out.result);
      walk.steps.push({ skill: n.skill, method: n.method ?? n.skill, app: n.app, args });
      return true;
    } catch (err) {
      if (!(err instanceof Blocked)) throw err;
    }
  }
  return false;
}

/**
 * Arguments for `skill` in the walk's world: from its model (what the state decides), from the
 * last step along a may-follow edge (data flowing), from facts that hold (an existing file for a
 * path that must exist, made up as a fixture when none does), or drawn from the domain.
 */
function bindArgs(
  library: SkillLibrary,
  walk: Walk,
  skill: Skill,
  n: StateNode,
  edges: readonly MayFollowEdge[],
  rand: () => number,
  pick: <T>(xs: readonly T[]) => T,
  dir: string,
): ArgValues | undefined {
  const model = modelFor(library, n.method && library.canonicalRef(n.method), n.app);
  let fromModel: ArgValues | undefined;
  if (model?.bind) {
    fromModel = model.bind(walk.world, { app: n.app, ...(library.apps.get(n.app) && { profile: library.apps.get(n.app) }) }, pick);
    if (!fromModel) return undefined;
  }
  const last = walk.steps.at(-1);
  const edge =
    last && edges.find((e) => e.from.skill === last.skill && e.from.app === last.app && e.to.skill === n.skill && e.to.app === n.app);
  const args: ArgValues = {};
  for (const [name, spec] of Object.entries(skill.args)) {
    let v: ArgValue | undefined = fromModel?.[name];
    const bound = edge?.bind[name];
    if (v === undefined && bound !== undefined && last) v = asArg(renderTemplate(String(bound), last.args));
    if (v === undefined) v = fromFacts(walk, skill, name, spec, pick, dir);
    if (v === undefined && spec.type === 'path') v = spec.mustExist ? fixture(walk, spec, dir, pick) : freshPath(walk, spec, dir);
    if (v === undefined && spec.type === 'text' && !spec.examples?.length) v = pick(TEXT_SAMPLES).slice(0, spec.maxLength ?? Infinity);
    if (v === undefined && !(spec.optional && spec.default === undefined && rand() < 0.5) && spec.default === undefined)
      v = sampleArg(spec, rand, { tempDir: dir });
    if (v === undefined && spec.default === undefined && !spec.optional) return undefined;
    if (v !== undefined) args[name] = v;
  }
  return checkArgs(skill.args, args).ok ? args : undefined;
}

function asArg(v: unknown): ArgValue | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : undefined;
}

/** A value for `name` from a fact that holds, when a precondition of the skill is about it (`file_exists: ${path}`). */
function fromFacts(
  walk: Walk,
  skill: Skill,
  name: string,
  spec: ArgSpec,
  pick: <T>(xs: readonly T[]) => T,
  dir: string,
): ArgValue | undefined {
  const slot = `\${${name}}`;
  for (const q of skill.conditions.pre) {
    const param = (['path', 'value', 'cell', 'title', 'key', 'name'] as const).find((p) => q[p] === slot);
    if (!param || !q.holds) continue;
    const values = walk.world
      .holding(q.fact)
      .map((f) => f[param])
      .filter((v): v is string | number | boolean => v !== undefined && checkArgs({ [name]: spec }, { [name]: v }).ok);
    if (values.length) return pick(values);
    if (spec.type === 'path' && (q.fact === 'file_exists' || q.fact === 'folder_exists' || q.fact === 'file_content'))
      return fixture(walk, { ...spec, target: q.fact === 'folder_exists' ? 'directory' : 'file' }, dir, pick);
    return undefined;
  }
  return undefined;
}

/** A fresh path in the task's folder, with the domain's first extension (or `ext`). */
function freshPath(walk: Walk, spec: Extract<ArgSpec, { type: 'path' }>, dir: string, ext?: string): string {
  const stems = ['notes', 'report', 'draft', 'list', 'data', 'summary', 'plan', 'letter'];
  walk.fresh += 1;
  const stem = stems[walk.fresh % stems.length];
  if (spec.target === 'directory') return `${dir}/folder-${walk.fresh}`;
  return `${dir}/${stem}-${walk.fresh}${ext ?? spec.extensions?.[0] ?? '.txt'}`;
}

/** An existing file or folder for a path that must exist: made up in the task's setup (and world). */
function fixture(walk: Walk, spec: ArgSpec, dir: string, pick: <T>(xs: readonly T[]) => T): string | undefined {
  if (spec.type !== 'path') return undefined;
  // The first of the domain's extensions the synthesizer can make a file of.
  const suffix = spec.extensions ? spec.extensions.map(fixtureSuffix).find((x) => x !== undefined) : '.txt';
  if (spec.target !== 'directory' && suffix === undefined) return undefined;
  const path = freshPath(walk, spec, dir, suffix);
  if (spec.target === 'directory') {
    walk.folders.push(path);
    walk.world.apply({ fact: 'folder_exists', holds: true, path });
    return path;
  }
  const made = fixtureFor(path, pick);
  if (!made) return undefined;
  for (const [p, file] of Object.entries(made.files)) {
    walk.files[p] = file;
    walk.world.apply({ fact: 'file_exists', holds: true, path: p });
    walk.world.apply({ fact: 'file_content', holds: true, path: p, ...('text' in file && { value: file.text }) });
  }
  if (made.title) markTitle(walk.world, path, made.title);
  const ext = extensionOf(path);
  if (ext === '.png') walk.world.apply({ fact: 'image_size', holds: true, path, value: FIXTURE_IMAGE_SIZE });
  if (ext === '.zip' || ext === '.tar.gz' || ext === '.tgz') markArchive(walk.world, path);
  return path;
}

/** Walks of min..max skills along the edges (paths with repeats allowed), by dynamic programming. */
function countWalks(keys: readonly string[], edges: readonly MayFollowEdge[], min: number, max: number): bigint {
  const into = new Map<string, string[]>();
  for (const e of edges) {
    const to = `${e.to.skill}@${e.to.app}`;
    into.set(to, [...(into.get(to) ?? []), `${e.from.skill}@${e.from.app}`]);
  }
  let ways = new Map(keys.map((k) => [k, 1n]));
  let total = 0n;
  for (let len = 1; len <= max; len++) {
    if (len >= min) for (const v of ways.values()) total += v;
    const next = new Map<string, bigint>();
    for (const k of keys)
      next.set(
        k,
        (into.get(k) ?? []).reduce((s, u) => s + (ways.get(u) ?? 0n), 0n),
      );
    ways = next;
  }
  return total;
}
