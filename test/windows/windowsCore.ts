import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { connectDesktopHost, type RemoteDesktop } from '../../src/main/services/desktopHost';
import type { Desktop, WindowInfo } from '../../src/shared/ports/desktop';
import type { PermissionPrompt, PermissionPrompter } from '../../src/shared/ports/prompter';
import { killApps } from '../live/skills/liveCore';

/**
 * A core on Linux whose desktop is the Windows desktop host under Wine, with a fresh data folder.
 * With `approve`, a stand-in user allows once what the policy asks about, and every question is
 * kept in `asked`; without it nobody answers and a `confirm` is a denial.
 */
export async function windowsCore(o: { approve?: boolean } = {}): Promise<{ core: Core; dataDir: string; asked: PermissionPrompt[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-windows-'));
  const asked: PermissionPrompt[] = [];
  const prompter: PermissionPrompter = {
    ask: async (prompt) => {
      asked.push(prompt);
      return o.approve ? { answer: 'allow_once', by: 'user' } : { answer: 'deny', by: 'no_user' };
    },
  };
  const core = await createNodeCore({ dataDir, interactive: false, prompter, desktopHost: inject('windowsDesktop') });
  return { core, dataDir, asked };
}

/** A direct connection to the Windows desktop host (adapter-level tests). */
export function windowsDesktop(): Promise<RemoteDesktop> {
  return connectDesktopHost(inject('windowsDesktop'));
}

/** The first window of `desktop` matching `match`, polled for up to 15 s (fails, never skips). */
export async function windowWhere(desktop: Desktop, match: (w: WindowInfo) => boolean, what = 'the window'): Promise<WindowInfo> {
  for (let i = 0; i < 150; i++) {
    const w = (await desktop.windows.list()).find(match);
    if (w) return w;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not appear within 15 s`);
}

/**
 * Kills the Windows programs whose command line matches `pattern` (a pgrep pattern) and waits
 * until the desktop host lists none of their windows: Wine forgets a killed program's windows a
 * moment after the process is gone, and until then one of them can take the foreground.
 */
export async function killPrograms(pattern: string): Promise<void> {
  killApps(pattern);
  const desktop = await windowsDesktop();
  try {
    const matches = new RegExp(pattern, 'i');
    const left = async () => (await desktop.windows.list()).filter((w) => matches.test(w.processName ?? '')).map((w) => w.title);
    for (let i = 0; i < 100 && (await left()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    const stale = await left();
    if (stale.length > 0) throw new Error(`windows of killed programs (${pattern}) still listed after 10 s: ${stale.join(', ')}`);
  } finally {
    await desktop.close();
  }
}

/**
 * A Linux path as Wine's Windows programs see it: drive Z: is the POSIX root in a default prefix.
 * Only tests know this; skills and product code see Windows paths.
 */
export function winePath(posixPath: string): string {
  return `Z:${posixPath.replace(/\//g, '\\')}`;
}
