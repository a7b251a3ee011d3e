import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { Option, type Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { missingMethods } from '../../../shared/learning/blueprint';
import { TrajectorySchema, type Trajectory } from '../../../shared/learning/trajectory';
import type { ArgValues } from '../../../shared/skill';
import type { Core } from '../../core/Core';
import { coreInducer } from '../../core/induction';
import { recordDemonstration, showBrowserForDemonstration } from '../../core/learning';
import type { CliContext } from '../context';
import { parseArgPairs } from './run';

interface RecordOptions {
  app: string;
  method?: string;
  arg: string[];
  argsJson?: string;
  start?: string;
  out?: string;
}

/** `record` and `induce`: demonstrations become trajectories, trajectories become verified skills. */
export function registerLearnCommands(program: Command, ctx: CliContext): void {
  program
    .command('record')
    .description(
      "Record a demonstration: in SkillDesk's browser for a website (each element's role and label), or on the desktop for an app (keys and clicks through a global input hook, with the window in front); what you do becomes a trajectory of steps; press Enter here when you are done",
    )
    .requiredOption('--app <app>', 'the app or website to demonstrate on')
    .option('--method <Interface.method>', 'what the demonstration does, e.g. ShoppingSite.search_product')
    .addOption(
      new Option('--arg <name=value...>', "the values you use for the method's arguments (they become its parameters)").default([]),
    )
    .option('--args-json <json>', 'all argument values as one JSON object')
    .option('--start <path>', 'where the page starts (a path of the site, opened before recording: the state the method starts from)')
    .option('--out <file>', 'write the trajectory here (default: print it)')
    .addHelpText(
      'after',
      `
The browser opens on the site (set SKILLDESK_BROWSER_HEADED=0 to keep it hidden). While you
record, the page may reach its own site only. Feed the trajectory to \`skilldesk induce --from\`.

Examples:
  $ skilldesk record --app shop-b --method ShoppingSite.search_product --arg query=mug --out search.json
  $ skilldesk record --app shop-b --method ShoppingSite.open_product --arg 'name=Enamel Camp Mug' --start /find/mug`,
    )
    .action(async (o: RecordOptions) => {
      showBrowserForDemonstration();
      const core = await ctx.core();
      const t = await record(core, o, async () => {
        ctx.err('Recording: do the task in the browser, then press Enter here.');
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        await rl.question('');
        rl.close();
      });
      const text = JSON.stringify(t, null, 2);
      if (o.out) {
        await writeFile(o.out, text);
        ctx.out(`${t.steps.length} steps recorded in ${o.out}`);
      } else ctx.out(text);
    });

  program
    .command('induce')
    .description(
      'Learn a skill from a trajectory: its signature first (added to the interface when missing), then the implementation, admitted only once re-execution on the recorded and fresh arguments verifies it; or list what an app still lacks (--list)',
    )
    .requiredOption('--app <app>', 'the app or website the skill is for')
    .option('--list', 'the blueprint: the methods of its interfaces nothing implements on it yet, the goals to demonstrate')
    .option('--method <Interface.method>', 'the method the trajectory does (default: the one it was recorded for)')
    .option('--from <file>', 'a trajectory from `skilldesk record` (without it, you demonstrate now)')
    .addOption(new Option('--arg <name=value...>', 'argument values, for a demonstration now').default([]))
    .option('--args-json <json>', 'all argument values as one JSON object')
    .option('--start <path>', 'for a demonstration now: where the page starts')
    .option('--sample-json <json>', 'fresh arguments to verify with (a JSON array of objects); default: two drawn from the domains')
    .option('--json', 'print the induction report as JSON')
    .addHelpText(
      'after',
      `
Induced skills are ordinary files in your skill folder, with community trust and a manifest
derived from what they do; each report (admitted, or rejected with its reason) is kept in
<data-dir>/induction/.

Examples:
  $ skilldesk induce --app shop-b --list
  $ skilldesk induce --app shop-b --from search.json --sample-json '[{"query":"candle"}]'
  $ skilldesk induce --app shop-b --method ShoppingSite.view_cart --start /`,
    )
    .action(async (o: RecordOptions & { list?: boolean; from?: string; sampleJson?: string; json?: boolean }) => {
      if (!o.list && !o.from) showBrowserForDemonstration();
      const core = await ctx.core();
      const { library } = await core.loadLibrary();
      if (!library.apps.has(o.app))
        throw new SkillDeskError('cli.unknown_app', `No app \`${o.app}\`; known apps: ${[...library.apps.keys()].join(', ')}`);
      if (o.list) {
        const missing = missingMethods(library, o.app);
        if (o.json) return ctx.out(JSON.stringify(missing, null, 2));
        if (!missing.length) return ctx.out(`${o.app} implements every method of its interfaces.`);
        ctx.out(`${o.app} lacks ${missing.length} method(s) of its interfaces; demonstrate them to learn them:`);
        for (const m of missing) ctx.out(`  ${m.interface}.${m.method}(${m.args.join(', ')})  ${m.description}`);
        return;
      }
      let t: Trajectory;
      if (o.from) {
        const parsed = TrajectorySchema.safeParse(JSON.parse(await readFile(o.from, 'utf8')));
        if (!parsed.success)
          throw new SkillDeskError('induce.bad_trajectory', `${o.from} is not a trajectory: ${parsed.error.issues[0]?.message}`);
        t = parsed.data;
      } else {
        t = await record(core, o, async () => {
          ctx.err('Demonstrate the method in the browser, then press Enter here.');
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          await rl.question('');
          rl.close();
        });
      }
      const method = o.method ?? t.method;
      if (!method) throw new SkillDeskError('cli.bad_option', 'Say which method the trajectory does: --method Interface.method');
      const samples = o.sampleJson ? (JSON.parse(o.sampleJson) as ArgValues[]) : undefined;
      const inducer = coreInducer(core);
      const report = await inducer.induce({ trajectory: t, method, ...(samples && { samples }) });
      const file = await inducer.keep(report);
      if (o.json) ctx.out(JSON.stringify(report, null, 2));
      else {
        ctx.out(
          `${report.status === 'admitted' ? 'Admitted' : 'Rejected'}: ${method} on ${o.app}${report.skillId ? ` as ${report.skillId}` : ''}`,
        );
        if (report.signatureAdded) ctx.out(`  the interface got the method (signature first)`);
        for (const r of report.runs)
          ctx.out(`  ${r.ok ? 'ok  ' : 'FAIL'} re-executed on ${JSON.stringify(r.args)}${r.why ? `: ${r.why}` : ''}`);
        if (report.reason) ctx.out(`  why: ${report.reason}`);
        ctx.out(`  report: ${file}`);
      }
      if (report.status !== 'admitted') ctx.setExitCode(1);
    });
}

/** A demonstration now, on a website or a desktop app; `done` resolves when the person is done. */
function record(core: Core, o: RecordOptions, done: () => Promise<void>): Promise<Trajectory> {
  return recordDemonstration(
    core,
    { app: o.app, args: parseArgPairs(o.arg, o.argsJson), ...(o.method && { method: o.method }), ...(o.start && { start: o.start }) },
    done,
  );
}
