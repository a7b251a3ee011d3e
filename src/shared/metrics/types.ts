import type { RecordedRunStatus } from '../run';

// The rows the metrics are computed from (read from the store by src/main/services/store/metrics.ts),
// and the figures they yield (the `metrics:get` view and `skilldesk metrics --json`).
// docs/metrics.md defines every figure.

/** A run with no parent: an agent goal (`goal` set) or a skill run a person started. */
export interface TopLevelRunRow {
  id: string;
  skillId: string;
  app: string | null;
  status: RecordedRunStatus;
  dryRun: boolean;
  goal: string | null;
  startedAt: number;
}

/** A run started by another run (the skill runs of an agent goal point at it through `parent_run_id`). */
export interface ChildRunRow {
  id: string;
  parentRunId: string;
  skillId: string;
  app: string | null;
  status: RecordedRunStatus;
  dryRun: boolean;
}

/** How many steps one skill took in one run: `call` steps apart, every other step is a primitive. */
export interface StepTally {
  runId: string;
  skillId: string;
  primitiveSteps: number;
  callSteps: number;
}

/** What the store holds for a window: top-level runs started in it, their children and their steps. */
export interface MetricsRows {
  topLevel: readonly TopLevelRunRow[];
  children: readonly ChildRunRow[];
  steps: readonly StepTally[];
}

/** A share: `count` of `of`, and their ratio (null when `of` is 0: no data, not 0%). */
export interface Share {
  count: number;
  of: number;
  rate: number | null;
}

/** Figures over one group of tasks (agent goals, direct skill runs, or both). */
export interface TaskFigures {
  tasks: number;
  succeeded: number;
  failed: number;
  aborted: number;
  /** Succeeded tasks over every counted task. */
  success: Share;
  /** Primitive steps (rows of `steps`, `call` rows excluded) per succeeded task. */
  stepsOnSuccess: { tasks: number; mean: number | null; median: number | null };
  /** Tasks that ran at least one library skill (not a fallback). */
  coverage: Share;
  /** Tasks that ran two or more distinct library skills. */
  multiSkill: Share;
}

/** How a skill id found in the journal relates to the current library. */
export type MetricsSkillKind = 'implementation' | 'app_skill' | 'composite' | 'fallback' | 'unknown';

export interface SkillUsage {
  skillId: string;
  kind: MetricsSkillKind;
  /** Tasks in which the skill ran at least one step. */
  tasks: number;
  /** Runs (a goal's skill runs, or direct runs) in which it ran at least one step. */
  runs: number;
}

export interface AppFigures {
  /** null: tasks whose runs name no app (a goal that ran no skill). */
  app: string | null;
  tasks: number;
  succeeded: number;
  success: Share;
}

/** Every figure of `docs/metrics.md` for one window. */
export interface MetricsView {
  /** Tasks started at or after `since` (null: all recorded), up to `until` (when computed); epoch ms. */
  window: { since: number | null; until: number };
  tasks: { all: TaskFigures; goals: TaskFigures; direct: TaskFigures };
  /** Tasks left out: dry runs, and tasks still running. */
  excluded: { dryRun: number; running: number };
  /** Library skills (fallbacks apart) that ran in at least one task. */
  reusability: Share;
  compositionality: {
    /** Call nodes of the library's composites and user skills that call another library skill. */
    skills: Share & { skills: number; skillsWithCalls: number };
    /** Tasks that ran two or more distinct library skills (= `tasks.all.multiSkill`). */
    tasks: Share;
  };
  /** Every skill that ran in a counted task, most used first. */
  bySkill: SkillUsage[];
  /** Success of the tasks that ran on each app, most tasks first. */
  byApp: AppFigures[];
}
