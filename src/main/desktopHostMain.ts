/**
 * The standalone desktop host: `skilldesk desktop-host` without the rest of SkillDesk (no store,
 * no models, no UI), bundled into one file by scripts/windows-lane.cjs to run on a Windows
 * machine (or under Wine) with only Windows Node, nut.js and node-window-manager beside it.
 */
import { Command, CommanderError } from 'commander';
import { SkillDeskError } from '../shared/errors';
import { configureDesktopHostCommand } from './cli/commands/desktopHost';
import { stdio } from './cli/output';

async function main(argv: readonly string[]): Promise<number> {
  const program = configureDesktopHostCommand(new Command('skilldesk-desktop-host'), stdio)
    .configureOutput({ writeOut: (s) => stdio.out(s.trimEnd()), writeErr: (s) => stdio.err(s.trimEnd()) })
    .exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    stdio.err(`error: ${err instanceof SkillDeskError ? err.message : String((err as Error).stack ?? err)}`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
