import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSteps } from '../../../../../src/main/services/store';
import { describeSchema, openAtVersion, upgrade } from '../helpers/migrationHarness';
import { useTempStores } from '../helpers/tempDir';

const temp = useTempStores();

describe('src/main/services/store/migrations/004-step-lifecycle', () => {
  it("keeps every step, and lets a step be 'started' (no end) or 'interrupted' (version 3 -> 4)", () => {
    const db = openAtVersion(join(temp.dir(), 'v3.db'), 3);
    try {
      // Data as version 3 wrote it: every step finished, with an end.
      db.prepare(
        "INSERT INTO runs (id, skill_id, args_json, status, dry_run, started_at, ended_at) VALUES ('r1', 's.a', '{}', 'failed', 0, 10, 40)",
      ).run();
      const insert = db.prepare(
        `INSERT INTO steps (run_id, seq, depth, skill_id, app, node_id, primitive, resolved_args_json, started_at, ended_at, outcome, error, screenshot_path)
        VALUES ('r1', ?, ?, 's.a', ?, ?, 'key', '{"key":"Enter"}', ?, ?, ?, ?, ?)`,
      );
      insert.run(0, 0, 'ed', 'n0', 11, 12, 'ok', null, null);
      insert.run(1, 1, null, 'n1', 13, 14, 'denied', 'not allowed', '/tmp/s1.png');
      expect(() => insert.run(2, 0, null, 'n2', 15, null, 'ok', null, null)).toThrow(/NOT NULL constraint failed: steps.ended_at/);
      const before = db.prepare('SELECT * FROM steps ORDER BY seq').all();
      const columns = describeSchema(db).steps;

      expect(upgrade(db, 4)).toEqual({ from: 3, to: 4, applied: [4] });

      expect(db.prepare('SELECT * FROM steps ORDER BY seq').all()).toEqual(before);
      expect(describeSchema(db).steps).toEqual(columns);
      expect(db.prepare("SELECT strict FROM pragma_table_list WHERE name = 'steps'").pluck().get()).toBe(1);
      insert.run(2, 0, null, 'n2', 15, null, 'started', null, null);
      insert.run(3, 0, null, 'n3', 16, 16, 'interrupted', 'the process died', null);
      expect(getSteps(db, 'r1').map((s) => [s.seq, s.outcome, s.endedAt])).toEqual([
        [0, 'ok', 12],
        [1, 'denied', 14],
        [2, 'started', null],
        [3, 'interrupted', 16],
      ]);
      // A started step has no end, and only a started step lacks one.
      expect(() => insert.run(4, 0, null, 'n4', 17, 18, 'started', null, null)).toThrow(/CHECK constraint failed/);
      expect(() => insert.run(5, 0, null, 'n5', 17, null, 'ok', null, null)).toThrow(/CHECK constraint failed/);
      expect(() => insert.run(6, 0, null, 'n6', 17, 18, 'maybe', null, null)).toThrow(/CHECK constraint failed/);
      // Still a child of runs: deleting the run deletes its steps, and a step needs its run.
      expect(() =>
        db
          .prepare(
            "INSERT INTO steps (run_id, seq, skill_id, node_id, primitive, resolved_args_json, started_at, outcome) VALUES ('ghost', 0, 's', 'n', 'key', '{}', 1, 'started')",
          )
          .run(),
      ).toThrow(/FOREIGN KEY constraint failed/);
      db.prepare("DELETE FROM runs WHERE id = 'r1'").run();
      expect(db.prepare('SELECT count(*) FROM steps').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
