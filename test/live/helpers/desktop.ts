import { execFileSync } from 'node:child_process';
import { createDesktop, type LiveDesktop } from '../../../src/main/services/desktop';
import type { WindowInfo } from '../../../src/shared/ports/desktop';

/**
 * Helpers for live tests on the test desktop (scripts/test-desktop.sh). They fail, never skip,
 * when the display or an application is missing: a live test that did not run did not pass.
 */

/** The X display the test runner started; throws when there is none. */
export function requireDisplay(): string {
  const display = process.env.DISPLAY;
  if (!display)
    throw new Error('DISPLAY is not set: start the test desktop (`eval "$(bash scripts/test-desktop.sh start)"`) or run `npm test`');
  return display;
}

/** Throws unless `command` is on PATH (install with `scripts/test-desktop.sh install`). */
export function requireCommand(command: string): void {
  try {
    execFileSync('sh', ['-c', `command -v "$1"`, 'sh', command], { stdio: 'ignore' });
  } catch {
    throw new Error(`\`${command}\` is not installed; run \`bash scripts/test-desktop.sh install\``);
  }
}

/** Wine's environment: the runner's prefix (booted by test-desktop.sh), quiet, no Mono/Gecko prompts. */
export function wineEnv(): Record<string, string> {
  return {
    WINEPREFIX: process.env.WINEPREFIX ?? '/tmp/skilldesk-wine',
    WINEDEBUG: process.env.WINEDEBUG ?? '-all',
    WINEDLLOVERRIDES: process.env.WINEDLLOVERRIDES ?? 'mscoree,mshtml=',
  };
}

/** The live desktop on $DISPLAY. */
export async function openDesktop(): Promise<LiveDesktop> {
  requireDisplay();
  return createDesktop();
}

/** Polls `probe` until it returns a value or the time is up; a probe that throws is retried (the last error is reported). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > end) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${(lastError as Error).message})` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A launched app's window; `kill` ends its process (by the pid the window reports). */
export interface LaunchedApp {
  window: WindowInfo;
  kill(): Promise<void>;
}

/**
 * Launches an app and waits for a new window that `match`es (windows present before do not
 * count: mousepad, for one, opens new windows in an already running instance).
 */
export async function launchApp(
  desktop: LiveDesktop,
  app: { command: string; args?: string[]; env?: Record<string, string>; match: (w: WindowInfo) => boolean; timeoutMs?: number },
): Promise<LaunchedApp> {
  requireCommand(app.command);
  const before = new Set((await desktop.windows.list()).map((w) => w.id));
  await desktop.processes.launch({ command: app.command, args: app.args ?? [], ...(app.env && { env: app.env }) });
  const window = await waitFor(
    `a window of \`${app.command}\``,
    async () => (await desktop.windows.list()).find((w) => !before.has(w.id) && app.match(w)),
    app.timeoutMs ?? 20_000,
  );
  return { window, kill: () => killWindowProcess(desktop, window) };
}

/** Kills the process behind `window` and waits until the window is gone. */
export async function killWindowProcess(desktop: LiveDesktop, window: WindowInfo): Promise<void> {
  if (window.pid) {
    try {
      process.kill(window.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await waitFor(
    `window ${window.id} to close`,
    async () => ((await desktop.windows.list()).some((w) => w.id === window.id) ? undefined : true),
    10_000,
  );
}

/** Mousepad, as launched for tests. */
export const MOUSEPAD = { command: 'mousepad', match: (w: WindowInfo) => w.processName === 'mousepad' && /Mousepad$/.test(w.title) };

/** Wine's Notepad, as launched for tests. */
export const WINE_NOTEPAD = {
  command: 'wine',
  args: ['notepad.exe'],
  match: (w: WindowInfo) => w.processName === 'notepad.exe' && /Notepad$/.test(w.title),
};
