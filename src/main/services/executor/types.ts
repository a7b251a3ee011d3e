import type { Desktop } from '../../../shared/ports/desktop';
import type { Grounder } from '../../../shared/ports/grounding';
import type { ActionMediator } from '../../../shared/ports/mediation';
import type { RunError, RunEvent, RunStatus, StepRecord } from '../../../shared/run';
import type { SkillLibrary } from '../../../shared/skill';

export type { RunError, RunEvent, RunResult, RunStatus, StepOutcome, StepRecord } from '../../../shared/run';

/** Where runs and steps are written (the SQLite store in the app; memory in tests). */
export interface RunJournal {
  startRun(run: {
    id: string;
    skillId: string;
    app?: string;
    args: Record<string, unknown>;
    dryRun: boolean;
    startedAt: number;
    parentRunId?: string;
    goal?: string;
  }): void;
  recordStep(step: StepRecord): void;
  finishRun(id: string, end: { status: RunStatus; error?: RunError; result?: unknown; endedAt: number }): void;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Everything the executor needs, passed in (STYLE: side effects behind ports). */
export interface ExecutorDeps {
  library: SkillLibrary;
  desktop: Desktop;
  mediator: ActionMediator;
  journal?: RunJournal;
  grounder?: Grounder;
  clock?: Clock;
  /** Folder for step screenshots; none taken when absent. */
  screenshotDir?: string;
  /** Writes a PNG; injected so the core stays free of fs. */
  saveScreenshot?: (path: string, png: Uint8Array) => Promise<void>;
  sessionId?: string;
  /** The configured default app per domain interface (`TextEditor` -> `mousepad`). */
  defaultApps?: Record<string, string>;
  /** Poll interval of waits. @default 100 */
  pollMs?: number;
}

export interface RunRequest {
  /** `Interface.method` or a concrete skill id. */
  skill: string;
  app?: string;
  args?: Record<string, unknown>;
  /** Dry run: every primitive is recorded, waits and UI conditions are assumed to hold. */
  dryRun?: boolean;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  parentRunId?: string;
  goal?: string;
  /** Capture a screenshot after every step (not only where the graph asks). @default false */
  screenshotEveryStep?: boolean;
}
