import { randomUUID } from 'node:crypto';
import {
  RECORDED_RUN_STATUSES,
  RUN_STATUSES,
  STEP_OUTCOMES,
  type RecordedRunStatus,
  type RunError,
  type RunStatus,
  type StepOutcome,
} from '../../../shared/run';
import { StoreError, sqliteCode } from './errors';
import { fromJson, toJson } from './json';
import { ownerIdentity } from './runRecovery';
import { prepared, whereClause, type StoreDb } from './statements';
import { expectInteger, expectOneOf, expectOptionalText, expectText } from './validate';

/**
 * The `status` column of a `runs` row: a run's status as the store keeps it (`running` until it
 * ends). Named apart from `RunStatus`, which is how a run ended.
 */
export type RunRowStatus = RecordedRunStatus;

/** A run's error as stored: the run's `RunError`, plus what recovery adds to a run it ended. */
export interface RunErrorData extends RunError {
  /** `interrupted` when recovery ended a run its crashed process left open. */
  reason?: string;
  /** When recovery marked the run (epoch ms). */
  recoveredAt?: number;
  details?: Record<string, unknown>;
}

/** Token and time accounting of a run (filled by the agent; shape owned by its author). */
export type RunAccounting = Record<string, unknown>;

/** A row of `runs`, JSON columns parsed. */
export interface RunRow {
  id: string;
  skillId: string;
  app: string | null;
  sessionId: string | null;
  args: Record<string, unknown>;
  status: RunRowStatus;
  error: RunErrorData | null;
  result: unknown;
  dryRun: boolean;
  startedAt: number;
  endedAt: number | null;
  parentRunId: string | null;
  goal: string | null;
  accounting: RunAccounting | null;
}

/** A row of `steps`, JSON columns parsed. */
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
  endedAt: number;
  outcome: StepOutcome;
  error: string | null;
  screenshotPath: string | null;
}

export interface NewRun {
  /** @default a random UUID */
  id?: string;
  skillId: string;
  app?: string | null;
  sessionId?: string | null;
  /** @default {} */
  args?: Record<string, unknown>;
  /** @default false */
  dryRun?: boolean;
  /** @default Date.now() */
  startedAt?: number;
  parentRunId?: string | null;
  goal?: string | null;
  accounting?: RunAccounting | null;
}

export interface RunEnd {
  status: RunStatus;
  error?: RunErrorData | null;
  result?: unknown;
  /** @default Date.now() */
  endedAt?: number;
  accounting?: RunAccounting | null;
}

export type NewStep = Omit<StepRow, 'app' | 'error' | 'screenshotPath' | 'depth'> & {
  app?: string | null;
  error?: string | null;
  screenshotPath?: string | null;
  /** Call depth (0 = the top-level skill). @default 0 */
  depth?: number;
};

export interface ListRunsFilter {
  /** @default 50 */
  limit?: number;
  /** Exact skill id (`mousepad.save_as`). */
  skill?: string;
  status?: RunRowStatus;
  app?: string;
  parentRunId?: string;
  /** Only runs started strictly before this epoch ms (paging: pass the last row's `startedAt`). */
  before?: number;
}

interface RunRecord {
  id: string;
  skill_id: string;
  app: string | null;
  session_id: string | null;
  args_json: string;
  status: RunRowStatus;
  error_json: string | null;
  result_json: string | null;
  dry_run: number;
  started_at: number;
  ended_at: number | null;
  parent_run_id: string | null;
  goal: string | null;
  accounting_json: string | null;
}
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
  ended_at: number;
  outcome: StepOutcome;
  error: string | null;
  screenshot_path: string | null;
}

const RUN_COLUMNS =
  'id, skill_id, app, session_id, args_json, status, error_json, result_json, dry_run, started_at, ended_at, parent_run_id, goal, accounting_json';

/** Records a run as 'running', owned by this process; returns the stored row. */
export function createRun(db: StoreDb, run: NewRun): RunRow {
  expectText(run.skillId, 'skillId');
  const id = run.id ?? randomUUID();
  expectText(id, 'id');
  const startedAt = run.startedAt ?? Date.now();
  expectInteger(startedAt, 'startedAt');
  const owner = ownerIdentity();
  try {
    prepared(
      db,
      `INSERT INTO runs (id, skill_id, app, session_id, args_json, status, dry_run, started_at, parent_run_id, goal, accounting_json, owner_pid, owner_boot_ms)
      VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      run.skillId,
      run.app ?? null,
      run.sessionId ?? null,
      toJson(run.args ?? {}, 'args'),
      run.dryRun ? 1 : 0,
      startedAt,
      run.parentRunId ?? null,
      run.goal ?? null,
      run.accounting == null ? null : toJson(run.accounting, 'accounting'),
      owner.pid,
      owner.bootMs,
    );
  } catch (err) {
    if (sqliteCode(err) === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      throw new StoreError('store.duplicate_run', `A run with id \`${id}\` is already stored; run ids are unique`, { id });
    throw err;
  }
  return getRun(db, id)!;
}

/** Ends a 'running' run. Throws `store.run_not_found` or `store.run_already_finished` otherwise. */
export function finishRun(db: StoreDb, id: string, end: RunEnd): RunRow {
  expectText(id, 'id');
  expectOneOf(end.status, RUN_STATUSES, 'status');
  const endedAt = end.endedAt ?? Date.now();
  expectInteger(endedAt, 'endedAt');
  const info = prepared(
    db,
    `UPDATE runs SET status = ?, error_json = ?, result_json = ?, ended_at = max(?, started_at),
      accounting_json = coalesce(?, accounting_json), owner_pid = NULL, owner_boot_ms = NULL
    WHERE id = ? AND status = 'running'`,
  ).run(
    end.status,
    end.error == null ? null : toJson(end.error, 'error'),
    end.result === undefined ? null : toJson(end.result, 'result'),
    endedAt,
    end.accounting == null ? null : toJson(end.accounting, 'accounting'),
    id,
  );
  const row = getRun(db, id);
  if (!row)
    throw new StoreError('store.run_not_found', `No run \`${id}\` in the store; create it with createRun before finishing it`, { id });
  if (info.changes === 0) {
    throw new StoreError(
      'store.run_already_finished',
      `Run \`${id}\` already ended as '${row.status}'${row.error ? ` (${row.error.code})` : ''}; a run is finished once`,
      { id, status: row.status },
    );
  }
  return row;
}

/** Replaces a run's accounting while it runs (tokens and time accrue step by step). */
export function setRunAccounting(db: StoreDb, id: string, accounting: RunAccounting): void {
  const info = prepared(db, 'UPDATE runs SET accounting_json = ? WHERE id = ?').run(toJson(accounting, 'accounting'), id);
  if (info.changes === 0) throw new StoreError('store.run_not_found', `No run \`${id}\` in the store to account for`, { id });
}

/** Journals one executed primitive of a run. */
export function appendStep(db: StoreDb, step: NewStep): void {
  expectText(step.runId, 'runId');
  expectInteger(step.seq, 'seq');
  expectText(step.skillId, 'skillId');
  expectText(step.nodeId, 'nodeId');
  expectText(step.primitive, 'primitive');
  expectInteger(step.startedAt, 'startedAt');
  expectInteger(step.endedAt, 'endedAt');
  expectOneOf(step.outcome, STEP_OUTCOMES, 'outcome');
  expectOptionalText(step.screenshotPath, 'screenshotPath');
  try {
    prepared(
      db,
      `INSERT INTO steps (run_id, seq, depth, skill_id, app, node_id, primitive, resolved_args_json, started_at, ended_at, outcome, error, screenshot_path)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      step.runId,
      step.seq,
      step.depth ?? 0,
      step.skillId,
      step.app ?? null,
      step.nodeId,
      step.primitive,
      toJson(step.resolvedArgs, 'resolvedArgs'),
      step.startedAt,
      step.endedAt,
      step.outcome,
      step.error ?? null,
      step.screenshotPath ?? null,
    );
  } catch (err) {
    const code = sqliteCode(err);
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
      throw new StoreError(
        'store.run_not_found',
        `Cannot record step ${step.seq}: no run \`${step.runId}\` in the store; createRun first`,
        { runId: step.runId },
      );
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      throw new StoreError(
        'store.duplicate_step',
        `Run \`${step.runId}\` already has a step ${step.seq}; sequence numbers are unique per run`,
        { runId: step.runId, seq: step.seq },
      );
    throw err;
  }
}

/** One run, or undefined. */
export function getRun(db: StoreDb, id: string): RunRow | undefined {
  const record = prepared<RunRecord>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id);
  return record && toRunRow(record);
}

/** Runs, newest first, optionally filtered by skill, status, app or parent. */
export function listRuns(db: StoreDb, filter: ListRunsFilter = {}): RunRow[] {
  const limit = filter.limit ?? 50;
  expectInteger(limit, 'limit', 1);
  if (filter.status !== undefined) expectOneOf(filter.status, RECORDED_RUN_STATUSES, 'status');
  const where = whereClause([
    ['skill_id = ?', filter.skill],
    ['status = ?', filter.status],
    ['app = ?', filter.app],
    ['parent_run_id = ?', filter.parentRunId],
    ['started_at < ?', filter.before],
  ]);
  return prepared<RunRecord>(db, `SELECT ${RUN_COLUMNS} FROM runs ${where.sql} ORDER BY started_at DESC, id LIMIT ?`)
    .all(...where.params, limit)
    .map(toRunRow);
}

/**
 * Runs whose id starts with `prefix` (for `runs show 3f2a`), at most `limit`; a range scan on
 * the primary key, so it stays fast however many runs are stored. Two hits means ambiguous.
 */
export function findRunsByIdPrefix(db: StoreDb, prefix: string, limit = 2): RunRow[] {
  expectText(prefix, 'prefix');
  expectInteger(limit, 'limit', 1);
  // U+10FFFF sorts after every character in SQLite's byte-wise BINARY order: [prefix, prefix + max) is the prefix range.
  return prepared<RunRecord>(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT ?`)
    .all(prefix, `${prefix}\u{10FFFF}`, limit)
    .map(toRunRow);
}

/** A run's steps in execution order. */
export function getSteps(db: StoreDb, runId: string): StepRow[] {
  return prepared<StepRecord>(db, 'SELECT * FROM steps WHERE run_id = ? ORDER BY seq').all(runId).map(toStepRow);
}

function toRunRow(r: RunRecord): RunRow {
  return {
    id: r.id,
    skillId: r.skill_id,
    app: r.app,
    sessionId: r.session_id,
    args: JSON.parse(r.args_json) as Record<string, unknown>,
    status: r.status,
    error: fromJson<RunErrorData>(r.error_json),
    result: fromJson(r.result_json),
    dryRun: r.dry_run === 1,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    parentRunId: r.parent_run_id,
    goal: r.goal,
    accounting: fromJson<RunAccounting>(r.accounting_json),
  };
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
