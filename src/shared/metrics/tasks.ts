import type { RunStatus } from '../run';
import type { AppFigures, MetricsRows, Share, SkillUsage, TaskFigures } from './types';

/**
 * A task as the metrics count it: an agent goal with its skill runs, or a skill run a person
 * started (no parent, no goal), finished and not a dry run.
 */
export interface Task {
  id: string;
  kind: 'goal' | 'direct';
  status: RunStatus;
  /** Apps named by the task's runs, sorted; empty when none names one. */
  apps: string[];
  /** Steps of every run of the task, `call` steps apart. */
  primitiveSteps: number;
  /** Each skill that ran at least one step -> in how many of the task's runs it did. */
  skills: Map<string, number>;
}

/** `count / of`, or null when there is nothing to divide by (no data is not 0%). */
export function share(count: number, of: number): Share {
  return { count, of, rate: of === 0 ? null : count / of };
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The middle value; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * Builds the tasks from the rows: each top-level run with its children. A task any of whose runs
 * is a dry run is left out (the agent runs all of a goal's skills dry or none), and so is a task
 * still running; both are counted in `excluded`.
 */
export function assembleTasks(rows: MetricsRows): { tasks: Task[]; excluded: { dryRun: number; running: number } } {
  const childrenOf = groupBy(rows.children, (c) => c.parentRunId);
  const stepsOf = groupBy(rows.steps, (s) => s.runId);
  const excluded = { dryRun: 0, running: 0 };
  const tasks: Task[] = [];
  for (const top of rows.topLevel) {
    const runs = [top, ...(childrenOf.get(top.id) ?? [])];
    if (runs.some((r) => r.dryRun)) {
      excluded.dryRun++;
      continue;
    }
    if (top.status === 'running') {
      excluded.running++;
      continue;
    }
    const skills = new Map<string, number>();
    let primitiveSteps = 0;
    for (const run of runs) {
      for (const tally of stepsOf.get(run.id) ?? []) {
        primitiveSteps += tally.primitiveSteps;
        if (tally.primitiveSteps + tally.callSteps > 0) skills.set(tally.skillId, (skills.get(tally.skillId) ?? 0) + 1);
      }
    }
    const apps = [...new Set(runs.flatMap((r) => (r.app === null ? [] : [r.app])))].sort();
    tasks.push({ id: top.id, kind: top.goal === null ? 'direct' : 'goal', status: top.status, apps, primitiveSteps, skills });
  }
  return { tasks, excluded };
}

/** The figures of one group of tasks; `isLibrarySkill` tells library skills from fallbacks and unknown ids. */
export function taskFigures(tasks: readonly Task[], isLibrarySkill: (skillId: string) => boolean): TaskFigures {
  const succeeded = tasks.filter((t) => t.status === 'succeeded');
  const librarySkills = (t: Task) => [...t.skills.keys()].filter(isLibrarySkill).length;
  const steps = succeeded.map((t) => t.primitiveSteps);
  return {
    tasks: tasks.length,
    succeeded: succeeded.length,
    failed: tasks.filter((t) => t.status === 'failed').length,
    aborted: tasks.filter((t) => t.status === 'aborted').length,
    success: share(succeeded.length, tasks.length),
    stepsOnSuccess: { tasks: steps.length, mean: mean(steps), median: median(steps) },
    coverage: share(tasks.filter((t) => librarySkills(t) >= 1).length, tasks.length),
    multiSkill: share(tasks.filter((t) => librarySkills(t) >= 2).length, tasks.length),
  };
}

/** Success per app: a task counts once for each app its runs name (a cross-app goal for each). */
export function appFigures(tasks: readonly Task[]): AppFigures[] {
  const byApp = new Map<string | null, { tasks: number; succeeded: number }>();
  for (const t of tasks) {
    for (const app of t.apps.length > 0 ? t.apps : [null]) {
      const f = byApp.get(app) ?? { tasks: 0, succeeded: 0 };
      f.tasks++;
      if (t.status === 'succeeded') f.succeeded++;
      byApp.set(app, f);
    }
  }
  return [...byApp.entries()]
    .map(([app, f]) => ({ app, tasks: f.tasks, succeeded: f.succeeded, success: share(f.succeeded, f.tasks) }))
    .sort((a, b) => b.tasks - a.tasks || compareApps(a.app, b.app));
}

function compareApps(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a.localeCompare(b);
}

/** Per skill: in how many tasks and runs it ran; `kindOf` classifies it against the library. */
export function skillUsage(tasks: readonly Task[], kindOf: (skillId: string) => SkillUsage['kind']): SkillUsage[] {
  const usage = new Map<string, { tasks: number; runs: number }>();
  for (const t of tasks) {
    for (const [skillId, runs] of t.skills) {
      const u = usage.get(skillId) ?? { tasks: 0, runs: 0 };
      u.tasks++;
      u.runs += runs;
      usage.set(skillId, u);
    }
  }
  return [...usage.entries()]
    .map(([skillId, u]) => ({ skillId, kind: kindOf(skillId), tasks: u.tasks, runs: u.runs }))
    .sort((a, b) => b.tasks - a.tasks || b.runs - a.runs || a.skillId.localeCompare(b.skillId));
}
