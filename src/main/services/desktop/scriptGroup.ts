import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { DesktopError } from './errors';

/**
 * How a script is tied to SkillDesk's life, for the case where SkillDesk is killed outright
 * (`kill -9`, a crash): no exit handler runs then, so the script must be killed from outside.
 * - `pdeathsig`: Linux. util-linux `setpriv --pdeathsig HUP` asks the kernel to send HUP to the
 *   script's group leader the moment SkillDesk's process dies; the leader kills its whole group.
 *   The kernel ties the signal to the thread that spawned the script, so spawn from the main
 *   thread (SkillDesk does), not from a worker thread that may end before the script.
 * - `poll`: any POSIX shell. A watcher in the script's group checks every 200 ms whether
 *   SkillDesk is alive, and kills the group when it is not (so a script may run up to 200 ms on).
 * - `none`: nothing (Windows: a job object with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE would do it,
 *   which Node cannot create without a native module; see docs/security.md).
 */
export type ParentDeathWatch = 'pdeathsig' | 'poll' | 'none';

/**
 * The group leader every POSIX script runs under: `sh -c TRAMPOLINE skilldesk-script PARENT_PID
 * WATCH COMMAND ARGS...`. It runs the command in the background (so it can still react to HUP
 * while waiting), kills its group on HUP, and exits with the command's status.
 * Its stdio is the script's, so the watcher's is redirected: the runner waits for the pipes to close.
 */
const TRAMPOLINE = `parent=$1 watch=$2; shift 2
trap 'kill -KILL 0' HUP
[ "$PPID" = "$parent" ] || kill -KILL 0
watcher=
if [ "$watch" = poll ]; then
  (while kill -0 "$parent" 2>/dev/null; do sleep 0.2; done; kill -KILL 0) </dev/null >/dev/null 2>&1 &
  watcher=$!
fi
"$@" &
wait $!
status=$?
[ -z "$watcher" ] || kill "$watcher" 2>/dev/null
exit $status`;

// Checked once per process: whether setpriv is installed does not change while SkillDesk runs.
let setprivPath: string | null | undefined;

function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, 'setpriv');
    try {
      accessSync(candidate, constants.X_OK);
      setprivPath = candidate;
      break;
    } catch {
      // not in this folder
    }
  }
  return setprivPath;
}

/** The strongest watch available: the kernel's death signal on Linux with setpriv, polling on other POSIX systems. */
export function defaultParentDeathWatch(platform: NodeJS.Platform): ParentDeathWatch {
  if (platform === 'win32') return 'none';
  return platform === 'linux' && findSetpriv() ? 'pdeathsig' : 'poll';
}

/**
 * Wraps `command args` so the script dies with this process. The result is spawned with
 * `detached: true` (its own process group, which the trampoline leads) so that a timeout or an
 * abort can also kill the group: `process.kill(-pid, ...)`.
 */
export function groupedCommand(command: string, args: readonly string[], watch: ParentDeathWatch): [string, string[]] {
  if (watch === 'none') return [command, [...args]];
  const trampoline = ['-c', TRAMPOLINE, 'skilldesk-script', String(process.pid), watch, command, ...args];
  if (watch === 'poll') return ['sh', trampoline];
  const setpriv = findSetpriv();
  if (!setpriv) {
    throw new DesktopError('script.no_setpriv', '`setpriv` (util-linux) is not installed: install util-linux, or use the `poll` watch');
  }
  // setpriv sets the death signal, then execs sh in the same process: SkillDesk stays its parent.
  return [setpriv, ['--pdeathsig', 'HUP', '--', 'sh', ...trampoline]];
}
