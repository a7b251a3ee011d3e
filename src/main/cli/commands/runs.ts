import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { formatTime, table } from '../output';
import type { CliContext } from '../context';

/** `runs list|show`: the trajectories recorded in the store. */
export function registerRunsCommands(program: Command, ctx: CliContext): void {
  const runs = program.command('runs').description('Inspect recorded runs and their trajectories');

  runs
    .command('list')
    .description('List recent runs, newest first')
    .option('--limit <n>', 'how many', (v) => positiveInt('--limit', v), 20)
    .option('--skill <id>', 'only runs of this skill')
    .option('--status <status>', 'running, succeeded, failed or aborted')
    .option('--json', 'print JSON')
    .action(async (o: { limit: number; skill?: string; status?: string; json?: boolean }) => {
      const core = await ctx.core();
      const list = core.listRuns({ limit: o.limit, ...(o.skill && { skill: o.skill }), ...(o.status && { status: o.status }) });
      if (o.json) return ctx.out(JSON.stringify(list, null, 2));
      if (list.length === 0) return ctx.out('No runs recorded yet. Try `skilldesk run --help`.');
      ctx.out(
        table(
          ['RUN', 'STARTED', 'SKILL', 'APP', 'STATUS', 'MS'],
          list.map((r) => [
            r.id,
            formatTime(r.startedAt),
            r.skillId,
            r.app ?? '-',
            `${r.status}${r.dryRun ? ' (dry)' : ''}`,
            r.endedAt ? String(r.endedAt - r.startedAt) : '-',
          ]),
        ),
      );
    });

  runs
    .command('show')
    .description('Show one run with its trajectory (every step, its resolved arguments and outcome)')
    .argument('<id>', 'run id (a unique prefix is enough)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const core = await ctx.core();
      const run = core.getRun(id);
      if (!run) throw new SkillDeskError('runs.not_found', `No run \`${id}\`; \`skilldesk runs list\` shows recent ones`);
      if (o.json) return ctx.out(JSON.stringify(run, null, 2));
      const lines = [
        `run ${run.id}`,
        `skill   ${run.skillId}${run.app ? ` on ${run.app}` : ''}${run.dryRun ? ' (dry run)' : ''}`,
        `status  ${run.status}${run.error ? `: ${run.error.message}` : ''}`,
        `started ${formatTime(run.startedAt)}, ${run.endedAt ? `${run.endedAt - run.startedAt} ms` : 'not finished'}`,
        `args    ${JSON.stringify(run.args)}`,
        ...(run.result !== undefined && run.result !== null ? [`result  ${JSON.stringify(run.result)}`] : []),
        '',
        'trajectory:',
        ...run.steps.map((s) => {
          const args = JSON.stringify(s.resolved, (k, v) => (k === 'action' ? undefined : v));
          return `${'  '.repeat(s.depth + 1)}${String(s.seq).padStart(3)} ${s.outcome.padEnd(7)} ${s.skillId}#${s.nodeId} ${s.primitive} ${args === '{}' ? '' : args.slice(0, 120)} (${s.endedAt === undefined ? 'running' : `${s.endedAt - s.startedAt} ms`})${s.error ? ` - ${s.error}` : ''}${s.screenshotPath ? ` [${s.screenshotPath}]` : ''}`;
        }),
      ];
      ctx.out(lines.join('\n'));
    });
}

function positiveInt(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0)
    throw new SkillDeskError('cli.bad_option', `Expected \`${name}\` to be a positive integer, got \`${v}\``);
  return n;
}
