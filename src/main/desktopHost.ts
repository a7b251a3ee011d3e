import { rename, writeFile } from 'node:fs/promises';
import { createDesktop } from './services/desktop';
import { startDesktopHost, type DesktopHost } from './services/desktopHost';

/**
 * The desktop host's composition root: this machine's live desktop (X11 on Linux, nut.js and
 * node-window-manager on Windows) served to a SkillDesk core elsewhere. Permissions, the journal
 * and the audit stay with that core; the host only has the desktop and the token.
 */
export interface DesktopHostRunOptions {
  host?: string;
  port?: number;
  token?: string;
  tls?: { cert: Buffer; key: Buffer };
  /** Log every call (op, outcome, time) here. */
  log?: (line: string) => void;
  /** Written (atomically) with `{ url, pid, platform }` once the host listens, for scripts that wait on it. */
  readyFile?: string;
}

export async function runDesktopHost(o: DesktopHostRunOptions): Promise<DesktopHost & { platform: string }> {
  const desktop = await createDesktop();
  let host: DesktopHost;
  try {
    host = await startDesktopHost({
      desktop,
      describeScreen: () => desktop.describeScreen(),
      ...(o.host && { host: o.host }),
      ...(o.port !== undefined && { port: o.port }),
      ...(o.token && { token: o.token }),
      ...(o.tls && { tls: o.tls }),
      ...(o.log && { log: o.log }),
    });
  } catch (err) {
    await desktop.close();
    throw err;
  }
  if (o.readyFile) {
    const tmp = `${o.readyFile}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ url: host.url, pid: process.pid, platform: desktop.platform }));
    await rename(tmp, o.readyFile);
  }
  return {
    ...host,
    platform: desktop.platform,
    close: async () => {
      await host.close();
      await desktop.close();
    },
  };
}
