import { randomUUID } from 'node:crypto';
import { generalize } from '../../../shared/learning/generalize';
import { signatureOf } from '../../../shared/learning/signature';
import type { InductionReport, VerificationRun } from '../../../shared/learning/report';
import type { Trajectory } from '../../../shared/learning/trajectory';
import type { Manifest } from '../../../shared/permissions/manifest';
import type { RunResult } from '../../../shared/run';
import {
  GraphSchema,
  renderTemplate,
  sampleArg,
  seededRandom,
  SITE_SLOT,
  siteOrigin,
  splitRef,
  type ArgSpecs,
  type ArgValues,
  type Fact,
  type InterfaceMethod,
  type MethodDoc,
  type Primitive,
  type Skill,
  type SkillLibrary,
} from '../../../shared/skill';
import type { RunRequest } from '../executor';
import { deriveManifest } from '../permissions';

/** What induction needs of the core: the library, the checked save path, runs, and what the app shows. */
export interface InductionDeps {
  library(): Promise<SkillLibrary>;
  /** Saves a skill document to the user folder through the checked save path, and reloads. */
  saveSkill(doc: Record<string, unknown>): Promise<{ path: string; id: string }>;
  /** Adds a method signature from the user folder, through the checked save path, and reloads. */
  saveMethod(doc: MethodDoc): Promise<{ path: string; ref: string }>;
  /** Removes a file induction saved, and reloads. */
  remove(path: string): Promise<void>;
  runSkill(request: RunRequest): Promise<RunResult>;
  /** The title the app shows now (a site's page title, an app's window title). */
  title(app: string): Promise<string | undefined>;
  /** What is at a path: a file, a folder, or nothing. */
  exists(path: string): Promise<'file' | 'folder' | undefined>;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface InduceRequest {
  trajectory: Trajectory;
  /** `Interface.method` the demonstration does; added to the interface when it lacks it (signature first). */
  method: string;
  /** Intents and description for a method the interface lacks. */
  intents?: string[];
  description?: string;
  /** Fresh arguments to verify with, besides the demonstration's own; by default two drawn from the domains. */
  samples?: ArgValues[];
  /** Brings the app to where the method starts, before each verification run (a fresh page, search results in front). */
  prepare?: (args: ArgValues) => Promise<void>;
  /** A check of the effect beyond the method's postconditions (a test reads the site's state); a reason when it fails. */
  check?: (args: ArgValues, result: unknown) => Promise<string | undefined>;
}

export type { InductionReport, VerificationRun } from '../../../shared/learning/report';

/**
 * Induction (after PolySkill): a trajectory becomes a skill. The signature comes first (the
 * interface gets the method when it lacks it), then the implementation on the app (the
 * generalized steps, with a manifest derived from what they do: exactly the capabilities they
 * need, scoped), saved through the one checked save path with the user folder's `community`
 * trust; then re-execution on the demonstration's arguments and on fresh ones, each checked
 * (the run succeeds, the method's postconditions hold, what it returns is there, and any check
 * the caller adds). Admitted when every run passes; otherwise its files are removed and the
 * reason is kept.
 */
export class Inducer {
  constructor(private readonly deps: InductionDeps) {}

  async induce(req: InduceRequest): Promise<InductionReport> {
    const t = req.trajectory;
    const report: InductionReport = {
      id: randomUUID(),
      method: req.method,
      app: t.app,
      status: 'rejected',
      signatureAdded: false,
      files: [],
      steps: 0,
      runs: [],
      at: Date.now(),
    };
    const reject = async (reason: string) => {
      for (const f of [...report.files].reverse()) await this.deps.remove(f).catch(() => undefined);
      return { ...report, status: 'rejected' as const, reason, files: [] };
    };
    let library = await this.deps.library();
    const { head: ifaceId, method } = splitRef(req.method);
    const app = library.apps.get(t.app);
    if (!app) return reject(`No app \`${t.app}\` in the library`);
    if (!library.interfaces.has(ifaceId))
      return reject(`No interface \`${ifaceId}\`: a demonstration adds methods to an interface, not interfaces`);
    if (!library.appImplements(t.app, ifaceId))
      return reject(`\`${t.app}\` does not implement \`${ifaceId}\`: its profile lists what it implements`);
    if (!library.methodOwner(ifaceId, method)) {
      const saved = await this.deps.saveMethod(
        signatureOf({
          interface: ifaceId,
          method,
          args: t.args,
          ...(req.intents && { intents: req.intents }),
          ...(req.description && { description: req.description }),
        }),
      );
      report.files.push(saved.path);
      report.signatureAdded = true;
      library = await this.deps.library();
    }
    const owner = library.methodOwner(ifaceId, method)!;
    const spec = library.interfaces.get(owner)!.methods[method]!;
    const origin = app.web ? siteOrigin(app.web, this.deps.env ?? process.env) : undefined;
    const g = generalize(t, { ...(origin && { origin }), specs: spec.args, returns: (spec.returns?.type ?? 'none') !== 'none' });
    if (!g.steps.length) return reject('The demonstration did nothing');
    if (g.unused.length)
      return reject(
        `The demonstration never used ${g.unused.map((a) => `\`${a}\` (${JSON.stringify(t.args[a])})`).join(', ')}: it does not show how the method takes it`,
      );
    report.steps = g.steps.length;
    const doc = {
      ...this.skillDoc(library, `${owner}.${method}`, t, [...g.steps, ...effectChecks(spec, Boolean(app.web))], spec, origin),
      ...(g.fixed.length && { args: narrowedTo(spec.args, t.args, g.fixed) }),
    };
    const saved = await this.deps.saveSkill(doc);
    report.files.push(saved.path);
    report.skillId = saved.id;
    for (const args of this.argumentSets(req, spec)) {
      const run = await this.verify(req, spec, args);
      report.runs.push(run);
      if (!run.ok) return reject(`Re-executed on ${JSON.stringify(args)}, it failed: ${run.why}`);
    }
    return { ...report, status: 'admitted' };
  }

  /** The implementation document: its steps as a linear graph, and the manifest its steps need. */
  private skillDoc(
    library: SkillLibrary,
    ref: string,
    t: Trajectory,
    steps: Primitive[],
    spec: InterfaceMethod,
    origin: string | undefined,
  ) {
    const nodes: Record<string, unknown> = {};
    steps.forEach((p, i) => (nodes[`s${i + 1}`] = { ...p, next: i + 1 < steps.length ? `s${i + 2}` : 'done' }));
    nodes.done = { terminal: 'success' };
    const graph = { start: 's1', nodes };
    const id = `${t.app}.${ref.split('.')[1]}`;
    const date = new Date(t.recordedAt).toISOString().slice(0, 10);
    const provisional: Skill = {
      id,
      kind: 'implementation',
      app: t.app,
      implements: ref,
      version: '1.0.0',
      trust: 'community',
      description: spec.description,
      intents: spec.intents,
      args: spec.args,
      conditions: { pre: spec.pre, post: spec.post },
      permissions: [],
      graph: GraphSchema.parse(graph),
      source: { file: '(induction)', origin: 'user' },
    };
    const permissions: Manifest = [...deriveManifest(provisional, library).suggested];
    // What the page sent while the person did it: posts to these paths, and no others.
    const posts = [...new Set(t.steps.flatMap((s) => s.posts ?? []).map((u) => sitePath(u, origin)))];
    if (posts.length) permissions.push({ capability: 'web.post', effect: 'allow', constraints: { urls: posts } });
    return {
      kind: 'skill',
      id,
      app: t.app,
      implements: ref,
      description: `${spec.description} Learned from a demonstration (${t.source}, ${date}).`,
      permissions,
      graph,
    };
  }

  /** The demonstration's own arguments, then fresh ones (given, or two drawn from the domains). */
  private argumentSets(req: InduceRequest, spec: InterfaceMethod): ArgValues[] {
    const original = req.trajectory.args;
    if (req.samples) return [original, ...req.samples];
    const rand = seededRandom(7);
    const fresh: ArgValues[] = [];
    for (let i = 0; i < 8 && fresh.length < 2; i++) {
      const args = Object.fromEntries(Object.entries(spec.args).map(([k, s]) => [k, sampleArg(s, rand, { tempDir: '/tmp' })]));
      if (JSON.stringify(args) !== JSON.stringify(original) && !fresh.some((f) => JSON.stringify(f) === JSON.stringify(args)))
        fresh.push(args);
    }
    return [original, ...fresh];
  }

  /** Why a postcondition the run should have left does not hold (the title it shows, a file or folder); undefined when it does or cannot be read. */
  private async unmet(fact: Fact, args: ArgValues, app: string): Promise<string | undefined> {
    const text = (v: unknown) => String(renderTemplate(String(v), args, { asText: true }));
    if (fact.fact === 'window_title' && fact.value !== undefined && fact.holds) {
      const want = text(fact.value);
      const title = await this.deps.title(app);
      return title?.includes(want) ? undefined : `the title is ${JSON.stringify(title)}, not one with ${JSON.stringify(want)}`;
    }
    if ((fact.fact === 'file_exists' || fact.fact === 'folder_exists') && fact.path !== undefined) {
      const path = text(fact.path);
      const kind = fact.fact === 'file_exists' ? 'file' : 'folder';
      const found = await this.deps.exists(path);
      if (fact.holds && found !== kind) return `no ${kind} at ${path}${found ? ` (a ${found} is there)` : ''}`;
      if (!fact.holds && found === kind) return `the ${kind} at ${path} is still there`;
    }
    return undefined;
  }

  /** One re-execution: the run, the method's postconditions it can read (the title), what it returns, the caller's check. */
  private async verify(req: InduceRequest, spec: InterfaceMethod, args: ArgValues): Promise<VerificationRun> {
    await req.prepare?.(args);
    const run = await this.deps.runSkill({ skill: req.method, app: req.trajectory.app, args });
    const base = { args, runId: run.runId };
    if (run.status !== 'succeeded') return { ...base, ok: false, why: run.error?.message ?? run.status };
    for (const fact of spec.post) {
      const why = await this.unmet(fact, args, req.trajectory.app);
      if (why) return { ...base, ok: false, why };
    }
    if ((spec.returns?.type ?? 'none') !== 'none' && (run.result === undefined || String(run.result).trim() === ''))
      return { ...base, ok: false, why: 'it returned nothing, and the method returns a value' };
    const why = await req.check?.(args, run.result);
    return why ? { ...base, ok: false, why } : { ...base, ok: true };
  }
}

/**
 * Waits for the effect the method promises (its postconditions on files and folders, and on a
 * desktop app the title it shows), so the learned skill ends by checking what it did, as every
 * state-changing skill does.
 */
function effectChecks(spec: InterfaceMethod, web: boolean): Primitive[] {
  const out: Primitive[] = [];
  for (const f of spec.post) {
    if ((f.fact === 'file_exists' || f.fact === 'folder_exists') && typeof f.path === 'string')
      out.push({
        action: 'wait_until',
        condition: { kind: 'file_exists', path: f.path, ...(!f.holds && { present: false }) },
        timeoutMs: 15_000,
      });
    if (!web && f.fact === 'window_title' && f.holds && typeof f.value === 'string')
      out.push({ action: 'wait_until', condition: { kind: 'window_title', pattern: regexOf(f.value) }, timeoutMs: 15_000 });
  }
  return out;
}

/**
 * The method's arguments with those the demonstration only showed at their default narrowed to
 * that value: the skill does nothing with them, so another value would be silently ignored; asked
 * for one, the run is refused with the domain, and a demonstration of that value can widen it.
 */
function narrowedTo(specs: ArgSpecs, values: ArgValues, fixed: readonly string[]): ArgSpecs {
  const out: ArgSpecs = { ...specs };
  for (const name of fixed) {
    const spec = specs[name]!;
    const value = values[name];
    const only = `; learned for ${JSON.stringify(value)} only`;
    const description = `${spec.description ?? name}${only}`;
    if (spec.type === 'enum' && (typeof value === 'string' || typeof value === 'number'))
      out[name] = { ...spec, values: [value], description };
    else if ((spec.type === 'string' || spec.type === 'text') && typeof value === 'string')
      out[name] = { type: 'enum', values: [value], default: value, description };
    else if (spec.type === 'number' && typeof value === 'number') out[name] = { ...spec, min: value, max: value, description };
  }
  return out;
}

/** A template's text as a regex matching it literally: its slots escaped when they resolve. */
function regexOf(template: string): string {
  return template
    .split(/(\$\{[^}]*\})/)
    .map((part) => (part.startsWith('${') ? `${part.slice(0, -1)}|regex_escape}` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
}

/** A URL as a `${site}` scope (its path on the site), or itself when it is another origin's. */
function sitePath(url: string, origin: string | undefined): string {
  if (!origin || !url.startsWith(origin)) return url;
  const path = url.slice(origin.length).replace(/[?#].*$/, '');
  return `${SITE_SLOT}${path || '/'}`;
}
