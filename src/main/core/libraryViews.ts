import { SkillDeskError } from '../../shared/errors';
import type {
  CompositionView,
  LibraryCounts,
  LibraryView,
  MethodImplementation,
  SearchHit,
  SkillDetail,
  SkillSummary,
} from '../../shared/ipc';
import {
  callEdges,
  type CompositionGraph,
  graphPrimitives,
  splitRef,
  type LibraryProblem,
  type Skill,
  type SkillLibrary,
  type Verification,
} from '../../shared/skill';
import { HybridRetriever } from '../services/retrieval';
import type { Core } from './Core';

/** Views of the loaded library, for the UI and the CLI's `--json` output alike. */

/** The Library screen: the checked library, its problems (reliability figures that could not be read included). */
export async function coreLibraryView(core: Core): Promise<LibraryView> {
  const { library, problems } = await core.loadLibrary();
  const reliability = core.reliability();
  return libraryView(library, reliability.problem ? [...problems, reliability.problem] : problems, (id) => reliability.bySkill.get(id));
}

/** The lexical index of a loaded library, built once per load (a reload makes a new library). */
const retrievers = new WeakMap<SkillLibrary, HybridRetriever>();

/** The Library screen's search: the agent's retrieval over skill cards, lexical (no model call per keystroke). */
export async function searchLibrary(core: Core, query: string, options: { app?: string; limit: number }): Promise<SearchHit[]> {
  const { library } = await core.loadLibrary();
  let retriever = retrievers.get(library);
  if (!retriever) retrievers.set(library, (retriever = HybridRetriever.fromLibrary(library)));
  const hits = await retriever.retrieve(query, { top: options.limit });
  return hits.filter((h) => !options.app || h.card.apps.includes(options.app)).map((h) => ({ skillId: h.card.ref, score: h.score }));
}

/** One skill as the run form and the graph editor see it; `skill.not_found` when the library has no such id. */
export async function coreSkillDetail(core: Core, id: string): Promise<SkillDetail> {
  const { library } = await core.loadLibrary();
  const skill = library.skills.get(id);
  if (!skill) throw new SkillDeskError('skill.not_found', `No skill \`${id}\` in the library; reload the library if you just added it.`);
  return skillDetail(library, skill, core.reliability().bySkill.get(id));
}

export function skillSummary(library: SkillLibrary, s: Skill, reliability?: SkillSummary['reliability']): SkillSummary {
  const onApps = s.kind === 'composite' ? library.implementers(splitRef(s.id).head) : [s.app];
  const checks = onApps.map((app) => library.verification(s.id, app));
  const tests = new Set(checks.flatMap((c) => c.tests.map((t) => `${t.file}#${t.test}`)));
  return {
    id: s.id,
    kind: s.kind,
    ...(s.app && { app: s.app }),
    ...(s.implements && { implements: s.implements }),
    description: s.description,
    intents: s.intents,
    trust: s.trust,
    origin: s.source.origin,
    file: s.source.file,
    argNames: Object.keys(s.args),
    primitives: graphPrimitives(s.graph).length,
    ...(reliability && { reliability }),
    verification: bestVerification(checks.map((c) => c.status)),
    liveTests: tests.size,
  };
}

const VERIFICATION_ORDER: Verification[] = ['live_desktop', 'live_windows', 'dry_run'];

function bestVerification(statuses: Verification[]): Verification {
  return VERIFICATION_ORDER.find((v) => statuses.includes(v)) ?? 'dry_run';
}

/** Who implements `Interface.method`, each with how it is verified (a composite: on every app of the interface). */
export function methodImplementations(library: SkillLibrary, interfaceId: string, method: string): MethodImplementation[] {
  const ref = `${interfaceId}.${method}`;
  const composite = library.skills.get(ref);
  const pairs: [string, string][] =
    composite?.kind === 'composite'
      ? library.implementers(interfaceId).map((app) => [app, ref])
      : library.implementationsOf(ref).map((s) => [s.app!, s.id]);
  return pairs
    .map(([app, skillId]) => {
      const v = library.verification(skillId, app);
      return { app, skillId, verification: v.status, tests: v.tests.map((t) => t.test) };
    })
    .sort((a, b) => a.app.localeCompare(b.app));
}

/** Sizes and live verification of the library, per app too. */
export function libraryCounts(library: SkillLibrary): LibraryCounts {
  const impls = [...library.skills.values()].filter((s) => s.kind === 'implementation');
  const composites = [...library.skills.values()].filter((s) => s.kind === 'composite');
  const windowsApps = new Set([...library.apps.values()].filter((a) => a.platforms.includes('win32')).map((a) => a.id));
  const status = (s: Skill, app: string) => library.verification(s.id, app);
  const lane = (which: Verification) => {
    const implsLive = impls.filter((s) => status(s, s.app!).status === which);
    const compositeRuns = composites.flatMap((c) =>
      library.implementers(splitRef(c.id).head).filter((app) => status(c, app).tests.some((t) => laneOf(t.lane) === which)),
    );
    const tests = new Set(
      library.liveTests.filter((d) => laneOf(d.lane) === which).flatMap((d) => d.tests.map((t) => `${d.source.file}#${t.name}`)),
    );
    return {
      apps: new Set(implsLive.map((s) => s.app)).size,
      implementations: implsLive.length,
      composites: compositeRuns.length,
      tests: tests.size,
    };
  };
  const windowsImpls = impls.filter((s) => windowsApps.has(s.app!));
  let methods = 0;
  for (const i of library.interfaces.values()) methods += Object.keys(i.methods).length;
  return {
    interfaces: library.interfaces.size,
    methods,
    composites: composites.length,
    implementations: impls.length,
    apps: library.apps.size,
    windows: {
      apps: windowsApps.size,
      implementations: windowsImpls.length,
      // A composite runs on a Windows app when that app implements its interface.
      methodsImplemented:
        new Set(windowsImpls.map((s) => s.implements)).size +
        composites.filter((c) => library.implementers(splitRef(c.id).head).some((a) => windowsApps.has(a))).length,
    },
    liveDesktop: lane('live_desktop'),
    liveWindows: lane('live_windows'),
    dryRunOnly: impls.filter((s) => status(s, s.app!).status === 'dry_run').length,
    byApp: [...library.apps.values()]
      .map((a) => {
        const own = impls.filter((s) => s.app === a.id);
        return {
          app: a.id,
          platforms: a.platforms,
          methodsImplemented: new Set(own.map((s) => s.implements)).size,
          implementations: own.length,
          liveImplementations: own.filter((s) => status(s, a.id).status !== 'dry_run').length,
          liveTests: library.liveTests.filter((d) => d.app === a.id).reduce((n, d) => n + d.tests.length, 0),
        };
      })
      .sort((x, y) => x.app.localeCompare(y.app)),
  };
}

function laneOf(lane: 'desktop' | 'windows'): Verification {
  return lane === 'desktop' ? 'live_desktop' : 'live_windows';
}

export function libraryView(
  library: SkillLibrary,
  problems: LibraryProblem[],
  reliability: (id: string) => SkillSummary['reliability'] = () => undefined,
): LibraryView {
  return {
    interfaces: [...library.interfaces.values()].map((i) => ({
      id: i.id,
      description: i.description,
      extends: i.extends,
      methods: Object.entries(i.methods).map(([name, m]) => {
        const implementations = methodImplementations(library, i.id, name);
        return {
          name,
          description: m.description,
          composite: Boolean(m.composite),
          implementedBy: implementations.map((x) => x.app),
          implementations,
        };
      }),
    })),
    counts: libraryCounts(library),
    apps: [...library.apps.values()].map((a) => ({
      id: a.id,
      name: a.name,
      platforms: a.platforms,
      implements: a.implements,
      origin: a.source.origin,
    })),
    skills: library.list().map((s) => skillSummary(library, s, reliability(s.id))),
    problems,
  };
}

export function skillDetail(library: SkillLibrary, s: Skill, reliability?: SkillSummary['reliability']): SkillDetail {
  const apps = s.app ? [s.app] : s.implements ? library.implementers(splitRef(s.implements).head) : [];
  return {
    ...skillSummary(library, s, reliability),
    version: s.version,
    args: s.args,
    ...(s.returns && { returns: s.returns }),
    permissions: s.permissions,
    graph: s.graph,
    ...(s.verify && { verify: s.verify }),
    apps,
    editable: s.kind !== 'composite',
  };
}

/** Which skill calls which: the composition graph, with interface methods as the nodes calls land on. */
export function compositionView(library: SkillLibrary, graph: CompositionGraph): CompositionView {
  const nodes = new Map<string, CompositionView['nodes'][number]>();
  const edges: CompositionView['edges'] = [];
  for (const s of library.skills.values()) {
    nodes.set(s.id, { id: s.id, kind: s.kind, ...(s.app && { app: s.app }) });
    if (s.implements && s.implements !== s.id) {
      if (!nodes.has(s.implements)) nodes.set(s.implements, { id: s.implements, kind: 'interface_method' });
      edges.push({ from: s.implements, to: s.id });
    }
  }
  for (const s of library.skills.values()) {
    for (const { call } of callEdges(s.graph)) {
      const to = library.canonicalRef(call.skill);
      if (!nodes.has(to)) nodes.set(to, { id: to, kind: 'interface_method' });
      if (!edges.some((e) => e.from === s.id && e.to === to)) edges.push({ from: s.id, to });
    }
  }
  // May-follow edges between skills, merged over the apps they run on (a composite is one node here).
  const follow = new Map<string, CompositionView['mayFollow'][number]>();
  for (const e of graph.mayFollow) {
    const key = `${e.from.skill}\n${e.to.skill}`;
    const seen = follow.get(key);
    if (!seen) follow.set(key, { from: e.from.skill, to: e.to.skill, facts: [...e.facts], acrossApps: e.acrossApps });
    else {
      seen.facts = [...new Set([...seen.facts, ...e.facts])];
      seen.acrossApps ||= e.acrossApps;
    }
  }
  return { nodes: [...nodes.values()], edges, mayFollow: [...follow.values()] };
}
