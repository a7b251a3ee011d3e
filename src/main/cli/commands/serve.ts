import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { HOST_URL_NOTE, startHost } from '../../host';
import { untilInterrupted } from '../abort';
import type { CliContext } from '../context';

/** `serve [--port]`: host mode, the UI in a browser on 127.0.0.1 with a per-launch token. */
export function registerServeCommand(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('Serve the SkillDesk UI on 127.0.0.1 (host mode) for a browser; prints the URL with its one-time token')
    .option('--port <port>', 'port to listen on (0 = any free port)', '0')
    .addHelpText(
      'after',
      `
The URL carries a random token generated at each launch, after the # (browsers never send
that part to a server); without it the page cannot connect, and a page from another origin is
refused. The first page to open the URL is the one that answers permission prompts and saves
settings. Stop with Ctrl+C.

Example:
  $ skilldesk serve --port 5780`,
    )
    .action(async (o: { port: string }) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new SkillDeskError('cli.bad_port', `Expected --port to be an integer from 0 to 65535, got \`${o.port}\``);
      }
      const host = await startHost({ dataDir: ctx.dataDir(), port });
      ctx.out(`SkillDesk host mode: open ${host.server.url}`);
      ctx.err(HOST_URL_NOTE);
      await untilInterrupted();
      await host.close();
    });
}
