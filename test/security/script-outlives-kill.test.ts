import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ParentDeathWatch } from '../../src/main/services/desktop/scriptGroup';
import { getRun, getSteps, iterateAudit, openStore, verifyAuditChain } from '../../src/main/services/store';

// Issue 10 item 13: after `kill -9` of SkillDesk during a run_script, the script finished its
// write. Here a real Node process runs a script through SkillDesk's runner and is SIGKILLed while
// the script sleeps; the script (and a background child of it) must die before writing.

const dirs: string[] = [];
const groups: number[] = [];
afterEach(() => {
  for (const g of groups.splice(0)) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(20);
  }
}

/**
 * Whether any process of the group still runs. Killed processes stay as zombies until init reaps
 * them (slowly, on some machines), and a zombie runs nothing: /proc tells the two apart.
 */
function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Starts the runner in a child process, waits for the script to run, then kills the child with SIGKILL (or lets it exit). */
async function killDuringScript(
  watch: ParentDeathWatch,
  then: 'kill' | 'exit' = 'kill',
): Promise<{ dir: string; pgid: number; killedAt: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'skilldesk-kill9-'));
  dirs.push(dir);
  const fixture = join(__dirname, 'fixtures', 'runScriptUntilKilled.ts');
  const app = spawn(process.execPath, ['--import', 'tsx', fixture, dir, watch, ...(then === 'exit' ? ['exit'] : [])], {
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => app.once('exit', resolve));
  await until('the script to start', () => existsSync(join(dir, 'pgid')), 30_000);
  const pgid = Number(readFileSync(join(dir, 'pgid'), 'utf8'));
  groups.push(pgid);
  if (then === 'kill') {
    expect(groupAlive(pgid)).toBe(true);
    app.kill('SIGKILL');
  }
  const killedAt = Date.now();
  await exited;
  return { dir, pgid, killedAt };
}

describe('attack: a script outliving a killed SkillDesk', () => {
  it.each(['pdeathsig', 'poll'] as const)(
    'kills the script and its children when SkillDesk is killed with SIGKILL (%s)',
    async (watch) => {
      const { dir, pgid, killedAt } = await killDuringScript(watch);
      // The kernel's death signal is immediate; the poll watch notices within 200 ms.
      await until('the script group to die', () => !groupAlive(pgid), 1500);
      expect(Date.now() - killedAt).toBeLessThan(1500);
      // Nothing of the group is left to write anything, and nothing was written.
      expect(existsSync(join(dir, 'script-wrote'))).toBe(false);
      expect(existsSync(join(dir, 'background-wrote'))).toBe(false);
    },
    60_000,
  );

  it('kills a running script when SkillDesk exits normally, even without a watch', async () => {
    const { dir, pgid } = await killDuringScript('none', 'exit');
    await until('the script group to die', () => !groupAlive(pgid), 1000);
    expect(existsSync(join(dir, 'script-wrote'))).toBe(false);
    expect(existsSync(join(dir, 'background-wrote'))).toBe(false);
  }, 60_000);

  it('without a watch, the script outlives SkillDesk and does its write (what issue 10 saw)', async () => {
    const { dir, pgid } = await killDuringScript('none');
    await until('the orphaned script to write', () => existsSync(join(dir, 'script-wrote')), 10_000);
    expect(existsSync(join(dir, 'script-wrote'))).toBe(true);
    await until('the orphaned group to finish', () => !groupAlive(pgid), 10_000);
  }, 60_000);
});

describe('attack: a run killed during run_script, recovered without a trace of the script', () => {
  it('journals the step as started before mediation and the script, so recovery shows it interrupted beside its audited allow', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-kill9-store-'));
    const out = mkdtempSync(join(tmpdir(), 'skilldesk-kill9-out-'));
    dirs.push(dataDir, out);
    const app = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'runSkillUntilKilled.ts'), dataDir, out], {
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => app.once('exit', resolve));
    await until('the script to start', () => existsSync(join(out, 'pgid')), 30_000);
    const pgid = Number(readFileSync(join(out, 'pgid'), 'utf8'));
    groups.push(pgid);
    app.kill('SIGKILL');
    await exited;
    await until('the script group to die', () => !groupAlive(pgid), 1000);
    expect(existsSync(join(out, 'export.txt'))).toBe(false);

    const store = openStore({ dataDir });
    try {
      expect(store.recoveredRunIds).toHaveLength(1);
      const runId = store.recoveredRunIds[0]!;
      expect(getRun(store.db, runId)).toMatchObject({ status: 'aborted', error: { code: 'run.interrupted' } });
      const steps = getSteps(store.db, runId);
      expect(steps).toEqual([
        expect.objectContaining({
          seq: 1,
          nodeId: 'export',
          primitive: 'run_script',
          outcome: 'interrupted',
          error: expect.stringContaining('ended before the step finished'),
        }),
      ]);
      expect(steps[0]!.endedAt).toBe(steps[0]!.startedAt);
      const allows = [...iterateAudit(store.db, { runId })].map((r) => [r.nodeId, r.decision]);
      expect(allows).toEqual([['export', 'allow']]);
      // The audit row was committed just before the kill: the anchor may lag it, and that verifies.
      expect(verifyAuditChain(store.db)).toMatchObject({ ok: true, count: 1 });
    } finally {
      store.close();
    }
  }, 60_000);
});
