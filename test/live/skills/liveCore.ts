import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { PermissionPrompter } from '../../../src/shared/ports/prompter';

/** Fails (never skips) when the test desktop is not up. */
export function requireDisplay(): string {
  const display = process.env.DISPLAY;
  if (!display)
    throw new Error('DISPLAY is not set: start the test desktop (`eval "$(bash scripts/test-desktop.sh start)"`) or run `npm test`');
  return display;
}

/**
 * A core with a fresh data folder (its own SQLite store) for one test file. With `approve`, a
 * stand-in user allows once what the policy asks about; without it nobody answers (a denial).
 */
export async function liveCore(o: { approve?: boolean } = {}): Promise<{ core: Core; dataDir: string }> {
  requireDisplay();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-live-'));
  const prompter: PermissionPrompter | undefined = o.approve ? { ask: async () => ({ answer: 'allow_once', by: 'user' }) } : undefined;
  return { core: await createNodeCore({ dataDir, interactive: false, ...(prompter && { prompter }) }), dataDir };
}

/**
 * Kills the processes matching `pattern` that run on this test's display, so each test starts
 * from a clean desktop without touching apps on other displays, and returns once they are gone
 * (exited or zombies): their windows go with their X connections.
 */
export function killApps(pattern: string): void {
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return; // pgrep exits 1 when nothing matched
  }
  const display = process.env.DISPLAY;
  // Chromium rewrites its environment block (setproctitle), so a process that shows windows on
  // this display counts as ours too.
  const windowOwners = windowPids();
  const killed: string[] = [];
  for (const pid of pids) {
    let environ = '';
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // already gone
    }
    if (!environ.split('\0').includes(`DISPLAY=${display}`) && !windowOwners.has(pid)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed.push(pid);
    } catch {
      // exited meanwhile
    }
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  let alive = killed;
  while ((alive = alive.filter(running)).length > 0) {
    if (Date.now() > deadline) throw new Error(`processes ${alive.join(', ')} (${pattern}) outlived SIGKILL by 10 s`);
    Atomics.wait(pause, 0, 0, 20);
  }
  // The window manager can list a killed program's windows a moment longer; a skill started now
  // would take one for the running app and not bring it up.
  let shown = killed;
  while ((shown = killed.filter((pid) => windowPids().has(pid))).length > 0) {
    if (Date.now() > deadline) throw new Error(`windows of killed processes ${shown.join(', ')} (${pattern}) still listed after 10 s`);
    Atomics.wait(pause, 0, 0, 50);
  }
}

/** Pids owning a window on this display (`_NET_WM_PID`, as wmctrl lists it). */
function windowPids(): Set<string> {
  try {
    const rows = execFileSync('wmctrl', ['-lp'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n');
    return new Set(rows.map((r) => r.split(/\s+/)[2]).filter((p): p is string => Boolean(p) && p !== '0'));
  } catch {
    return new Set();
  }
}

/** Whether a process exists and is not a zombie. */
function running(pid: string): boolean {
  try {
    // The state follows the command name in parentheses, which may itself hold spaces or ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every printable ASCII character, tabs, newlines and a Windows path full of shifted symbols. */
export const TRICKY_TEXT = [
  Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join(''),
  'tab\there\tand\tthere',
  'C:\\Users\\a_b\\My Files (1)\\',
  'A_B>C:D! {braces} [brackets] ~tilde~ `backtick` "quotes" \'single\' |pipe| ^caret^',
].join('\n');
