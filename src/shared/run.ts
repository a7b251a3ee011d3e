/**
 * What a run is, defined once: the executor writes it, the store keeps it, the core reads it back
 * and the UI shows it (the IPC views in `ipc/views.ts` are these types under their view names).
 * Pure TypeScript.
 */

/**
 * Outcome of one primitive step, as recorded. `interrupted`: the process running the step died
 * before it finished (recovery sets it; the step's effect may or may not have happened).
 */
export type StepOutcome = 'ok' | 'failed' | 'denied' | 'skipped' | 'interrupted';
export const STEP_OUTCOMES: readonly StepOutcome[] = ['ok', 'failed', 'skipped', 'denied', 'interrupted'];

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

/** A step journaled before its effect (mediation, then the primitive): what `StepRecord` says before it ends. */
export type StartedStep = Omit<StepRecord, 'endedAt' | 'outcome' | 'error' | 'screenshotPath'>;

/** A step as the journal holds it: finished, or started and still running (in this or another process). */
export type RecordedStep =
  StepRecord | (StartedStep & { outcome: 'started'; endedAt?: undefined; error?: undefined; screenshotPath?: undefined });

/** How a run ended. */
export type RunStatus = 'succeeded' | 'failed' | 'aborted';
export const RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'aborted'];

/** The status of a recorded run: `running` until it ends (or until recovery ends it after a crash). */
export type RecordedRunStatus = RunStatus | 'running';
export const RECORDED_RUN_STATUSES: readonly RecordedRunStatus[] = ['running', ...RUN_STATUSES];

/** Whether `value` names a recorded run status (for filters typed by a person). */
export function isRecordedRunStatus(value: string): value is RecordedRunStatus {
  return (RECORDED_RUN_STATUSES as readonly string[]).includes(value);
}

/** Why a run did not succeed; `code` is stable (`run.interrupted`, `step.timeout`, `agent.failed`...). */
export interface RunError {
  code: string;
  message: string;
  skillId?: string;
  nodeId?: string;
}

/** A finished run: what the executor (or the agent, for a goal) answers. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  skillId: string;
  app?: string;
  args: Record<string, unknown>;
  /** What the skill returned (`read ... into: result`), typed by its `returns`. */
  result?: unknown;
  error?: RunError;
  steps: StepRecord[];
  startedAt: number;
  endedAt: number;
  dryRun: boolean;
}

/** Live progress of a run, as the executor emits it: the same facts the journal gets, as they happen. */
export type RunEvent =
  | { type: 'run_started'; runId: string; skillId: string; app?: string; args: Record<string, unknown> }
  | {
      type: 'step_started';
      runId: string;
      seq: number;
      depth: number;
      skillId: string;
      nodeId: string;
      primitive: string;
      resolved: Record<string, unknown>;
    }
  | { type: 'step_finished'; step: StepRecord }
  | { type: 'backtrack'; runId: string; skillId: string; fromNode: string; toNode: string; reason: string }
  | { type: 'run_finished'; result: RunResult };

/** A remark on a run beside the executor's events, e.g. the agent's decision before each skill of a goal. */
export interface RunNote {
  type: 'note';
  runId: string;
  message: string;
}

/** What a shell streams while a run or goal proceeds. */
export type RunProgress = RunEvent | RunNote;

/** A recorded run as listed (without its steps). */
export interface RunSummary {
  id: string;
  skillId: string;
  app?: string;
  status: RecordedRunStatus;
  dryRun: boolean;
  startedAt: number;
  endedAt?: number;
  args: Record<string, unknown>;
  result?: unknown;
  error?: RunError;
  parentRunId?: string;
  goal?: string;
}

/** A recorded run with its trajectory. */
export interface RunDetail extends RunSummary {
  steps: RecordedStep[];
}
