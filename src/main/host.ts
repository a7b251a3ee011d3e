import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Core } from './core/Core';
import { createNodeCore } from './core/createNodeCore';
import { packageRoot } from './core/paths';
import { CoreApiAdapter } from './bridge/CoreApiAdapter';
import { Dispatcher } from './bridge/Dispatcher';
import { EventHub } from './bridge/EventHub';
import { startHostServer, type HostServer } from './bridge/HostServer';
import { PromptBroker } from './bridge/PromptBroker';
import { defaultDataDir } from './services/store';

/**
 * Host mode's composition root: the core under plain Node, the UI served on 127.0.0.1 with
 * the IPC contract over a WebSocket, and permission prompts answered in the page.
 */

export interface HostOptions {
  dataDir: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /** Per-launch secret; random when absent. */
  token?: string;
  /** @default `<package>/out/renderer` */
  rendererDir?: string;
  /** Longest a permission prompt may wait before it is denied (the policy sets the usual timeout). @default 300000 */
  promptTimeoutMs?: number;
}

export interface Host {
  server: HostServer;
  core: Core;
  dispatcher: Dispatcher;
  prompts: PromptBroker;
  close(): Promise<void>;
}

/** Printed under the URL by `skilldesk serve` and `npm start`. */
export const HOST_URL_NOTE =
  '(127.0.0.1 only; the token after # is required, and the first page to open it answers permission prompts. Ctrl+C stops.)';

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** Starts host mode; resolves once the server listens. */
export async function startHost(options: HostOptions): Promise<Host> {
  const hub = new EventHub();
  // The broker asks the server how many owner pages (which alone may answer) are connected; the server is built after the core.
  const clients = { count: (): number => 0 };
  const prompts = new PromptBroker({
    hub,
    connectedClients: () => clients.count(),
    ...(options.promptTimeoutMs && { maxTimeoutMs: options.promptTimeoutMs }),
  });
  const core = await createNodeCore({ dataDir: options.dataDir, interactive: false, prompter: prompts });
  const api = new CoreApiAdapter({ core, db: core.db!, version: packageVersion() });
  const dispatcher = new Dispatcher({ core: api, hub, mode: 'host', prompts });
  const server = await startHostServer({
    dispatcher,
    hub,
    rendererDir: options.rendererDir ?? join(packageRoot(), 'out', 'renderer'),
    ...(options.port !== undefined && { port: options.port }),
    ...(options.token && { token: options.token }),
  });
  clients.count = () => server.owners();
  return {
    server,
    core,
    dispatcher,
    prompts,
    close: async () => {
      dispatcher.stop();
      await server.close();
      core.close();
    },
  };
}

/** `node out/main/host.js [--port N] [--data-dir DIR]`: what `npm start` runs without Electron. */
async function main(argv: string[]): Promise<void> {
  const flag = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const port = flag('--port') ? Number(flag('--port')) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Expected --port to be an integer 0-65535, got \`${flag('--port')}\``);
  const host = await startHost({ dataDir: flag('--data-dir') ?? defaultDataDir(), port });
  process.stdout.write(`SkillDesk host mode: open ${host.server.url}\n${HOST_URL_NOTE}\n`);
  const stop = (): void => {
    void host.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`skilldesk host: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
