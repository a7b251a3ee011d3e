import type { CompositionGraph, MayFollowEdge, StateNode } from '../../../shared/skill';
import { fromJson, toJson } from './json';
import { cachedTransaction, prepared, type StoreDb } from './statements';

interface NodeRow {
  skill: string;
  app: string;
  method: string | null;
  args_json: string;
  conditions_json: string;
}

interface EdgeRow {
  kind: 'call' | 'may_follow';
  from_skill: string;
  from_app: string;
  to_skill: string;
  to_app: string;
  facts_json: string;
  bind_json: string;
  across_apps: number;
}

/** The digest of the library the stored graph was built from; undefined when none is stored. */
export function storedGraphDigest(db: StoreDb): string | undefined {
  const row = prepared(db, 'SELECT digest FROM composition_meta WHERE id = 1').get() as { digest: string } | undefined;
  return row?.digest;
}

/** Replaces the stored graph in one transaction: readers see the old graph or the new one. */
export function storeCompositionGraph(db: StoreDb, graph: CompositionGraph, digest: string, builtAt = Date.now()): void {
  // The transaction is built once per connection: what it writes comes in as arguments.
  cachedTransaction(db, 'composition.replace', (graph: CompositionGraph, digest: string, builtAt: number) => {
    prepared(db, 'DELETE FROM composition_edges').run();
    prepared(db, 'DELETE FROM composition_nodes').run();
    const node = prepared(db, 'INSERT INTO composition_nodes (skill, app, method, args_json, conditions_json) VALUES (?, ?, ?, ?, ?)');
    for (const n of graph.nodes)
      node.run(n.skill, n.app, n.method ?? null, toJson(n.args, 'node args'), toJson(n.conditions, 'node conditions'));
    const edge = prepared(
      db,
      'INSERT OR IGNORE INTO composition_edges (kind, from_skill, from_app, to_skill, to_app, facts_json, bind_json, across_apps) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const c of graph.calls) edge.run('call', c.from.skill, c.from.app, c.to.skill, c.to.app, '[]', '{}', 0);
    for (const e of graph.mayFollow)
      edge.run(
        'may_follow',
        e.from.skill,
        e.from.app,
        e.to.skill,
        e.to.app,
        toJson(e.facts, 'edge facts'),
        toJson(e.bind, 'edge bind'),
        e.acrossApps ? 1 : 0,
      );
    prepared(
      db,
      'INSERT INTO composition_meta (id, digest, built_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET digest = excluded.digest, built_at = excluded.built_at',
    ).run(digest, builtAt);
  })(graph, digest, builtAt);
}

/**
 * The stored graph, or the part touching `app` (its skills, what they call, and the may-follow
 * edges from or to them, with the other apps' skills they link), as `compositionGraph` gives it.
 */
export function loadCompositionGraph(db: StoreDb, app?: string): CompositionGraph {
  const edges = (
    app
      ? prepared(db, 'SELECT * FROM composition_edges WHERE from_app = ? OR to_app = ? ORDER BY rowid').all(app, app)
      : prepared(db, 'SELECT * FROM composition_edges ORDER BY rowid').all()
  ) as EdgeRow[];
  const calls = edges
    .filter((e) => e.kind === 'call' && (!app || e.from_app === app))
    .map((e) => ({ from: { skill: e.from_skill, app: e.from_app }, to: { skill: e.to_skill, app: e.to_app } }));
  const mayFollow: MayFollowEdge[] = edges
    .filter((e) => e.kind === 'may_follow')
    .map((e) => ({
      from: { skill: e.from_skill, app: e.from_app },
      to: { skill: e.to_skill, app: e.to_app },
      facts: fromJson<MayFollowEdge['facts']>(e.facts_json) ?? [],
      acrossApps: e.across_apps === 1,
      bind: fromJson<MayFollowEdge['bind']>(e.bind_json) ?? {},
    }));
  const linked = new Set(mayFollow.flatMap((e) => [`${e.from.skill}@${e.from.app}`, `${e.to.skill}@${e.to.app}`]));
  const nodes: StateNode[] = (prepared(db, 'SELECT * FROM composition_nodes ORDER BY rowid').all() as NodeRow[])
    .filter((n) => !app || n.app === app || linked.has(`${n.skill}@${n.app}`))
    .map((n) => ({
      skill: n.skill,
      app: n.app,
      ...(n.method !== null && { method: n.method }),
      args: fromJson<StateNode['args']>(n.args_json) ?? {},
      conditions: fromJson<StateNode['conditions']>(n.conditions_json) ?? { pre: [], post: [] },
    }));
  return { nodes, calls, mayFollow };
}
