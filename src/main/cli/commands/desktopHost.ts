import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SkillDeskError } from '../../../shared/errors';
import { runDesktopHost } from '../../desktopHost';
import { untilInterrupted } from '../abort';
import type { Output } from '../output';

/** Where a core and a host read the shared token from when it is not in a file. */
export const DESKTOP_TOKEN_ENV = 'SKILLDESK_DESKTOP_TOKEN';

interface DesktopHostFlags {
  host: string;
  port: string;
  tokenFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  readyFile?: string;
  verbose?: boolean;
}

/**
 * `desktop-host`: serves this machine's desktop to a SkillDesk core. Shared by the CLI and by the
 * standalone host bundle (src/main/desktopHostMain.ts) that runs on a Windows machine without the rest.
 */
export function configureDesktopHostCommand(cmd: Command, out: Output): Command {
  return cmd
    .description("Serve this machine's desktop (keyboard, mouse, windows, screen, clipboard, programs, files) to a SkillDesk core")
    .option('--host <address>', 'address to listen on; anything but loopback needs --tls-cert and --tls-key', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = any free port)', '47800')
    .option('--token-file <path>', `read the token from this file (else ${DESKTOP_TOKEN_ENV}, else a new random token is printed)`)
    .option('--tls-cert <pem>', 'serve HTTPS with this certificate (PEM file)')
    .option('--tls-key <pem>', 'the private key of --tls-cert (PEM file)')
    .option('--ready-file <path>', 'write {"url","pid","platform"} here once listening (for scripts that wait on the host)')
    .option('--verbose', 'print one line per call (operation, outcome, milliseconds; never typed text)')
    .addHelpText(
      'after',
      `
The core keeps permissions, the run journal and the audit; the host does what an authenticated
core asks, so the token is the whole of its trust: keep it secret. By default the host listens
on 127.0.0.1 only; reach a VM or a second PC through a tunnel (ssh -L 47800:127.0.0.1:47800)
or serve HTTPS with --tls-cert/--tls-key. Requests from web pages are refused.

Example (on the Windows machine, then on yours):
  > skilldesk desktop-host --port 47800
  $ ${DESKTOP_TOKEN_ENV}=<token> skilldesk --desktop http://127.0.0.1:47800 run TextEditor.write_file --app notepad ...`,
    )
    .action(async (o: DesktopHostFlags) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new SkillDeskError('cli.bad_port', `Expected --port to be an integer from 0 to 65535, got \`${o.port}\``);
      }
      if (Boolean(o.tlsCert) !== Boolean(o.tlsKey)) {
        throw new SkillDeskError('cli.bad_tls', 'Expected both --tls-cert and --tls-key, or neither');
      }
      const given = o.tokenFile ? readSecretFile(o.tokenFile, '--token-file') : process.env[DESKTOP_TOKEN_ENV]?.trim() || undefined;
      const host = await runDesktopHost({
        host: o.host,
        port,
        ...(given && { token: given }),
        ...(o.tlsCert && o.tlsKey && { tls: { cert: readFileSync(o.tlsCert), key: readFileSync(o.tlsKey) } }),
        ...(o.verbose && { log: (line: string) => out.err(line) }),
        ...(o.readyFile && { readyFile: o.readyFile }),
      });
      out.out(`SkillDesk desktop host (${host.platform}) listening on ${host.url}`);
      if (!given) out.out(`token: ${host.token}`);
      out.err(`Connect with: ${DESKTOP_TOKEN_ENV}=<token> skilldesk --desktop ${host.url} ... (Ctrl+C stops)`);
      await untilInterrupted();
      await host.close();
    });
}

/** Reads a one-line secret (token) from a file, with a clear error. */
export function readSecretFile(path: string, flag: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new SkillDeskError(
      'cli.bad_token_file',
      `Could not read ${flag} \`${path}\`: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (!text) throw new SkillDeskError('cli.bad_token_file', `${flag} \`${path}\` is empty`);
  return text;
}
