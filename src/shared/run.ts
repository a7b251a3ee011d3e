/**
 * What a run records, shared by the executor that writes it, the store that keeps it and the UI
 * that shows it. Pure types.
 */

/** Outcome of one primitive step, as recorded. */
export type StepOutcome = 'ok' | 'failed' | 'denied' | 'skipped';

export interface StepRecord {
  runId: string;
  seq: number;
  depth: number;
  skillId: string;
  app?: string;
  nodeId: string;
  primitive: string;
  /** The primitive with every template resolved. */
  resolved: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
  outcome: StepOutcome;
  error?: string;
  screenshotPath?: string;
}

export type RunStatus = 'succeeded' | 'failed' | 'aborted';

export interface RunError {
  code: string;
  message: string;
  skillId?: string;
  nodeId?: string;
}
