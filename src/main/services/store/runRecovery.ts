import { uptime } from 'node:os';
import { toJson } from './json';
import { prepared, type StoreDb } from './statements';
import type { RunErrorData } from './runs';
import { endStartedSteps } from './steps';

/** Whether the process that wrote a 'running' run still exists. */
export type OwnerState = 'alive' | 'gone';

/** Identifies the writing process: its pid and the machine's boot time (pids are reused across reboots). */
export interface OwnerIdentity {
  pid: number;
  bootMs: number;
}

// Boot time derived from the clock and uptime jitters by a second or so, and more when NTP
// steps the clock; two minutes separates "same boot" from "rebooted since" in practice.
const BOOT_TOLERANCE_MS = 120_000;

/** This process's identity, stored with every run it creates. */
export function ownerIdentity(): OwnerIdentity {
  return { pid: process.pid, bootMs: currentBootMs() };
}

/** Decides whether a run's owner is still running: same boot and the pid exists. */
export function ownerState(pid: number | null, bootMs: number | null): OwnerState {
  if (pid === null) return 'gone';
  if (bootMs !== null && Math.abs(bootMs - currentBootMs()) > BOOT_TOLERANCE_MS) return 'gone';
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (err) {
    // EPERM: the pid exists but belongs to another user; it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'gone';
  }
}

export interface RecoverOptions {
  /** When the recovery happens (recorded in the error). @default Date.now() */
  now?: number;
  /** Injectable for tests. @default ownerState */
  ownerState?: (pid: number | null, bootMs: number | null) => OwnerState;
}

/**
 * Marks runs left 'running' by a process that no longer exists as 'aborted' with reason
 * 'interrupted', ending them at their last recorded activity, and the step each left 'started'
 * as 'interrupted' (its effect may or may not have happened; when it ended is unknown, so it
 * ends at its start). Runs of live processes (the app while the CLI opens the store) are left
 * alone. Returns the recovered run ids.
 */
export function recoverInterruptedRuns(db: StoreDb, opts: RecoverOptions = {}): string[] {
  const now = opts.now ?? Date.now();
  const stateOf = opts.ownerState ?? ownerState;
  // IMMEDIATE: the check and the update see the same rows even with another writer around.
  return db
    .transaction(() => {
      const running = prepared<{ id: string; owner_pid: number | null; owner_boot_ms: number | null }>(
        db,
        "SELECT id, owner_pid, owner_boot_ms FROM runs WHERE status = 'running'",
      ).all();
      const recovered: string[] = [];
      for (const run of running) {
        if (stateOf(run.owner_pid, run.owner_boot_ms) === 'alive') continue;
        const error: RunErrorData = {
          code: 'run.interrupted',
          reason: 'interrupted',
          message: `The process running this run${run.owner_pid === null ? '' : ` (pid ${run.owner_pid})`} ended before the run finished`,
          recoveredAt: now,
        };
        endStartedSteps(
          db,
          run.id,
          'interrupted',
          null,
          `The process running this step${run.owner_pid === null ? '' : ` (pid ${run.owner_pid})`} ended before the step finished: ` +
            'its effect may have happened, in whole or in part',
        );
        prepared(
          db,
          `UPDATE runs SET status = 'aborted', error_json = ?, owner_pid = NULL, owner_boot_ms = NULL,
          ended_at = max(started_at, coalesce((SELECT max(ended_at) FROM steps WHERE steps.run_id = runs.id), started_at))
        WHERE id = ? AND status = 'running'`,
        ).run(toJson(error, 'error'), run.id);
        recovered.push(run.id);
      }
      return recovered;
    })
    .immediate();
}

function currentBootMs(): number {
  return Date.now() - Math.round(uptime() * 1000);
}
