import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import type { RunEvent, RunResult } from '../../services/executor';
import { withSigintAbort } from '../abort';
import type { CliContext } from '../context';

/** Parses repeated `--arg k=v` (a value `@file` reads the file, `@@x` is a literal `@x`). */
export function parseArgPairs(pairs: readonly string[], argsJson?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (argsJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(argsJson);
    } catch (err) {
      throw new SkillDeskError('cli.bad_args_json', `--args-json is not valid JSON: ${(err as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new SkillDeskError('cli.bad_args_json', 'Expected --args-json to be a JSON object such as {"path": "/tmp/a.txt"}');
    }
    // Own properties only: a `__proto__` key must not reach the prototype of the arguments.
    for (const [name, value] of Object.entries(parsed)) defineArg(out, name, value);
  }
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new SkillDeskError('cli.bad_arg', `Expected --arg as name=value, got \`${pair}\``);
    const name = pair.slice(0, eq);
    let value = pair.slice(eq + 1);
    if (value.startsWith('@@')) value = value.slice(1);
    else if (value.startsWith('@')) value = readArgFile(name, value.slice(1));
    defineArg(out, name, value);
  }
  return out;
}

/** Sets an argument as a plain own property, whatever its name (`__proto__` included: it is then refused by the skill's schema). */
function defineArg(out: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
}

function readArgFile(name: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new SkillDeskError(
      'cli.bad_arg',
      `Cannot read \`${file}\` for --arg ${name}=@${file}: ${reason} (write @@ for a value that starts with @)`,
    );
  }
}

/** One line per finished step, for watching a run in a terminal. */
export function describeEvent(e: RunEvent): string | undefined {
  switch (e.type) {
    case 'run_started':
      return `run ${e.runId} ${e.skillId}${e.app ? ` on ${e.app}` : ''}`;
    case 'step_finished': {
      const s = e.step;
      const detail = JSON.stringify(s.resolved, (k, v) => (k === 'action' ? undefined : v));
      const mark = s.outcome === 'ok' ? 'ok' : s.outcome.toUpperCase();
      return `${'  '.repeat(s.depth + 1)}${String(s.seq).padStart(3)} ${mark.padEnd(7)} ${s.skillId}#${s.nodeId} ${s.primitive} ${detail.length > 2 ? detail.slice(0, 100) : ''} (${s.endedAt - s.startedAt} ms)${s.error ? `\n${'  '.repeat(s.depth + 3)}${s.error}` : ''}`;
    }
    case 'backtrack':
      return `      trying alternative ${e.skillId}#${e.toNode} after: ${e.reason}`;
    case 'step_started':
    case 'run_finished':
      return undefined;
  }
}

export function summarizeResult(r: RunResult): string {
  const took = `${r.endedAt - r.startedAt} ms, ${r.steps.length} steps`;
  if (r.status === 'succeeded') return `succeeded (${took})${r.result !== undefined ? `\nresult: ${JSON.stringify(r.result)}` : ''}`;
  const where = r.error?.nodeId ? ` at ${r.error.skillId}#${r.error.nodeId}` : '';
  return `${r.status}${where} (${took}): ${r.error?.message ?? ''}`;
}

/** `run <skill>`: runs one skill live, or prints its primitive sequence with --dry-run. */
export function registerRunCommand(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description('Run a skill on the desktop (or show what it would do with --dry-run)')
    .argument('<skill>', 'an interface method (TextEditor.write_file) or a concrete skill (mousepad.save_as)')
    .option('--app <app>', "the app to run it on (default: the focused window's app, then the configured default)")
    .addOption(new Option('--arg <name=value...>', 'an argument; repeatable; @file reads the value from a file').default([]))
    .option('--args-json <json>', 'arguments as one JSON object')
    .option('--dry-run', 'record the primitives with the recording driver; touch nothing')
    .option('--screenshots', 'save a screenshot after every step')
    .option('--json', 'print the run result as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ skilldesk run TextEditor.write_file --app wine-notepad --arg path=/tmp/a.txt --arg text='hello'
  $ skilldesk run Calculator.evaluate --app gnome-calculator --arg 'expression=398 - 174 * sqrt(505)'
  $ skilldesk run TextEditor.save_as --app notepad --arg 'path=C:\\Users\\me\\a.txt' --dry-run`,
    )
    .action(
      async (
        skill: string,
        o: { app?: string; arg: string[]; argsJson?: string; dryRun?: boolean; screenshots?: boolean; json?: boolean },
      ) => {
        const args = parseArgPairs(o.arg, o.argsJson);
        const core = await ctx.core();
        const result = await withSigintAbort(ctx, (signal) =>
          core.runSkill({
            skill,
            args,
            dryRun: o.dryRun ?? false,
            signal,
            ...(o.app && { app: o.app }),
            ...(o.screenshots && { screenshotEveryStep: true }),
            onEvent: (e) => {
              if (o.json) return;
              const line = describeEvent(e);
              if (line) ctx.err(line);
            },
          }),
        );
        if (o.json) ctx.out(JSON.stringify(result, null, 2));
        else ctx.out(summarizeResult(result));
        ctx.setExitCode(result.status === 'succeeded' ? 0 : result.status === 'aborted' ? 130 : 1);
      },
    );
}
