import { Command, CommanderError } from 'commander';
import { SkillDeskError } from '../../shared/errors';
import type { Core } from '../core/Core';
import { createNodeCore } from '../core/createNodeCore';
import { defaultDataDir } from '../services/store';
import { registerAgentCommands } from './commands/agent';
import { registerAuditCommands } from './commands/audit';
import { registerPermissionsCommands } from './commands/permissions';
import { registerRetrieveCommand } from './commands/retrieve';
import { registerRunCommand } from './commands/run';
import { registerServeCommand } from './commands/serve';
import { registerRunsCommands } from './commands/runs';
import { registerSkillsCommands } from './commands/skills';
import type { CliContext } from './context';
import { stdio, type Output } from './output';

/** Builds the `skilldesk` program; `output` is injectable so tests capture it. */
export function buildProgram(output: Output = stdio, state = { exitCode: 0 }): { program: Command; ctx: CliContext } {
  const program = new Command('skilldesk')
    .description('SkillDesk: operate desktop applications through verifiable, permission-bearing skills')
    .option('--data-dir <dir>', 'data folder (store, user skills, screenshots); default: SKILLDESK_DATA_DIR or the per-OS app-data folder')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) })
    .exitOverride();
  let core: Promise<Core> | undefined;
  const ctx: CliContext = {
    ...output,
    dataDir: () => program.opts<{ dataDir?: string }>().dataDir ?? defaultDataDir(),
    core: () => (core ??= createNodeCore({ dataDir: ctx.dataDir(), interactive: Boolean(process.stdin.isTTY) })),
    loadLibrary: async () => (await ctx.core()).loadLibrary(),
    setExitCode: (code) => {
      state.exitCode = code;
    },
    close: async () => {
      // A core that failed to open has nothing to release (its error was already reported).
      const opened = await core?.catch(() => undefined);
      opened?.close();
    },
  };
  registerSkillsCommands(program, ctx);
  registerRunCommand(program, ctx);
  registerRunsCommands(program, ctx);
  registerRetrieveCommand(program, ctx);
  registerAgentCommands(program, ctx);
  registerPermissionsCommands(program, ctx);
  registerAuditCommands(program, ctx);
  registerServeCommand(program, ctx);
  return { program, ctx };
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: readonly string[], output: Output = stdio): Promise<number> {
  const state = { exitCode: 0 };
  const { program, ctx } = buildProgram(output, state);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof SkillDeskError) {
      output.err(`error: ${err.message}`);
      return err.code.startsWith('cli.') ? 2 : 1;
    }
    // Not an error SkillDesk raised on purpose: one line, the stack only on request.
    const debug = Boolean(process.env.SKILLDESK_DEBUG);
    const text = err instanceof Error ? (debug ? (err.stack ?? err.message) : err.message) : String(err);
    output.err(`error: ${text}${debug ? '' : ' (an unexpected error; SKILLDESK_DEBUG=1 shows its stack trace)'}`);
    return 1;
  } finally {
    await ctx.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
