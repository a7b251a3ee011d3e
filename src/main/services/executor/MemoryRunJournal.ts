import type { RunJournal, RunResult, StartedStep, StepRecord } from './types';

type StartedRun = Parameters<RunJournal['startRun']>[0];
type FinishedRun = Parameters<RunJournal['finishRun']>[1];

/** Keeps runs in memory: for dry runs and tests, where nothing may touch the disk. */
export class MemoryRunJournal implements RunJournal {
  readonly runs = new Map<string, StartedRun & { end?: FinishedRun; status: RunResult['status'] | 'running' }>();
  readonly steps: StepRecord[] = [];
  /** Every step as it was started, in order (finished or not). */
  readonly started: StartedStep[] = [];

  startRun(run: StartedRun): void {
    this.runs.set(run.id, { ...run, status: 'running' });
  }

  startStep(step: StartedStep): void {
    this.started.push(step);
  }

  recordStep(step: StepRecord): void {
    this.steps.push(step);
  }

  finishRun(id: string, end: FinishedRun): void {
    const run = this.runs.get(id);
    if (run) this.runs.set(id, { ...run, end, status: end.status });
  }
}
