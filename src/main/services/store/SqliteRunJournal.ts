import type { RunJournal, StartedStep, StepRecord } from '../executor/types';
import { createRun, finishRun } from './runs';
import { appendStep, startStep, type NewStartedStep } from './steps';
import type { StoreDb } from './statements';

/** The executor's journal written to the store: each run, each step (started, then finished), committed as it happens. */
export class SqliteRunJournal implements RunJournal {
  /** `sessionId` is stamped on every run this journal starts. */
  constructor(
    private readonly db: StoreDb,
    private readonly sessionId?: string,
  ) {}

  startRun(run: Parameters<RunJournal['startRun']>[0]): void {
    createRun(this.db, {
      id: run.id,
      skillId: run.skillId,
      app: run.app ?? null,
      args: run.args,
      dryRun: run.dryRun,
      startedAt: run.startedAt,
      parentRunId: run.parentRunId ?? null,
      goal: run.goal ?? null,
      sessionId: this.sessionId ?? null,
    });
  }

  startStep(step: StartedStep): void {
    startStep(this.db, startedRow(step));
  }

  recordStep(step: StepRecord): void {
    appendStep(this.db, {
      ...startedRow(step),
      endedAt: step.endedAt,
      outcome: step.outcome,
      error: step.error ?? null,
      screenshotPath: step.screenshotPath ?? null,
    });
  }

  finishRun(id: string, end: Parameters<RunJournal['finishRun']>[1]): void {
    finishRun(this.db, id, { status: end.status, error: end.error ?? null, result: end.result, endedAt: end.endedAt });
  }
}

function startedRow(step: StartedStep): NewStartedStep {
  return {
    runId: step.runId,
    seq: step.seq,
    depth: step.depth,
    skillId: step.skillId,
    app: step.app ?? null,
    nodeId: step.nodeId,
    primitive: step.primitive,
    resolvedArgs: step.resolved,
    startedAt: step.startedAt,
  };
}
