import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { Grounder, GroundingContext, GroundingResult } from '../../../src/shared/ports/grounding';
import type { Target } from '../../../src/shared/skill';
import type { WindowInfo } from '../../../src/shared/ports/desktop';

/** Fails (never skips) when the test desktop is not up. */
export function requireDisplay(): string {
  const display = process.env.DISPLAY;
  if (!display)
    throw new Error('DISPLAY is not set: start the test desktop (`eval "$(bash scripts/test-desktop.sh start)"`) or run `npm test`');
  return display;
}

/** A live core with its own data folder, optionally with a grounder. */
export async function agentCore(grounder?: Grounder): Promise<{ core: Core; dataDir: string }> {
  requireDisplay();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-live-agent-'));
  const core = await createNodeCore({ dataDir, interactive: false, ...(grounder && { overrides: { grounder } }) });
  return { core, dataDir };
}

/** Windows on this display whose X class matches (other displays' apps are never touched). */
export async function windowsOf(core: Core, classPattern: RegExp): Promise<WindowInfo[]> {
  return (await (await core.desktop()).windows.list()).filter((w) => classPattern.test(w.className ?? ''));
}

/**
 * Closes this display's windows of an app — by the pids the window manager reports, so no other
 * display's instance is hit — and waits until the window list no longer shows them (a window
 * still listed while it is destroyed makes the next listing fail).
 */
export async function closeApp(core: Core, classPattern: RegExp): Promise<void> {
  const list = async () => {
    try {
      return await windowsOf(core, classPattern);
    } catch {
      return undefined; // a window vanished mid-listing; ask again
    }
  };
  for (const w of (await list()) ?? []) {
    if (!w.pid) continue;
    try {
      process.kill(w.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await eventually(async () => (await list())?.length === 0, 10_000);
  await new Promise((r) => setTimeout(r, 500));
}

/** Polls until `check` holds or the time is up. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 8000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return check();
}

/**
 * Wraps the core's own grounder (the one the CLI and host mode get) so that every answer is
 * passed to `seen`; fails when the core has none.
 */
export function watchGrounder(
  core: Core,
  seen: (target: Exclude<Target, { kind: 'point' }>, r: GroundingResult, ctx: GroundingContext) => void,
): void {
  const own = core.options.grounder;
  if (!own) throw new Error('createNodeCore gave the core no grounder: text and accessibility targets cannot work from the CLI');
  Object.assign(core.options, {
    grounder: {
      locate: async (target, ctx) => {
        const r = await own.locate(target, ctx);
        seen(target, r, ctx);
        return r;
      },
    } satisfies Grounder,
  });
}
