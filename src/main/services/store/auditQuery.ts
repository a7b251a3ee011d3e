import { describeValue } from '../../../shared/errors';
import type { AuditFilter, AuditPage } from '../../../shared/permissions/audit';
import type { AuditAnswer, AuditDecision, AuditRow } from './audit';
import { StoreError } from './errors';
import { prepared, type StoreDb } from './statements';
import { expectInteger, expectOneOf, expectText } from './validate';

// Reading the audit. Pages are ordered by time, newest first (ts DESC, then id DESC for rows of
// the same millisecond), and continue by keyset: a page's cursor is its last row's (ts, id), and
// the next page is the rows strictly before it. Ordering by ts rather than id lets one index per
// filter column, (column, ts), serve both the filter and a since/until range, and stop after
// the page: migration 002 adds them. Appends carry Date.now(), so ts follows id closely anyway.

/** A page and where it stops. */
export interface AuditPageQuery extends AuditFilter {
  /** Rows per page. @default 100 */
  limit?: number;
  /** A previous page's `nextCursor`: rows older than that page's last. */
  cursor?: string;
  /**
   * How many rows (in time order) one call may examine when the filter is not answered by an
   * index alone (text, or two of decision/skill/capability/session). The call then returns what
   * it found with a cursor to continue, so a rare match over a million rows never blocks the
   * process for long. @default AUDIT_SCAN_BUDGET
   */
  scanBudget?: number;
}

/** Rows one call examines at most for a filter that needs a scan: ~25 ms on the 2-core test machine. */
export const AUDIT_SCAN_BUDGET = 20_000;

interface AuditRecord {
  id: number;
  ts: number;
  session_id: string;
  run_id: string | null;
  skill_id: string | null;
  node_id: string | null;
  capability: string;
  target: string | null;
  decision: AuditDecision;
  answer: AuditAnswer | null;
  reason: string;
  policy_source: string;
  args_digest: string | null;
  prev_hash: string;
  hash: string;
}

/** Where a page stops: the (ts, id) of its oldest row. */
interface Key {
  ts: number;
  id: number;
}

/** One page of matching rows, newest first; `nextCursor` continues with older rows, null when none are left. */
export function queryAudit(db: StoreDb, query: AuditPageQuery = {}): AuditPage<AuditRow> {
  const limit = query.limit ?? 100;
  expectInteger(limit, 'limit', 1);
  const budget = query.scanBudget ?? AUDIT_SCAN_BUDGET;
  expectInteger(budget, 'scanBudget', 1);
  const filter = filterConditions(query);
  const before = query.cursor === undefined ? undefined : parseCursor(query.cursor);
  const range = [...filter.time, ...(before ? ['(ts, id) < ($beforeTs, $beforeId)'] : [])];
  const params: Record<string, unknown> = { ...filter.params, ...(before && { beforeTs: before.ts, beforeId: before.id }) };
  // The oldest row of the window this call may examine: `budget` rows back in time, counted on
  // the covering ts index (a few ms). Absent when fewer rows are left, or no scan is needed.
  const floor = filter.scans
    ? prepared<Key>(db, `SELECT ts, id FROM audit ${whereSql(range)} ORDER BY ts DESC, id DESC LIMIT 1 OFFSET $skip`).get({
        ...params,
        skip: budget - 1,
      })
    : undefined;
  const where = [...filter.match, ...range, ...(floor ? ['(ts, id) >= ($floorTs, $floorId)'] : [])];
  const records = prepared<AuditRecord>(db, `SELECT * FROM audit ${whereSql(where)} ORDER BY ts DESC, id DESC LIMIT $take`).all({
    ...params,
    ...(floor && { floorTs: floor.ts, floorId: floor.id }),
    take: limit + 1,
  });
  if (records.length > limit) {
    const rows = records.slice(0, limit).map(toAuditRow);
    return { rows, nextCursor: cursorOf(rows.at(-1)!) };
  }
  return { rows: records.map(toAuditRow), nextCursor: floor ? cursorOf(floor) : null };
}

/** Streams matching rows in append order (no limit), for verification and export; do not write to `db` while iterating. */
export function* iterateAudit(db: StoreDb, filter: AuditFilter = {}): Generator<AuditRow> {
  const { time, match, params } = filterConditions(filter);
  const sql = `SELECT * FROM audit ${whereSql([...match, ...time])} ORDER BY id`;
  for (const record of prepared<AuditRecord>(db, sql).iterate(params)) yield toAuditRow(record);
}

/** The filter as SQL: time-range terms apart (the window probe uses them), and whether a page needs a bounded scan. */
function filterConditions(filter: AuditFilter): { time: string[]; match: string[]; params: Record<string, unknown>; scans: boolean } {
  const time: string[] = [];
  const match: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [key, sql] of [
    ['since', 'ts >= $since'],
    ['until', 'ts < $until'],
  ] as const) {
    if (filter[key] === undefined) continue;
    expectInteger(filter[key], key);
    time.push(sql);
    params[key] = filter[key];
  }
  if (filter.decision !== undefined) expectOneOf(filter.decision, ['allow', 'confirm', 'deny'] as const, 'decision');
  const columns = [
    ['decision', 'decision'],
    ['skill', 'skill_id'],
    ['capability', 'capability'],
    ['sessionId', 'session_id'],
    ['runId', 'run_id'],
  ] as const;
  for (const [key, column] of columns) {
    if (filter[key] === undefined) continue;
    expectText(filter[key], key);
    match.push(`${column} = $${key}`);
    params[key] = filter[key];
  }
  if (filter.text !== undefined) {
    expectText(filter.text, 'text');
    // LIKE is case-insensitive for ASCII; the user's % and _ are literal characters.
    const like = (column: string) => `${column} LIKE $text ESCAPE '\\'`;
    match.push(`(${['capability', 'target', 'reason', 'skill_id', 'policy_source', 'answer'].map(like).join(' OR ')})`);
    params.text = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  // One (column, ts) index answers one equality; a second one, or the text, is checked row by
  // row. A run's rows are few, so a run filter never needs the budget.
  const equalities = columns.filter(([key]) => key !== 'runId' && filter[key] !== undefined).length;
  const scans = filter.runId === undefined && (filter.text !== undefined || equalities > 1);
  return { time, match, params, scans };
}

function whereSql(conditions: readonly string[]): string {
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

// The cursor is opaque to callers (so the order can change without changing the contract);
// inside, it is `ts:id` of the last row a page returned.
function cursorOf(key: Key): string {
  return `${key.ts}:${key.id}`;
}

function parseCursor(cursor: unknown): Key {
  const m = typeof cursor === 'string' ? /^(\d{1,16}):(\d{1,16})$/.exec(cursor) : null;
  const key = m && { ts: Number(m[1]), id: Number(m[2]) };
  if (!key || !Number.isSafeInteger(key.ts) || !Number.isSafeInteger(key.id)) {
    throw new StoreError(
      'store.invalid_argument',
      `Expected \`cursor\` to be a \`nextCursor\` from a previous audit page, got ${describeValue(cursor)}`,
    );
  }
  return key;
}

function toAuditRow(r: AuditRecord): AuditRow {
  return {
    id: r.id,
    ts: r.ts,
    sessionId: r.session_id,
    runId: r.run_id,
    skillId: r.skill_id,
    nodeId: r.node_id,
    capability: r.capability,
    target: r.target,
    decision: r.decision,
    answer: r.answer,
    reason: r.reason,
    policySource: r.policy_source,
    argsDigest: r.args_digest,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}
