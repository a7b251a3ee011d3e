import { randomUUID } from 'node:crypto';
import { RECORDED_RUN_STATUSES, RUN_STATUSES, type RecordedRunStatus, type RunError, type RunStatus } from '../../../shared/run';
import { StoreError, sqliteCode } from './errors';
import { fromJson, toJson } from './json';
import { ownerIdentity } from './runRecovery';
import { prepared, whereClause, type StoreDb } from './statements';
import { endStartedSteps } from './steps';
import { expectInteger, expectOneOf, expectText } from './validate';

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

/**
 * Ends a 'running' run, and a step it left started (its mediation or focus threw before an
 * outcome was recorded) with it: 'skipped' when the run was aborted, 'failed' otherwise.
 * Throws `store.run_not_found` or `store.run_already_finished` otherwise.
 */
export function finishRun(db: StoreDb, id: string, end: RunEnd): RunRow {
  expectText(id, 'id');
  expectOneOf(end.status, RUN_STATUSES, 'status');
  const endedAt = end.endedAt ?? Date.now();
  expectInteger(endedAt, 'endedAt');
  const changes = db.transaction(() => {
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
    if (info.changes > 0) {
      const why = `The run ended (${end.status}${end.error ? `: ${end.error.message}` : ''}) before this step finished`;
      endStartedSteps(db, id, end.status === 'aborted' ? 'skipped' : 'failed', endedAt, why);
    }
    return info.changes;
  })();
  const row = getRun(db, id);
  if (!row)
    throw new StoreError('store.run_not_found', `No run \`${id}\` in the store; create it with createRun before finishing it`, { id });
  if (changes === 0) {
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
