import type { Migration } from './types';

// A step is journaled twice: as 'started' (no end yet) before its effect, and with its outcome
// after. If the process dies in between, recovery marks it 'interrupted', so a recovered run
// shows what was attempted (issue 10 item 13). SQLite cannot change a CHECK constraint or a NOT
// NULL in place, so `steps` is rebuilt: same columns, same order, every row copied. No other
// table references `steps`, and its only index is the primary key.
const SQL = `
CREATE TABLE steps_004 (
  run_id             TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq                INTEGER NOT NULL CHECK (seq >= 0),
  depth              INTEGER NOT NULL DEFAULT 0 CHECK (depth >= 0),
  skill_id           TEXT NOT NULL,
  app                TEXT,
  node_id            TEXT NOT NULL,
  primitive          TEXT NOT NULL,
  resolved_args_json TEXT NOT NULL,
  started_at         INTEGER NOT NULL,
  ended_at           INTEGER,
  outcome            TEXT NOT NULL CHECK (outcome IN ('started', 'ok', 'failed', 'skipped', 'denied', 'interrupted')),
  error              TEXT,
  screenshot_path    TEXT,
  PRIMARY KEY (run_id, seq),
  CHECK ((outcome = 'started') = (ended_at IS NULL))
) STRICT;
INSERT INTO steps_004 SELECT run_id, seq, depth, skill_id, app, node_id, primitive, resolved_args_json, started_at, ended_at,
  outcome, error, screenshot_path FROM steps;
DROP TABLE steps;
ALTER TABLE steps_004 RENAME TO steps;
`;

/** 004: steps journaled as 'started' before their effect; recovery marks unfinished ones 'interrupted'. */
export const migration004: Migration = {
  version: 4,
  name: 'step-lifecycle',
  up(db) {
    db.exec(SQL);
  },
};
