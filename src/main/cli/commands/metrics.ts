import type { Command } from 'commander';
import type { MetricsView, Share, TaskFigures } from '../../../shared/metrics';
import { coreMetrics } from '../../core/metrics';
import type { CliContext } from '../context';
import { formatTime, table } from '../output';
import { parseTime } from './audit';

/** Skills listed by the text output; `--json` has them all. */
const TOP_SKILLS = 10;

/** `metrics`: success, steps, reusability, coverage and compositionality of the recorded runs. */
export function registerMetricsCommand(program: Command, ctx: CliContext): void {
  program
    .command('metrics')
    .description('Measure the skills from the recorded runs: success rate, steps, reusability, task coverage, compositionality')
    .option(
      '--since <time>',
      'only tasks started since an ISO date or time, an age like 24h or 7d, or epoch ms (default: every recorded task)',
      (v) => parseTime(v),
    )
    .option('--json', 'print every figure as JSON, with the usage of every skill')
    .addHelpText(
      'after',
      `
A task is an agent goal (with the skill runs it started) or a skill run you started yourself;
dry runs and tasks still running are left out. docs/metrics.md defines every figure.

Examples:
  $ skilldesk metrics
  $ skilldesk metrics --since 7d
  $ skilldesk metrics --since 2026-11-01 --json | jq .tasks.goals.success`,
    )
    .action(async (o: { since?: number; json?: boolean }) => {
      const view = await coreMetrics(await ctx.core(), o.since === undefined ? {} : { since: o.since });
      ctx.out(o.json ? JSON.stringify(view, null, 2) : formatMetrics(view));
    });
}

/** `57% (4/7)`, or `-` when there is nothing to measure. */
function percent(s: Share): string {
  return s.rate === null ? '-' : `${Math.round(s.rate * 100)}% (${s.count}/${s.of})`;
}

function steps(f: TaskFigures): string {
  const { mean, median } = f.stepsOnSuccess;
  return mean === null || median === null ? '-' : `${Number(mean.toFixed(1))} / ${median}`;
}

/** The figures as the terminal shows them: the five figures, then per app and the most used skills. */
export function formatMetrics(view: MetricsView): string {
  const { goals, direct, all } = view.tasks;
  const groups = [goals, direct, all];
  const row = (label: string, cell: (f: TaskFigures) => string) => [label, ...groups.map(cell)];
  const since = view.window.since === null ? 'every recorded task' : `tasks since ${formatTime(view.window.since)}`;
  const { skills: calls, tasks: composed } = view.compositionality;
  const lines = [
    `Skill metrics: ${since}, as of ${formatTime(view.window.until)} (docs/metrics.md defines them)`,
    `Left out: ${view.excluded.dryRun} dry run${view.excluded.dryRun === 1 ? '' : 's'}, ${view.excluded.running} still running.`,
    '',
    table(
      ['FIGURE', 'AGENT GOALS', 'DIRECT RUNS', 'ALL TASKS'],
      [
        row('tasks', (f) => String(f.tasks)),
        row('success rate', (f) => percent(f.success)),
        row('steps per success (mean / median)', steps),
        row('task coverage', (f) => percent(f.coverage)),
        row('tasks with 2+ library skills', (f) => percent(f.multiSkill)),
      ],
    ),
    '',
    `skill reusability   ${percent(view.reusability)} of the library's skills (fallbacks apart) ran in a task`,
    `compositionality    ${percent(calls)} of the call nodes of ${calls.skills} composites and user skills call another library skill`,
    `                    ${percent(composed)} of tasks ran two or more library skills`,
  ];
  if (view.byApp.length > 0) {
    lines.push(
      '',
      table(
        ['APP', 'TASKS', 'SUCCESS'],
        view.byApp.map((a) => [a.app ?? '(no app)', String(a.tasks), percent(a.success)]),
      ),
    );
  }
  if (view.bySkill.length > 0) {
    lines.push(
      '',
      table(
        ['SKILL', 'KIND', 'TASKS', 'RUNS'],
        view.bySkill.slice(0, TOP_SKILLS).map((s) => [s.skillId, s.kind, String(s.tasks), String(s.runs)]),
      ),
    );
    if (view.bySkill.length > TOP_SKILLS) lines.push(`(the ${TOP_SKILLS} most used of ${view.bySkill.length}; --json lists them all)`);
  }
  if (all.tasks === 0) lines.push('', 'No finished task in this window yet: run a skill or give the agent a goal, then measure again.');
  return lines.join('\n');
}
