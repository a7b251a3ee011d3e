import { toJson } from './json';
import { prepared, whereClause, type StoreDb } from './statements';
import { expectInteger, expectOptionalText, expectText } from './validate';

/** One summarised agent step (issue 4): what was intended, what ran, how it ended, what changed. */
export interface MemoryRow {
  id: number;
  runId: string | null;
  sessionId: string;
  goal: string;
  /** The planner step number within the goal (0-based). */
  step: number;
  intent: string;
  skillId: string | null;
  args: Record<string, unknown>;
  /** How it ended: 'succeeded', 'failed', 'aborted', 'denied', 'invalid_args', ... (free text: the agent owns the vocabulary). */
  outcome: string;
  summary: string;
  createdAt: number;
}

export type NewMemory = Omit<MemoryRow, 'id' | 'runId' | 'skillId' | 'args' | 'createdAt'> & {
  runId?: string | null;
  skillId?: string | null;
  /** @default {} */
  args?: Record<string, unknown>;
  /** @default Date.now() */
  createdAt?: number;
};

export interface ListMemoryFilter {
  sessionId?: string;
  runId?: string;
  /** @default 50 */
  limit?: number;
}

interface MemoryRecord {
  id: number;
  run_id: string | null;
  session_id: string;
  goal: string;
  step: number;
  intent: string;
  skill_id: string | null;
  args_json: string;
  outcome: string;
  summary: string;
  created_at: number;
}

/** Stores a memory entry; returns it with its id. */
export function addMemory(db: StoreDb, entry: NewMemory): MemoryRow {
  expectText(entry.sessionId, 'sessionId');
  expectText(entry.goal, 'goal');
  expectInteger(entry.step, 'step');
  expectText(entry.intent, 'intent');
  expectText(entry.outcome, 'outcome');
  expectText(entry.summary, 'summary');
  expectOptionalText(entry.runId, 'runId');
  expectOptionalText(entry.skillId, 'skillId');
  const createdAt = entry.createdAt ?? Date.now();
  expectInteger(createdAt, 'createdAt');
  const args = entry.args ?? {};
  const info = prepared(
    db,
    `INSERT INTO memory (run_id, session_id, goal, step, intent, skill_id, args_json, outcome, summary, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.runId ?? null,
    entry.sessionId,
    entry.goal,
    entry.step,
    entry.intent,
    entry.skillId ?? null,
    toJson(args, 'args'),
    entry.outcome,
    entry.summary,
    createdAt,
  );
  return {
    id: Number(info.lastInsertRowid),
    runId: entry.runId ?? null,
    sessionId: entry.sessionId,
    goal: entry.goal,
    step: entry.step,
    intent: entry.intent,
    skillId: entry.skillId ?? null,
    args,
    outcome: entry.outcome,
    summary: entry.summary,
    createdAt,
  };
}

/** The most recent `limit` entries (of a session or run), returned oldest first as a prompt reads them. */
export function listMemory(db: StoreDb, filter: ListMemoryFilter = {}): MemoryRow[] {
  const limit = filter.limit ?? 50;
  expectInteger(limit, 'limit', 1);
  const where = whereClause([
    ['session_id = ?', filter.sessionId],
    ['run_id = ?', filter.runId],
  ]);
  return prepared<MemoryRecord>(db, `SELECT * FROM memory ${where.sql} ORDER BY id DESC LIMIT ?`)
    .all(...where.params, limit)
    .reverse()
    .map((r) => ({
      id: r.id,
      runId: r.run_id,
      sessionId: r.session_id,
      goal: r.goal,
      step: r.step,
      intent: r.intent,
      skillId: r.skill_id,
      args: JSON.parse(r.args_json) as Record<string, unknown>,
      outcome: r.outcome,
      summary: r.summary,
      createdAt: r.created_at,
    }));
}
