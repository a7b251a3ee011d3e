import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { SkillLibrary } from '../../../shared/skill';

/**
 * Ends the processes matching `pattern` (pgrep -f) that run on `display` and returns once they
 * are gone (exited or zombies) and the window manager lists none of their windows: a skill started
 * then would take a dying window for the running app and not bring it up. Processes on other
 * displays are left alone. Linux only (pgrep, /proc, wmctrl).
 */
export function endProcesses(pattern: string, display = process.env.DISPLAY): void {
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return; // pgrep exits 1 when nothing matched
  }
  // Chromium rewrites its environment block (setproctitle), so a process that shows windows on
  // this display counts as ours too.
  const windowOwners = windowPids();
  const mine = ancestry();
  const ours = pids.filter((pid) => {
    // Never this process or what started it, whose command lines may name the app (`bench mousepad`).
    if (mine.has(pid)) return false;
    let environ = '';
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      return false; // already gone
    }
    return environ.split('\0').includes(`DISPLAY=${display}`) || windowOwners.has(pid);
  });
  // With their children (a browser's renderers and crash handler, which go on writing to its
  // profile for a while when only the browser is ended), read before any is ended and reparented.
  const tree = descendants(ours).filter((pid) => !mine.has(pid));
  const killed: string[] = [];
  for (const pid of tree) {
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
  let shown = killed;
  while ((shown = killed.filter((pid) => windowPids().has(pid))).length > 0) {
    if (Date.now() > deadline) throw new Error(`windows of killed processes ${shown.join(', ')} (${pattern}) still listed after 10 s`);
    Atomics.wait(pause, 0, 0, 50);
  }
}

/** The processes and all their descendants, from each process's parent in /proc. */
function descendants(roots: readonly string[]): string[] {
  const children = new Map<string, string[]>();
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const out = new Set<string>();
  const visit = (pid: string) => {
    if (out.has(pid)) return;
    out.add(pid);
    for (const c of children.get(pid) ?? []) visit(c);
  };
  roots.forEach(visit);
  return [...out];
}

/** This process and its ancestors. */
function ancestry(): Set<string> {
  const out = new Set<string>();
  for (let pid: string | undefined = String(process.pid); pid && pid !== '0' && !out.has(pid); pid = parentOf(pid)) out.add(pid);
  return out;
}

/** A process's parent pid from /proc (its state and parent follow the command name in parentheses); undefined once it is gone. */
function parentOf(pid: string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '';
  } catch {
    return undefined;
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

/**
 * `config/x` inside XDG_CONFIG_HOME (likewise data/, cache/) of a test desktop (under /tmp); it
 * refuses any other home, so a user's own settings are never removed.
 */
export function testDesktopPath(path: string): string {
  const [kind, ...rest] = path.split('/');
  const variable = { config: 'XDG_CONFIG_HOME', data: 'XDG_DATA_HOME', cache: 'XDG_CACHE_HOME' }[kind as 'config' | 'data' | 'cache'];
  if (!variable) throw new Error(`Expected a path under config/, data/ or cache/, got \`${path}\``);
  const base = process.env[variable];
  if (!base?.startsWith('/tmp/'))
    throw new Error(
      `${variable} is not the test desktop's (${base ?? 'unset'}); start it with scripts/test-desktop.sh to clean \`${path}\``,
    );
  return join(base, ...rest);
}

/** How an app is brought back to a first start: the processes to end, the state folders to remove. */
export interface AppState {
  kill: string[];
  clean: string[];
}

/** The program an app's launch starts, as a process pattern (for `wine prog.exe`, the program). */
export function launchedProgram(library: SkillLibrary, app: string): string[] {
  const launch = library.apps.get(app)?.launch;
  if (!launch) return [];
  return [basename(launch.command) === 'wine' && launch.args[0] ? launch.args[0] : launch.command];
}

/** What ends the app and what it keeps between starts, as its shipped live tests say (else its launch command). */
export function appState(library: SkillLibrary, app: string): AppState {
  const doc = library.liveTests.find((d) => d.app === app && d.lane !== 'windows' && d.source.origin === 'builtin');
  return { kill: doc?.kill ?? launchedProgram(library, app), clean: doc?.clean ?? [] };
}

/**
 * Puts apps back to a first start on the test desktop: ends their processes and, unless
 * `keepState` (a run that measures how skills meet a crash's leftovers), removes their settings,
 * sessions and recovery files.
 */
export function resetApps(library: SkillLibrary, apps: readonly string[], o: { keepState?: boolean } = {}): void {
  for (const app of apps) {
    const state = appState(library, app);
    for (const p of state.kill) endProcesses(p);
    if (!o.keepState)
      for (const path of state.clean) rmSync(testDesktopPath(path), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/**
 * The apps whose skills are verified on the test desktop (built-in live tests) for `platform`:
 * where synthesized tasks can run and be checked.
 */
export function liveDesktopApps(library: SkillLibrary, platform = process.platform): string[] {
  const apps = library.liveTests.filter((d) => d.lane !== 'windows' && d.source.origin === 'builtin').map((d) => d.app);
  return [...new Set(apps)].filter((app) => library.apps.get(app)?.platforms.includes(platform as 'linux')).sort();
}
