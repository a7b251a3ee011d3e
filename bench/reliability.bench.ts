/**
 * Skill reliability on real applications, after the CUA-Skill paper's table: tasks synthesized
 * by walks on the composition graph (2 to 8 skills, data flowing between them, src/shared/skill/
 * synthesis), each run in isolation on the test desktop (the apps ended and their settings,
 * sessions and recovery files removed, the task's folder made afresh) through the node core (real
 * mediator, SQLite journal), and checked programmatically (file bytes, folders, the clipboard, a
 * window title, an image's size, what a step returned). Reported per app (skills, primitives per
 * skill, tasks, success rate, median seconds), per skill (what the Library shows), with each
 * failure's skill, node and screenshot; as JSON, a Markdown table and an SVG chart.
 *
 * `npm run bench -- reliability`. Environment:
 * - BENCH_TASKS (default 300), BENCH_SEED (default 1), BENCH_APPS (comma-separated; default the
 *   live apps below);
 * - BENCH_DIRTY=1: before each task, the same task runs half way and its apps are killed, leaving
 *   their recovery files: the score must not change (interruption handling is measured);
 * - BENCH_AGENT=1: the same tasks' instructions go to the agent (the offline planner: it plans
 *   from the words alone) instead of their skills; the same checks measure end-to-end success,
 *   apart from skill success, as the CUA-Skill paper separates them;
 * - BENCH_FRESH=1: start over instead of resuming the run of the same seed, count and apps.
 * Results: bench/results/reliability.{json,md,svg}; the run's task results (one JSON line each,
 * so an interrupted run resumes) and each failure (task JSON, outcome, screenshot) under
 * bench/results/reliability-run-<seed>-<count>[-dirty]/. `skilldesk synthesize --replay ID` runs
 * a failed task again.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createNodeCore } from '../src/main/core/createNodeCore';
import { composeAgent } from '../src/main/core/agent';
import type { Core } from '../src/main/core/Core';
import type { Agent } from '../src/main/services/agent';
import { describeCheck, prepareTaskFolder, resetApps, TaskChecker, TaskRunner, type TaskOutcome } from '../src/main/services/synthesis';
import { primitiveCount, synthesizeTasks, type SkillLibrary, type SynthesizedTask } from '../src/shared/skill';
import { markdownTable, reliabilityReport, successChart, type AppSkills, type TaskResult } from './reliabilityReport';

/** The apps with live twins on the test desktop whose skills tasks can be synthesized for. */
export const LIVE_APPS = [
  'mousepad',
  'wine-notepad',
  'geany',
  'gnome-calculator',
  'qalculate-gtk',
  'pcmanfm',
  'thunar',
  'xterm',
  'libreoffice-calc',
  'libreoffice-writer',
  'kolourpaint',
  'chromium',
  'vlc',
  'xarchiver',
];

const COUNT = Number(process.env.BENCH_TASKS ?? 300);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const APPS = process.env.BENCH_APPS ? process.env.BENCH_APPS.split(',').filter(Boolean) : LIVE_APPS;
const DIRTY = process.env.BENCH_DIRTY === '1';
const AGENT = process.env.BENCH_AGENT === '1';
const ROOT = resolve(__dirname, 'results');
const TASK_ROOT = join(tmpdir(), 'skilldesk-bench-tasks');

/** A digest of the skill files: a run resumes only on the library it started with. */
function libraryDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else hash.update(p).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 16);
}

function appSkills(library: SkillLibrary, apps: readonly string[]): Record<string, AppSkills> {
  return Object.fromEntries(
    apps.map((app) => {
      const own = [...library.skills.values()].filter((s) => s.app === app);
      return [app, { skills: own.length, primitives: own.map(primitiveCount) }];
    }),
  );
}

/** One line per task on stderr: where the run is, how it goes, how long it has left. */
function progress(done: number, total: number, r: TaskResult, results: readonly TaskResult[], started: number, ran: number): void {
  const ok = results.filter((x) => x.ok).length;
  const width = 24;
  const filled = Math.round((width * done) / total);
  const perTask = ran ? (Date.now() - started) / ran : 0;
  const eta = Math.round(((total - done) * perTask) / 60_000);
  process.stderr.write(
    `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${r.ok ? 'ok  ' : 'FAIL'} ${r.id} ${r.app} ${(r.ms / 1000).toFixed(1)}s` +
      ` | ${ok} ok, ${results.length - ok} failed | eta ${eta} min${r.ok ? '' : `\n    ${r.failure?.skill} @ ${r.failure?.node ?? '-'}: ${r.failure?.message.slice(0, 300)}`}\n`,
  );
}

async function main() {
  if (!process.env.DISPLAY)
    throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first, or use `npm run bench -- reliability`');
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-bench-reliability-'));
  // The benchmark's operator answers for the user: what the policy asks about is allowed once.
  const core = await createNodeCore({ dataDir, interactive: false, prompter: { ask: async () => ({ answer: 'allow_once', by: 'user' }) } });
  try {
    const { library } = await core.loadLibrary();
    const { tasks, space } = synthesizeTasks(library, { apps: APPS, count: COUNT, seed: SEED, tempDir: TASK_ROOT });
    const mode = `${DIRTY ? '-dirty' : ''}${AGENT ? '-agent' : ''}`;
    const runDir = join(ROOT, `reliability-run-${SEED}-${COUNT}${mode}`);
    const meta = {
      seed: SEED,
      count: COUNT,
      apps: APPS,
      dirty: DIRTY,
      agent: AGENT,
      library: libraryDigest(resolve(__dirname, '../skills')),
    };
    const metaFile = join(runDir, 'meta.json');
    if (process.env.BENCH_FRESH === '1' || !existsSync(metaFile) || readFileSync(metaFile, 'utf8') !== JSON.stringify(meta)) {
      rmSync(runDir, { recursive: true, force: true });
      mkdirSync(join(runDir, 'failures'), { recursive: true });
      writeFileSync(metaFile, JSON.stringify(meta));
    }
    const resultsFile = join(runDir, 'results.jsonl');
    const results: TaskResult[] = existsSync(resultsFile)
      ? readFileSync(resultsFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as TaskResult)
      : [];
    const done = new Set(results.map((r) => r.id));
    if (done.size) process.stderr.write(`reliability: resuming ${runDir}: ${done.size} of ${tasks.length} tasks done\n`);
    const runner = new TaskRunner(core, library);
    const agent = AGENT ? (await composeAgent(core, { overrides: { offline: true } })).agent : undefined;
    const started = Date.now();
    let ran = 0;
    for (const task of tasks) {
      if (done.has(task.id)) continue;
      resetApps(library, APPS, { keepState: DIRTY });
      if (DIRTY) {
        // The same task, killed half way: its apps' recovery files and half-done work stay behind.
        await runner.run(task, { steps: Math.ceil(task.steps.length / 2) });
        resetApps(library, task.apps, { keepState: true });
      }
      const outcome = agent ? await agentOutcome(task, agent, core, library) : await runner.run(task);
      const result = resultOf(task, outcome);
      if (!outcome.ok) keepFailure(runDir, task, outcome, result);
      appendFileSync(resultsFile, `${JSON.stringify(result)}\n`);
      results.push(result);
      ran += 1;
      progress(results.length, tasks.length, result, results, started, ran);
    }
    resetApps(library, APPS, { keepState: DIRTY });
    const report = reliabilityReport(results, appSkills(library, APPS));
    const title = `${AGENT ? 'Agent (offline planner) success' : 'Skill reliability'}: ${report.overall.tasks} synthesized tasks, seed ${SEED}${DIRTY ? ', after a killed run' : ''}`;
    const suffix = mode;
    writeFileSync(join(ROOT, `reliability${suffix}.md`), markdownTable(report));
    writeFileSync(join(ROOT, `reliability${suffix}.svg`), successChart(report, title));
    console.log(
      JSON.stringify(
        {
          benchmark: 'reliability',
          date: new Date().toISOString(),
          seed: SEED,
          tasksAsked: COUNT,
          dirty: DIRTY,
          agent: AGENT,
          space,
          ...report,
        },
        null,
        2,
      ),
    );
  } finally {
    core.close();
  }
  process.exit(0);
}

/**
 * The task reached through the agent: its instruction alone, planned by the offline planner (from
 * the words, with no access to the task's steps), then the task's own checks. What steps return is
 * compared in the order the agent ran them.
 */
async function agentOutcome(task: SynthesizedTask, agent: Agent, core: Core, library: SkillLibrary): Promise<TaskOutcome> {
  const started = performance.now();
  await prepareTaskFolder(task);
  const report = await agent.run(task.instruction, { maxSteps: task.steps.length + 4 });
  const runs = report.steps.flatMap((s) => (s.run ? [s.run] : []));
  const checks = await new TaskChecker(await core.desktop(), library).check(task.check, runs);
  const failedRun = report.steps.find((s) => s.run && s.run.status !== 'succeeded')?.run;
  const failedCheck = checks.find((c) => !c.ok);
  const failure =
    report.outcome !== 'finished'
      ? { step: report.steps.length, skill: failedRun?.skillId ?? '(agent)', message: `${report.outcome}: ${report.message}` }
      : failedCheck
        ? {
            step: task.steps.length,
            skill: '(check)',
            message: `${describeCheck(failedCheck)} failed: found ${failedCheck.found ?? 'nothing'}`,
          }
        : undefined;
  return {
    id: task.id,
    ok: !failure,
    ms: Math.round(performance.now() - started),
    steps: runs.map((r) => ({ skill: r.skillId, app: r.app ?? '', runId: r.runId, status: r.status, ms: r.endedAt - r.startedAt })),
    checks,
    ...(failure && { failure }),
  };
}

function resultOf(task: SynthesizedTask, outcome: TaskOutcome): TaskResult {
  return {
    id: task.id,
    app: task.apps[0]!,
    apps: task.apps,
    instruction: task.instruction,
    steps: task.steps.length,
    skills: task.skills,
    ok: outcome.ok,
    ms: outcome.ms,
    ...(outcome.failure && { failure: outcome.failure }),
  };
}

/** A failed task stays reproducible: its JSON (for `synthesize --replay`), how it went, its screenshot. */
function keepFailure(runDir: string, task: SynthesizedTask, outcome: TaskOutcome, result: TaskResult): void {
  const dir = join(runDir, 'failures');
  const shot = outcome.failure?.screenshot;
  if (shot && existsSync(shot)) {
    const kept = join(dir, `${task.id}.png`);
    copyFileSync(shot, kept);
    result.failure!.screenshot = kept;
  }
  writeFileSync(join(dir, `${task.id}.json`), JSON.stringify({ task, outcome }, null, 2));
}

if (process.argv[1]?.endsWith('reliability.bench.ts')) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
