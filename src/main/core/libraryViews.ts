import { SkillDeskError } from '../../shared/errors';
import type { CompositionView, LibraryView, SearchHit, SkillDetail, SkillSummary } from '../../shared/ipc';
import { callEdges, graphPrimitives, splitRef, type LibraryProblem, type Skill, type SkillLibrary } from '../../shared/skill';
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

export function skillSummary(s: Skill, reliability?: SkillSummary['reliability']): SkillSummary {
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
  };
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
      methods: Object.entries(i.methods).map(([name, m]) => ({
        name,
        description: m.description,
        composite: Boolean(m.composite),
        implementedBy: m.composite ? library.implementers(i.id) : library.implementationsOf(`${i.id}.${name}`).map((s) => s.app!),
      })),
    })),
    apps: [...library.apps.values()].map((a) => ({
      id: a.id,
      name: a.name,
      platforms: a.platforms,
      implements: a.implements,
      origin: a.source.origin,
    })),
    skills: library.list().map((s) => skillSummary(s, reliability(s.id))),
    problems,
  };
}

export function skillDetail(library: SkillLibrary, s: Skill, reliability?: SkillSummary['reliability']): SkillDetail {
  const apps = s.app ? [s.app] : s.implements ? library.implementers(splitRef(s.implements).head) : [];
  return {
    ...skillSummary(s, reliability),
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
export function compositionView(library: SkillLibrary): CompositionView {
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
  return { nodes: [...nodes.values()], edges };
}
