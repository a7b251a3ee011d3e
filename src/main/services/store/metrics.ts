import type { ChildRunRow, MetricsRows, StepTally, TopLevelRunRow } from '../../../shared/metrics';
import type { RecordedRunStatus } from '../../../shared/run';
import { cachedTransaction, prepared, type StoreDb } from './statements';

// The rows the skill metrics are computed from (src/shared/metrics, defined in docs/metrics.md).
// The window is a task's start: a top-level run's `started_at`, which its children follow
// whenever they started. Dry and unfinished runs are read too: the metrics count what they leave out.

/** No lower bound: every recorded run (one SQL text for both cases keeps the statement cache small). */
const ALL_TIME = Number.MIN_SAFE_INTEGER;

interface TopLevelRecord {
  id: string;
  skill_id: string;
  app: string | null;
  status: RecordedRunStatus;
  dry_run: number;
  goal: string | null;
  started_at: number;
}

/** Runs without a parent started at or after `since` (epoch ms; all when undefined), oldest first. */
export function listTopLevelRuns(db: StoreDb, since?: number): TopLevelRunRow[] {
  return prepared<TopLevelRecord>(
    db,
    `SELECT id, skill_id, app, status, dry_run, goal, started_at FROM runs
    WHERE parent_run_id IS NULL AND started_at >= ? ORDER BY started_at, id`,
  )
    .all(since ?? ALL_TIME)
    .map((r) => ({
      id: r.id,
      skillId: r.skill_id,
      app: r.app,
      status: r.status,
      dryRun: r.dry_run === 1,
      goal: r.goal,
      startedAt: r.started_at,
    }));
}

interface ChildRecord {
  id: string;
  parent_run_id: string;
  skill_id: string;
  app: string | null;
  status: RecordedRunStatus;
  dry_run: number;
}

/** Runs whose parent is a top-level run started at or after `since` (an agent goal's skill runs). */
export function listChildRuns(db: StoreDb, since?: number): ChildRunRow[] {
  return prepared<ChildRecord>(
    db,
    `SELECT c.id, c.parent_run_id, c.skill_id, c.app, c.status, c.dry_run FROM runs c
    JOIN runs p ON p.id = c.parent_run_id
    WHERE p.parent_run_id IS NULL AND p.started_at >= ? ORDER BY c.started_at, c.id`,
  )
    .all(since ?? ALL_TIME)
    .map((r) => ({ id: r.id, parentRunId: r.parent_run_id, skillId: r.skill_id, app: r.app, status: r.status, dryRun: r.dry_run === 1 }));
}

interface TallyRecord {
  run_id: string;
  skill_id: string;
  primitive_steps: number;
  call_steps: number;
}

/**
 * Per run and skill, its steps: `call` rows (the call itself; the callee's steps follow as their
 * own rows) apart from every other primitive. Runs of tasks started at or after `since`: a
 * top-level run's own, and its children's.
 */
export function tallyStepsBySkill(db: StoreDb, since?: number): StepTally[] {
  return prepared<TallyRecord>(
    db,
    `SELECT s.run_id, s.skill_id, sum(s.primitive <> 'call') AS primitive_steps, sum(s.primitive = 'call') AS call_steps
    FROM steps s JOIN runs r ON r.id = s.run_id LEFT JOIN runs p ON p.id = r.parent_run_id
    WHERE coalesce(p.started_at, r.started_at) >= ?
    GROUP BY s.run_id, s.skill_id ORDER BY s.run_id, s.skill_id`,
  )
    .all(since ?? ALL_TIME)
    .map((r) => ({ runId: r.run_id, skillId: r.skill_id, primitiveSteps: r.primitive_steps, callSteps: r.call_steps }));
}

/** The three reads the metrics need, in one read transaction so they agree with each other. */
export function readMetricsRows(db: StoreDb, since?: number): MetricsRows {
  const read = cachedTransaction(db, 'readMetricsRows', (d: StoreDb, from: number | undefined) => ({
    topLevel: listTopLevelRuns(d, from),
    children: listChildRuns(d, from),
    steps: tallyStepsBySkill(d, from),
  }));
  return read(db, since);
}
