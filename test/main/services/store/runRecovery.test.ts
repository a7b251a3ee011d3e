import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendStep,
  createRun,
  finishRun,
  getRun,
  getSteps,
  ownerState,
  recoverInterruptedRuns,
} from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

describe('src/main/services/store/runRecovery', () => {
  it('marks a run left running by a killed process as aborted (interrupted) at the next open, and the step it was in as interrupted', () => {
    const dataDir = temp.dir();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'fixtures', 'crashDuringRun.ts'), dataDir, 'crashed-run'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('step recorded\n');
    expect(child.signal).toBe('SIGKILL');

    const store = temp.open({ now: () => 5_000 }, dataDir);
    expect(store.recoveredRunIds).toEqual(['crashed-run']);
    const run = getRun(store.db, 'crashed-run');
    expect(run).toMatchObject({
      status: 'aborted',
      endedAt: 1_030,
      args: { path: 'C:\\a.txt' },
      error: { code: 'run.interrupted', reason: 'interrupted', recoveredAt: 5_000 },
    });
    const steps = getSteps(store.db, 'crashed-run');
    expect(steps.map((s) => [s.nodeId, s.outcome, s.endedAt])).toEqual([
      ['focus', 'ok', 1_020],
      ['save', 'interrupted', 1_030], // when it ended is unknown: at its start
    ]);
    expect(steps[1]!.error).toMatch(
      /^The process running this step \(pid \d+\) ended before the step finished: its effect may have happened/,
    );
  });

  it('leaves a run alone while the process that owns it is alive', () => {
    const dataDir = temp.dir();
    const app = temp.open({}, dataDir);
    createRun(app.db, { id: 'live', skillId: 's.a' });
    const cli = temp.open({}, dataDir); // a second process opening the same store
    expect(cli.recoveredRunIds).toEqual([]);
    expect(getRun(cli.db, 'live')?.status).toBe('running');
    finishRun(app.db, 'live', { status: 'succeeded' });
    expect(getRun(cli.db, 'live')?.status).toBe('succeeded');
  });

  it('ends a recovered run at its last step, or at its start when it has none', () => {
    const { db } = temp.open();
    createRun(db, { id: 'with-steps', skillId: 's.a', startedAt: 100 });
    appendStep(db, {
      runId: 'with-steps',
      seq: 0,
      skillId: 's.a',
      nodeId: 'n',
      primitive: 'key',
      resolvedArgs: {},
      startedAt: 150,
      endedAt: 180,
      outcome: 'ok',
    });
    createRun(db, { id: 'no-steps', skillId: 's.a', startedAt: 300 });
    createRun(db, { id: 'done', skillId: 's.a', startedAt: 1 });
    finishRun(db, 'done', { status: 'succeeded', endedAt: 2 });
    const recovered = recoverInterruptedRuns(db, { now: 999, ownerState: () => 'gone' });
    expect(recovered.sort()).toEqual(['no-steps', 'with-steps']);
    expect(getRun(db, 'with-steps')).toMatchObject({ status: 'aborted', endedAt: 180 });
    expect(getRun(db, 'no-steps')).toMatchObject({ status: 'aborted', endedAt: 300 });
    expect(getRun(db, 'done')).toMatchObject({ status: 'succeeded', endedAt: 2 });
    expect(recoverInterruptedRuns(db, { ownerState: () => 'gone' })).toEqual([]);
  });

  it('tells a live owner from a dead one, and a pid from before a reboot as dead', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    expect(ownerState(process.pid, null)).toBe('alive');
    expect(ownerState(Number(dead.stdout), null)).toBe('gone');
    expect(ownerState(null, null)).toBe('gone');
    expect(ownerState(process.pid, Date.now() - 400 * 86_400_000)).toBe('gone');
  });
});
