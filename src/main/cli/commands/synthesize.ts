import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { SynthesizedTaskSchema, synthesizeTasks, type SkillLibrary, type SynthesizedTask } from '../../../shared/skill';
import { packageRoot } from '../../core/paths';
import { describeCheck, liveDesktopApps, resetApps, TaskRunner } from '../../services/synthesis';
import type { CliContext } from '../context';

interface SynthesizeOptions {
  count: string;
  seed: string;
  app?: string[];
  minSteps: string;
  maxSteps: string;
  dir?: string;
  json?: boolean;
  replay?: string;
  taskFile?: string;
  fresh?: boolean;
}

const positiveInt = (name: string, v: string, min = 0) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new SkillDeskError('cli.bad_option', `Expected \`${name}\` to be an integer >= ${min}, got \`${v}\``);
  return n;
};

/** `synthesize`: tasks from walks on the composition graph, kept so each can be replayed; `--replay ID` runs one. */
export function registerSynthesizeCommand(program: Command, ctx: CliContext): void {
  program
    .command('synthesize')
    .description(
      'Synthesize multi-step tasks by walks on the composition graph (2 to 8 skills, data flowing between them), each with an instruction and a programmatic check; deterministic per seed',
    )
    .option('--count <n>', 'how many tasks', '10')
    .option('--seed <s>', 'the seed: the same seed gives the same tasks', '1')
    .option('--app <app...>', 'apps tasks may use (default: those verified live on this platform)')
    .option('--min-steps <n>', 'fewest skills per task', '2')
    .option('--max-steps <n>', 'most skills per task', '8')
    .option('--dir <folder>', "where the tasks' folders go (default: the system's temp folder)")
    .option('--json', 'print JSON: the tasks and what the graph can make')
    .option('--replay <id>', 'run a kept task again (an id like s1-0042), from a clean start of its apps when --fresh')
    .option('--task-file <file>', 'with --replay: the task JSON to run (else the kept one: data folder, then the benchmark failures)')
    .option('--fresh', "with --replay on the test desktop: end the task's apps and remove their settings first")
    .addHelpText(
      'after',
      `
Each task is kept as <data-dir>/tasks/<id>.json. Its check reads files, folders, the clipboard,
window titles and what steps return; --replay runs the task's steps through the same mediator as
\`skilldesk run\` (sensitive steps ask you) and prints each check's verdict.

Examples:
  $ skilldesk synthesize --count 5 --seed 7
  $ skilldesk synthesize --count 300 --app mousepad --app geany --json | jq '.tasks[0].instruction'
  $ skilldesk synthesize --replay s1-0042 --fresh`,
    )
    .action(async (o: SynthesizeOptions) => {
      if (o.replay) return replay(ctx, o);
      const { library } = await ctx.loadLibrary();
      const apps = o.app?.flatMap((a) => a.split(',')).filter(Boolean) ?? liveDesktopApps(library);
      for (const app of apps)
        if (!library.apps.has(app))
          throw new SkillDeskError('cli.unknown_app', `No app \`${app}\`; known apps: ${[...library.apps.keys()].join(', ')}`);
      const { tasks, space } = synthesizeTasks(library, {
        apps,
        count: positiveInt('--count', o.count),
        seed: positiveInt('--seed', o.seed),
        minSteps: positiveInt('--min-steps', o.minSteps, 1),
        maxSteps: positiveInt('--max-steps', o.maxSteps, 1),
        tempDir: o.dir ?? join(tmpdir(), 'skilldesk-tasks'),
      });
      const kept = join(ctx.dataDir(), 'tasks');
      await mkdir(kept, { recursive: true });
      for (const t of tasks) await writeFile(join(kept, `${t.id}.json`), JSON.stringify(t, null, 2));
      if (o.json) return ctx.out(JSON.stringify({ space, tasks }, null, 2));
      for (const t of tasks) {
        ctx.out(`${t.id}  [${t.apps.join(', ')}]  ${t.steps.length} skills, ${t.primitives} primitives`);
        ctx.out(`  ${t.instruction}`);
        ctx.out(`  check: ${t.check.map((c) => describeCheck({ check: c, ok: true })).join('; ')}`);
      }
      ctx.out(
        `\n${tasks.length} tasks on ${apps.length} apps. The graph links ${space.nodes} skills by ${space.mayFollow} may-follow edges: ${space.walks} skill sequences of 2 to 8 steps (arguments aside). Kept in ${kept}.`,
      );
    });
}

/** The kept task: --task-file, the data folder's copy, a benchmark failure, or regenerated from its id. */
function findTask(ctx: CliContext, library: SkillLibrary, id: string, file?: string): SynthesizedTask {
  const candidates = file ? [file] : [join(ctx.dataDir(), 'tasks', `${id}.json`), ...benchmarkFailures(id)];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { task?: unknown };
    const parsed = SynthesizedTaskSchema.safeParse(raw.task ?? raw);
    if (!parsed.success)
      throw new SkillDeskError('synthesize.bad_task', `${path} is not a synthesized task: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }
  if (file) throw new SkillDeskError('synthesize.not_found', `No task file ${file}`);
  const m = /^s(\d+)-(\d+)$/.exec(id);
  if (!m) throw new SkillDeskError('synthesize.not_found', `No kept task \`${id}\`; a task id looks like s1-0042`);
  const [seed, index] = [Number(m[1]), Number(m[2])];
  const task = synthesizeTasks(library, {
    apps: liveDesktopApps(library),
    count: index + 1,
    seed,
    tempDir: join(tmpdir(), 'skilldesk-tasks'),
  }).tasks.find((t) => t.id === id);
  if (!task) throw new SkillDeskError('synthesize.not_found', `Task \`${id}\` is not kept, and seed ${seed} makes no task at ${index}`);
  return task;
}

function benchmarkFailures(id: string): string[] {
  const results = join(packageRoot(), 'bench', 'results');
  if (!existsSync(results)) return [];
  return readdirSync(results)
    .filter((d) => d.startsWith('reliability-run-'))
    .map((d) => join(results, d, 'failures', `${id}.json`));
}

async function replay(ctx: CliContext, o: SynthesizeOptions): Promise<void> {
  const { library } = await ctx.loadLibrary();
  const task = findTask(ctx, library, o.replay!, o.taskFile);
  if (o.fresh) resetApps(library, task.apps);
  const core = await ctx.core();
  const outcome = await new TaskRunner(core, library).run(task);
  if (o.json) ctx.out(JSON.stringify({ task, outcome }, null, 2));
  else {
    ctx.out(`${task.id}: ${task.instruction}`);
    for (const s of outcome.steps) ctx.out(`  ${s.status.padEnd(9)} ${s.skill} on ${s.app} (${s.ms} ms, run ${s.runId})`);
    for (const c of outcome.checks)
      ctx.out(`  ${c.ok ? 'ok  ' : 'FAIL'}      ${describeCheck(c)}${c.ok ? '' : `: found ${c.found ?? 'nothing'}`}`);
    ctx.out(
      outcome.ok
        ? `passed in ${outcome.ms} ms`
        : `failed: ${outcome.failure?.skill} at ${outcome.failure?.node ?? '-'}: ${outcome.failure?.message}`,
    );
  }
  if (!outcome.ok) ctx.setExitCode(1);
}
