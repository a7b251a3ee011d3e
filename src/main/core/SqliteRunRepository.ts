import {
  SqliteRunJournal,
  findRunsByIdPrefix,
  getRun,
  getSteps,
  listRuns,
  type RunRow,
  type StepRow,
  type StoreDb,
} from '../services/store';
import { isRecordedRunStatus, RECORDED_RUN_STATUSES, type RecordedStep, type RunDetail, type RunSummary } from '../../shared/run';
import type { RunFilter, RunRepository } from './Core';

/** Runs kept in the SQLite store, read back as views for the CLI and the UI. */
export class SqliteRunRepository implements RunRepository {
  readonly journal: SqliteRunJournal;

  constructor(
    private readonly db: StoreDb,
    sessionId?: string,
  ) {
    this.journal = new SqliteRunJournal(db, sessionId);
  }

  list(filter: RunFilter): RunSummary[] {
    const { status } = filter;
    if (status !== undefined && !isRecordedRunStatus(status)) {
      throw new Error(`Expected \`status\` to be one of ${RECORDED_RUN_STATUSES.join(', ')}, got \`${status}\``);
    }
    return listRuns(this.db, { limit: filter.limit ?? 20, ...(filter.skill && { skill: filter.skill }), ...(status && { status }) }).map(
      toView,
    );
  }

  get(idOrPrefix: string): RunDetail | undefined {
    const row = getRun(this.db, idOrPrefix) ?? this.byPrefix(idOrPrefix);
    return row && { ...toView(row), steps: getSteps(this.db, row.id).map(toStep) };
  }

  private byPrefix(prefix: string): RunRow | undefined {
    if (prefix.length < 4) return undefined;
    const hits = findRunsByIdPrefix(this.db, prefix, 2);
    if (hits.length > 1) throw new Error(`Run prefix \`${prefix}\` is ambiguous; give more characters`);
    return hits[0];
  }
}

function toView(r: RunRow): RunSummary {
  return {
    id: r.id,
    skillId: r.skillId,
    status: r.status,
    dryRun: r.dryRun,
    startedAt: r.startedAt,
    args: r.args,
    ...(r.app && { app: r.app }),
    ...(r.endedAt !== null && { endedAt: r.endedAt }),
    ...(r.result !== undefined && r.result !== null && { result: r.result }),
    ...(r.error && {
      error: {
        code: r.error.code,
        message: r.error.message,
        ...(r.error.nodeId && { nodeId: r.error.nodeId }),
        ...(r.error.skillId && { skillId: r.error.skillId }),
      },
    }),
    ...(r.parentRunId && { parentRunId: r.parentRunId }),
    ...(r.goal && { goal: r.goal }),
  };
}

function toStep(s: StepRow): RecordedStep {
  const common = {
    runId: s.runId,
    seq: s.seq,
    depth: s.depth,
    skillId: s.skillId,
    nodeId: s.nodeId,
    primitive: s.primitive,
    resolved: s.resolvedArgs,
    startedAt: s.startedAt,
    ...(s.app && { app: s.app }),
  };
  if (s.outcome === 'started' || s.endedAt === null) return { ...common, outcome: 'started' };
  return {
    ...common,
    endedAt: s.endedAt,
    outcome: s.outcome,
    ...(s.error && { error: s.error }),
    ...(s.screenshotPath && { screenshotPath: s.screenshotPath }),
  };
}
