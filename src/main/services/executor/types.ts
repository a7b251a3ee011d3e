import type { BrowserSession } from '../../../shared/ports/browser';
import type { Desktop } from '../../../shared/ports/desktop';
import type { Grounder } from '../../../shared/ports/grounding';
import type { ActionMediator } from '../../../shared/ports/mediation';
import type { RunError, RunEvent, RunStatus, StartedStep, StepRecord } from '../../../shared/run';
import type { SkillLibrary } from '../../../shared/skill';

export type { RunError, RunEvent, RunResult, RunStatus, StartedStep, StepOutcome, StepRecord } from '../../../shared/run';

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
  /**
   * A step is about to be mediated and run: journaled before its effect, so a process that dies
   * during it leaves a trace (recovery marks it interrupted). `recordStep` with the same run and
   * seq then finishes it.
   */
  startStep(step: StartedStep): void;
  /** A step's outcome: finishes a started step, or records one that never started (a template error). */
  recordStep(step: StepRecord): void;
  /** Ends a run; a step still started then (its mediation threw) ends with the run. */
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
  /**
   * SkillDesk's browser for web steps, opened on the first one (one per core, kept across runs);
   * without it a web step fails, saying so. Dry runs never open it.
   */
  browser?: () => Promise<BrowserSession>;
  /** Where a website's `base_url_env` is read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
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
