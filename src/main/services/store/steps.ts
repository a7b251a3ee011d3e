import { STEP_OUTCOMES, type StepOutcome } from '../../../shared/run';
import { StoreError, sqliteCode } from './errors';
import { toJson } from './json';
import { prepared, type StoreDb } from './statements';
import { expectInteger, expectOneOf, expectOptionalText, expectText } from './validate';

// A step is journaled before its effect, as 'started' with no end (startStep), then finished
// with its outcome (appendStep). Recovery marks a step its dead process left started as
// 'interrupted'; finishRun ends one its run left started (the step's mediation threw).

/** A row of `steps`, JSON columns parsed. `outcome` is 'started' and `endedAt` null while it runs. */
export interface StepRow {
  runId: string;
  seq: number;
  depth: number;
  skillId: string;
  app: string | null;
  nodeId: string;
  primitive: string;
  resolvedArgs: Record<string, unknown>;
  startedAt: number;
  endedAt: number | null;
  outcome: StepOutcome | 'started';
  error: string | null;
  screenshotPath: string | null;
}

/** A step about to run. */
export type NewStartedStep = Omit<StepRow, 'app' | 'error' | 'screenshotPath' | 'depth' | 'endedAt' | 'outcome'> & {
  app?: string | null;
  /** Call depth (0 = the top-level skill). @default 0 */
  depth?: number;
};

/** A finished step: finishes its started row, or is recorded whole when it never started. */
export type NewStep = NewStartedStep & {
  endedAt: number;
  outcome: StepOutcome;
  error?: string | null;
  screenshotPath?: string | null;
};

interface StepRecord {
  run_id: string;
  seq: number;
  depth: number;
  skill_id: string;
  app: string | null;
  node_id: string;
  primitive: string;
  resolved_args_json: string;
  started_at: number;
  ended_at: number | null;
  outcome: StepOutcome | 'started';
  error: string | null;
  screenshot_path: string | null;
}

/** Journals a step as started, before its effect. */
export function startStep(db: StoreDb, step: NewStartedStep): void {
  checkStep(step);
  try {
    prepared(
      db,
      `INSERT INTO steps (run_id, seq, depth, skill_id, app, node_id, primitive, resolved_args_json, started_at, ended_at, outcome)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 'started')`,
    ).run(...stepValues(step));
  } catch (err) {
    throw stepError(err, step);
  }
}

/** Journals a step's outcome: finishes the started row with this run and seq, or inserts the step. */
export function appendStep(db: StoreDb, step: NewStep): void {
  checkStep(step);
  expectInteger(step.endedAt, 'endedAt');
  expectOneOf(step.outcome, STEP_OUTCOMES, 'outcome');
  expectOptionalText(step.screenshotPath, 'screenshotPath');
  let changes: number;
  try {
    // The WHERE makes a finished step final: a second outcome for the same seq changes nothing.
    changes = prepared(
      db,
      `INSERT INTO steps (run_id, seq, depth, skill_id, app, node_id, primitive, resolved_args_json, started_at, ended_at, outcome, error, screenshot_path)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (run_id, seq) DO UPDATE SET depth = excluded.depth, skill_id = excluded.skill_id, app = excluded.app,
        node_id = excluded.node_id, primitive = excluded.primitive, resolved_args_json = excluded.resolved_args_json,
        started_at = excluded.started_at, ended_at = excluded.ended_at, outcome = excluded.outcome, error = excluded.error,
        screenshot_path = excluded.screenshot_path
      WHERE steps.outcome = 'started'`,
    ).run(...stepValues(step), step.endedAt, step.outcome, step.error ?? null, step.screenshotPath ?? null).changes;
  } catch (err) {
    throw stepError(err, step);
  }
  if (changes === 0) throw duplicate(step);
}

/**
 * Ends the steps of `runId` still 'started' with `outcome` at `endedAt` (never before they
 * started; null: at their start, when the end is unknown): recovery ('interrupted') and
 * finishRun (the run ended during the step).
 */
export function endStartedSteps(db: StoreDb, runId: string, outcome: StepOutcome, endedAt: number | null, error: string): number {
  return prepared(
    db,
    `UPDATE steps SET outcome = ?, ended_at = max(coalesce(?, started_at), started_at), error = ?
    WHERE run_id = ? AND outcome = 'started'`,
  ).run(outcome, endedAt, error, runId).changes;
}

/** A run's steps in execution order. */
export function getSteps(db: StoreDb, runId: string): StepRow[] {
  return prepared<StepRecord>(db, 'SELECT * FROM steps WHERE run_id = ? ORDER BY seq').all(runId).map(toStepRow);
}

function checkStep(step: NewStartedStep): void {
  expectText(step.runId, 'runId');
  expectInteger(step.seq, 'seq');
  expectText(step.skillId, 'skillId');
  expectText(step.nodeId, 'nodeId');
  expectText(step.primitive, 'primitive');
  expectInteger(step.startedAt, 'startedAt');
}

function stepValues(step: NewStartedStep): unknown[] {
  return [
    step.runId,
    step.seq,
    step.depth ?? 0,
    step.skillId,
    step.app ?? null,
    step.nodeId,
    step.primitive,
    toJson(step.resolvedArgs, 'resolvedArgs'),
    step.startedAt,
  ];
}

function stepError(err: unknown, step: NewStartedStep): unknown {
  const code = sqliteCode(err);
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new StoreError('store.run_not_found', `Cannot record step ${step.seq}: no run \`${step.runId}\` in the store; createRun first`, {
      runId: step.runId,
    });
  }
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return duplicate(step);
  return err;
}

function duplicate(step: NewStartedStep): StoreError {
  return new StoreError(
    'store.duplicate_step',
    `Run \`${step.runId}\` already has a step ${step.seq}; sequence numbers are unique per run`,
    {
      runId: step.runId,
      seq: step.seq,
    },
  );
}

function toStepRow(s: StepRecord): StepRow {
  return {
    runId: s.run_id,
    seq: s.seq,
    depth: s.depth,
    skillId: s.skill_id,
    app: s.app,
    nodeId: s.node_id,
    primitive: s.primitive,
    resolvedArgs: JSON.parse(s.resolved_args_json) as Record<string, unknown>,
    startedAt: s.started_at,
    endedAt: s.ended_at,
    outcome: s.outcome,
    error: s.error,
    screenshotPath: s.screenshot_path,
  };
}
