import { Command, CommanderError } from 'commander';
import { SkillDeskError } from '../../shared/errors';
import type { Core } from '../core/Core';
import { createNodeCore } from '../core/createNodeCore';
import { defaultDataDir } from '../services/store';
import { registerAgentCommands } from './commands/agent';
import { registerAuditCommands } from './commands/audit';
import { registerMetricsCommand } from './commands/metrics';
import { registerPermissionsCommands } from './commands/permissions';
import { registerRetrieveCommand } from './commands/retrieve';
import { registerRunCommand } from './commands/run';
import { registerServeCommand } from './commands/serve';
import { registerRunsCommands } from './commands/runs';
import { registerSkillsCommands } from './commands/skills';
import { registerSynthesizeCommand } from './commands/synthesize';
import { registerLearnCommands } from './commands/learn';
import { configureDesktopHostCommand, DESKTOP_TOKEN_ENV, readSecretFile } from './commands/desktopHost';
import type { RemoteDesktopOptions } from '../services/desktopHost';
import { readFileSync } from 'node:fs';
import type { CliContext } from './context';
import { exitAfterOutput, stdio, type Output } from './output';

/** Builds the `skilldesk` program; `output` is injectable so tests capture it. */
export function buildProgram(output: Output = stdio, state = { exitCode: 0 }): { program: Command; ctx: CliContext } {
  const program = new Command('skilldesk')
    .description('SkillDesk: operate desktop applications through verifiable, permission-bearing skills')
    .option('--data-dir <dir>', 'data folder (store, user skills, screenshots); default: SKILLDESK_DATA_DIR or the per-OS app-data folder')
    .option(
      '--desktop <url>',
      `drive the desktop of a desktop host (\`skilldesk desktop-host\`) instead of this one; token from ${DESKTOP_TOKEN_ENV} or --desktop-token-file`,
    )
    .option('--desktop-token-file <path>', 'read the desktop host token from this file')
    .option('--desktop-ca <pem>', 'CA certificate (PEM file) to trust for an https desktop host')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) })
    .exitOverride();
  let core: Promise<Core> | undefined;
  const ctx: CliContext = {
    ...output,
    dataDir: () => program.opts<{ dataDir?: string }>().dataDir ?? defaultDataDir(),
    core: () =>
      (core ??= Promise.resolve().then(() => {
        const desktopHost = desktopHostOptions(program.opts<GlobalFlags>());
        return createNodeCore({ dataDir: ctx.dataDir(), interactive: Boolean(process.stdin.isTTY), ...(desktopHost && { desktopHost }) });
      })),
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
  registerSynthesizeCommand(program, ctx);
  registerLearnCommands(program, ctx);
  registerAgentCommands(program, ctx);
  registerPermissionsCommands(program, ctx);
  registerAuditCommands(program, ctx);
  registerMetricsCommand(program, ctx);
  registerServeCommand(program, ctx);
  configureDesktopHostCommand(program.command('desktop-host'), output);
  return { program, ctx };
}

interface GlobalFlags {
  desktop?: string;
  desktopTokenFile?: string;
  desktopCa?: string;
}

/** `--desktop` and its token: the desktop host to drive, if any. */
function desktopHostOptions(o: GlobalFlags): RemoteDesktopOptions | undefined {
  if (!o.desktop) {
    if (o.desktopTokenFile || o.desktopCa)
      throw new SkillDeskError('cli.bad_desktop', '--desktop-token-file and --desktop-ca need --desktop <url>');
    return undefined;
  }
  const token = o.desktopTokenFile ? readSecretFile(o.desktopTokenFile, '--desktop-token-file') : process.env[DESKTOP_TOKEN_ENV]?.trim();
  if (!token) {
    throw new SkillDeskError(
      'cli.bad_desktop',
      `--desktop needs the token the desktop host printed: set ${DESKTOP_TOKEN_ENV} or pass --desktop-token-file (never on the command line, where other users can read it)`,
    );
  }
  return { url: o.desktop, token, ...(o.desktopCa && { ca: readFileSync(o.desktopCa) }) };
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
    (code) => exitAfterOutput(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      exitAfterOutput(1);
    },
  );
}
