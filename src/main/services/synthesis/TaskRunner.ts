import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Desktop } from '../../../shared/ports/desktop';
import type { RunResult } from '../../../shared/run';
import type { SkillLibrary, SynthesizedTask } from '../../../shared/skill';
import type { RunRequest } from '../executor';
import { TaskChecker, type CheckVerdict } from './TaskChecker';

/** What a task runner needs of the core: running a skill, and the desktop the checks read. */
export interface TaskRunnerCore {
  runSkill(request: RunRequest): Promise<RunResult>;
  desktop(): Promise<Desktop>;
}

/** A failed task's failing step: which skill, which node of its graph, why, and its screenshot. */
export interface TaskFailure {
  step: number;
  skill: string;
  node?: string;
  message: string;
  screenshot?: string;
}

/** How one task went: each step's run, each check's verdict, and the failure when there is one. */
export interface TaskOutcome {
  id: string;
  ok: boolean;
  ms: number;
  steps: { skill: string; app: string; runId: string; status: string; ms: number }[];
  checks: CheckVerdict[];
  failure?: TaskFailure;
}

/** Makes the task's folder afresh: empty, then its starting files and folders. */
export async function prepareTaskFolder(task: SynthesizedTask): Promise<void> {
  await rm(task.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  await mkdir(task.dir, { recursive: true });
  for (const folder of task.setup.folders) await mkdir(folder, { recursive: true });
  for (const [path, file] of Object.entries(task.setup.files)) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, 'text' in file ? file.text : Buffer.from(file.base64, 'base64'));
  }
}

/**
 * Runs a synthesized task as a user's commands would (each step through the core: mediated,
 * journaled), from its folder made afresh, stopping at the first step that fails, then checks its
 * end state. Which apps are running before it is the caller's business (AppIsolation).
 */
export class TaskRunner {
  constructor(
    private readonly core: TaskRunnerCore,
    private readonly library: SkillLibrary,
  ) {}

  async run(task: SynthesizedTask, o: { signal?: AbortSignal; steps?: number } = {}): Promise<TaskOutcome> {
    const started = performance.now();
    await prepareTaskFolder(task);
    const runs: RunResult[] = [];
    const steps: TaskOutcome['steps'] = [];
    let failure: TaskFailure | undefined;
    for (const [i, step] of task.steps.slice(0, o.steps ?? task.steps.length).entries()) {
      const t = performance.now();
      const r = await this.core.runSkill({ skill: step.skill, app: step.app, args: step.args, ...(o.signal && { signal: o.signal }) });
      runs.push(r);
      steps.push({ skill: step.skill, app: step.app, runId: r.runId, status: r.status, ms: Math.round(performance.now() - t) });
      if (r.status !== 'succeeded') {
        failure = failureOf(i, step.skill, r);
        break;
      }
    }
    const checks =
      failure || o.steps !== undefined ? [] : await new TaskChecker(await this.core.desktop(), this.library).check(task.check, runs);
    const failed = checks.find((c) => !c.ok);
    if (!failure && failed)
      failure = {
        step: task.steps.length,
        skill: '(check)',
        message: `${describeCheck(failed)} failed: found ${failed.found ?? 'nothing'}`,
      };
    return { id: task.id, ok: !failure, ms: Math.round(performance.now() - started), steps, checks, ...(failure && { failure }) };
  }
}

/** The step of a run that ended it: its skill (a callee's, when the failure was inside one) and node. */
function failureOf(step: number, asked: string, r: RunResult): TaskFailure {
  const last = [...r.steps].reverse().find((s) => s.outcome === 'failed' || s.outcome === 'denied');
  return {
    step,
    skill: last?.skillId ?? asked,
    ...(last && { node: last.nodeId }),
    message: r.error?.message ?? r.status,
    ...(last?.screenshotPath && { screenshot: last.screenshotPath }),
  };
}

export function describeCheck(c: CheckVerdict): string {
  const k = c.check;
  switch (k.kind) {
    case 'file':
    case 'folder':
      return `${k.kind} ${k.path} ${k.present ? 'present' : 'absent'}`;
    case 'file_text':
      return `${k.path} holds ${JSON.stringify(k.equals.slice(0, 80))}`;
    case 'clipboard':
      return `clipboard holds ${JSON.stringify(k.equals.slice(0, 80))}`;
    case 'window_title':
      return `a ${k.app} window titled *${k.contains}*`;
    case 'image_size':
      return `${k.path} is ${k.width}x${k.height}`;
    case 'registry':
      return `${k.key}\\${k.name} = ${k.equals}`;
    case 'result':
      return `step ${k.step + 1} returned ${JSON.stringify(k.equals)}`;
  }
}
