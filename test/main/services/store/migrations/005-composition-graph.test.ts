import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCompositionGraph, storeCompositionGraph, storedGraphDigest } from '../../../../../src/main/services/store';
import { migration005 } from '../../../../../src/main/services/store/migrations/005-composition-graph';
import type { CompositionGraph } from '../../../../../src/shared/skill';
import { describeSchema, openAtVersion, upgrade } from '../helpers/migrationHarness';
import { useTempStores } from '../helpers/tempDir';

const temp = useTempStores();
const V = migration005.version;

const graph: CompositionGraph = {
  nodes: [
    {
      skill: 'ed.save_as',
      app: 'ed',
      method: 'Doc.save_as',
      args: {},
      conditions: { pre: [], post: [{ fact: 'file_exists', holds: true, path: '${path}' }] },
    },
    {
      skill: 'ed.open_file',
      app: 'ed',
      method: 'Doc.open_file',
      args: {},
      conditions: { pre: [{ fact: 'file_exists', holds: true, path: '${path}' }], post: [] },
    },
    { skill: 'vi.open_file', app: 'vi', method: 'Doc.open_file', args: {}, conditions: { pre: [], post: [] } },
  ],
  calls: [{ from: { skill: 'Doc.write', app: 'ed' }, to: { skill: 'ed.save_as', app: 'ed' } }],
  mayFollow: [
    {
      from: { skill: 'ed.save_as', app: 'ed' },
      to: { skill: 'ed.open_file', app: 'ed' },
      facts: ['file_exists'],
      acrossApps: false,
      bind: { path: '${path}' },
    },
    {
      from: { skill: 'ed.save_as', app: 'ed' },
      to: { skill: 'vi.open_file', app: 'vi' },
      facts: ['file_exists'],
      acrossApps: true,
      bind: { path: '${path}' },
    },
  ],
};

describe('src/main/services/store/migrations/005-composition-graph', () => {
  it('adds the composition graph tables to a version 4 store, keeping its runs (version 4 -> 5)', () => {
    const db = openAtVersion(join(temp.dir(), 'v4.db'), V - 1);
    try {
      db.prepare(
        "INSERT INTO runs (id, skill_id, args_json, status, dry_run, started_at) VALUES ('r1', 's.a', '{}', 'running', 0, 10)",
      ).run();
      const before = describeSchema(db);
      expect(upgrade(db, V)).toEqual({ from: V - 1, to: V, applied: [V] });
      const after = describeSchema(db);
      expect(
        Object.keys(after)
          .filter((t) => !(t in before))
          .sort(),
      ).toEqual(['composition_edges', 'composition_meta', 'composition_nodes']);
      expect(db.prepare('SELECT id FROM runs').pluck().all()).toEqual(['r1']);
      for (const t of ['composition_nodes', 'composition_edges', 'composition_meta'])
        expect(db.prepare('SELECT strict FROM pragma_table_list WHERE name = ?').pluck().get(t)).toBe(1);
    } finally {
      db.close();
    }
  });

  it('stores a graph whole and reads it back, or the part touching one app', () => {
    const db = openAtVersion(join(temp.dir(), 'v5.db'), V);
    try {
      expect(storedGraphDigest(db)).toBeUndefined();
      storeCompositionGraph(db, graph, 'd1', 5);
      expect(storedGraphDigest(db)).toBe('d1');
      expect(loadCompositionGraph(db)).toEqual(graph);
      const vi = loadCompositionGraph(db, 'vi');
      expect(vi.calls).toEqual([]);
      expect(vi.mayFollow).toEqual([graph.mayFollow[1]]);
      expect(vi.nodes.map((n) => n.skill)).toEqual(['ed.save_as', 'vi.open_file']);
      // Replaced, not added to.
      storeCompositionGraph(db, { nodes: [graph.nodes[2]!], calls: [], mayFollow: [] }, 'd2', 6);
      expect(loadCompositionGraph(db)).toEqual({ nodes: [graph.nodes[2]], calls: [], mayFollow: [] });
      expect(() =>
        db
          .prepare("INSERT INTO composition_edges (kind, from_skill, from_app, to_skill, to_app) VALUES ('maybe', 'a', 'b', 'c', 'd')")
          .run(),
      ).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });
});
