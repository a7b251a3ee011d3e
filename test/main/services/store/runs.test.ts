import { describe, expect, it } from 'vitest';
import {
  appendStep,
  createRun,
  findRunsByIdPrefix,
  finishRun,
  getRun,
  getSteps,
  listRuns,
  setRunAccounting,
  type NewStep,
} from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const step = (runId: string, seq: number, extra: Partial<NewStep> = {}): NewStep => ({
  runId,
  seq,
  skillId: 'mousepad.save_as',
  nodeId: `n${seq}`,
  primitive: 'hotkey',
  resolvedArgs: { keys: ['ctrl', 's'] },
  startedAt: 100 + seq,
  endedAt: 110 + seq,
  outcome: 'ok',
  ...extra,
});

describe('src/main/services/store/runs', () => {
  it('records a run with its steps and reads back every field', () => {
    const { db } = temp.open();
    const run = createRun(db, {
      id: 'r1',
      skillId: 'mousepad.save_as',
      app: 'mousepad',
      sessionId: 's1',
      args: { path: '/tmp/x.txt' },
      dryRun: true,
      startedAt: 100,
      parentRunId: 'agent-1',
      goal: 'save the file',
      accounting: { tokens: { total: 5 } },
    });
    expect(run).toMatchObject({
      id: 'r1',
      status: 'running',
      endedAt: null,
      dryRun: true,
      parentRunId: 'agent-1',
      goal: 'save the file',
      error: null,
    });
    appendStep(db, step('r1', 0));
    appendStep(
      db,
      step('r1', 1, { depth: 1, app: 'mousepad', outcome: 'failed', error: 'window did not appear', screenshotPath: '/tmp/s1.png' }),
    );
    const finished = finishRun(db, 'r1', {
      status: 'failed',
      error: { code: 'step.timeout', message: 'no window', nodeId: 'n1' },
      endedAt: 120,
      result: 'partial',
    });
    expect(finished).toMatchObject({
      status: 'failed',
      endedAt: 120,
      result: 'partial',
      error: { code: 'step.timeout', nodeId: 'n1' },
      accounting: { tokens: { total: 5 } },
    });
    expect(getSteps(db, 'r1')).toEqual([
      {
        runId: 'r1',
        seq: 0,
        depth: 0,
        skillId: 'mousepad.save_as',
        app: null,
        nodeId: 'n0',
        primitive: 'hotkey',
        resolvedArgs: { keys: ['ctrl', 's'] },
        startedAt: 100,
        endedAt: 110,
        outcome: 'ok',
        error: null,
        screenshotPath: null,
      },
      {
        runId: 'r1',
        seq: 1,
        depth: 1,
        skillId: 'mousepad.save_as',
        app: 'mousepad',
        nodeId: 'n1',
        primitive: 'hotkey',
        resolvedArgs: { keys: ['ctrl', 's'] },
        startedAt: 101,
        endedAt: 111,
        outcome: 'failed',
        error: 'window did not appear',
        screenshotPath: '/tmp/s1.png',
      },
    ]);
  });

  it('generates a UUID id when none is given', () => {
    const { db } = temp.open();
    expect(createRun(db, { skillId: 'calc.evaluate' }).id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('finishes a run once and says why a second finish or an unknown id fails', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 's.a', startedAt: 10 });
    finishRun(db, 'r1', { status: 'succeeded', endedAt: 20 });
    expect(() => finishRun(db, 'r1', { status: 'failed', endedAt: 30 })).toThrow(
      expect.objectContaining({ code: 'store.run_already_finished', message: expect.stringContaining("already ended as 'succeeded'") }),
    );
    expect(getRun(db, 'r1')).toMatchObject({ status: 'succeeded', endedAt: 20 });
    expect(() => finishRun(db, 'nope', { status: 'failed' })).toThrow(expect.objectContaining({ code: 'store.run_not_found' }));
    expect(() => finishRun(db, 'r1', { status: 'running' as never })).toThrow(
      "Expected `status` to be one of 'succeeded', 'failed', 'aborted', got `running` (string)",
    );
  });

  it('refuses a step for an unknown run, a repeated sequence number and a duplicate run id', () => {
    const { db } = temp.open();
    expect(() => appendStep(db, step('ghost', 0))).toThrow(expect.objectContaining({ code: 'store.run_not_found' }));
    createRun(db, { id: 'r1', skillId: 's.a' });
    appendStep(db, step('r1', 0));
    expect(() => appendStep(db, step('r1', 0))).toThrow(expect.objectContaining({ code: 'store.duplicate_step' }));
    expect(() => createRun(db, { id: 'r1', skillId: 's.b' })).toThrow(expect.objectContaining({ code: 'store.duplicate_run' }));
    expect(() => appendStep(db, step('r1', 1, { outcome: 'maybe' as never }))).toThrow(
      /Expected `outcome` to be one of 'ok', 'failed', 'skipped', 'denied'/,
    );
  });

  it('updates accounting while a run is under way', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 'agent.goal' });
    setRunAccounting(db, 'r1', { tokens: { prompt: 10, completion: 3 }, modelMs: 420 });
    expect(getRun(db, 'r1')?.accounting).toEqual({ tokens: { prompt: 10, completion: 3 }, modelMs: 420 });
    expect(() => setRunAccounting(db, 'nope', {})).toThrow(expect.objectContaining({ code: 'store.run_not_found' }));
  });

  it('lists runs newest first, filtered by skill, status, app, parent and time, with a limit', () => {
    const { db } = temp.open();
    const mk = (
      id: string,
      skillId: string,
      startedAt: number,
      status: 'running' | 'succeeded' | 'failed',
      app?: string,
      parentRunId?: string,
    ) => {
      createRun(db, { id, skillId, startedAt, app: app ?? null, parentRunId: parentRunId ?? null });
      if (status !== 'running') finishRun(db, id, { status, endedAt: startedAt + 5 });
    };
    mk('a', 'mousepad.save_as', 1, 'succeeded', 'mousepad');
    mk('b', 'mousepad.save_as', 2, 'failed', 'mousepad', 'a');
    mk('c', 'calc.evaluate', 3, 'succeeded', 'galculator');
    mk('d', 'mousepad.open_file', 4, 'running', 'mousepad', 'a');
    mk('e', 'mousepad.save_as', 5, 'succeeded', 'mousepad');
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(listRuns(db))).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(ids(listRuns(db, { limit: 2 }))).toEqual(['e', 'd']);
    expect(ids(listRuns(db, { skill: 'mousepad.save_as' }))).toEqual(['e', 'b', 'a']);
    expect(ids(listRuns(db, { status: 'succeeded' }))).toEqual(['e', 'c', 'a']);
    expect(ids(listRuns(db, { skill: 'mousepad.save_as', status: 'succeeded', limit: 1 }))).toEqual(['e']);
    expect(ids(listRuns(db, { app: 'galculator' }))).toEqual(['c']);
    expect(ids(listRuns(db, { parentRunId: 'a' }))).toEqual(['d', 'b']);
    expect(ids(listRuns(db, { before: 3 }))).toEqual(['b', 'a']);
    expect(listRuns(db, { skill: 'nobody.ran_this' })).toEqual([]);
    expect(() => listRuns(db, { limit: 0 })).toThrow('Expected `limit` to be an integer >= 1, got `0` (number)');
    expect(() => listRuns(db, { status: 'done' as never })).toThrow(/Expected `status` to be one of 'running'/);
  });

  it('deletes a run together with its steps (steps reference runs with ON DELETE CASCADE)', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 's.a' });
    appendStep(db, step('r1', 0));
    db.prepare("DELETE FROM runs WHERE id = 'r1'").run();
    expect(getSteps(db, 'r1')).toEqual([]);
  });

  it('finds runs by id prefix through the primary key, two hits meaning ambiguous', () => {
    const { db } = temp.open();
    for (const id of ['3f2a0000-aaaa', '3f2a0000-bbbb', '3f2b1111-cccc', '3f2']) createRun(db, { id, skillId: 's.a' });
    expect(findRunsByIdPrefix(db, '3f2b').map((r) => r.id)).toEqual(['3f2b1111-cccc']);
    expect(findRunsByIdPrefix(db, '3f2a').map((r) => r.id)).toEqual(['3f2a0000-aaaa', '3f2a0000-bbbb']);
    expect(findRunsByIdPrefix(db, '3f2', 10).map((r) => r.id)).toEqual(['3f2', '3f2a0000-aaaa', '3f2a0000-bbbb', '3f2b1111-cccc']);
    expect(findRunsByIdPrefix(db, '3f2c')).toEqual([]);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM runs WHERE id >= ? AND id < ?').all('a', 'b') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_runs_1 \(id>\? AND id<\?\)/);
  });
});
