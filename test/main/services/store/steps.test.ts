import { describe, expect, it } from 'vitest';
import { appendStep, createRun, finishRun, getSteps, startStep, type NewStep } from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const started = (seq: number) => ({
  runId: 'r1',
  seq,
  skillId: 'ed.save',
  nodeId: `n${seq}`,
  primitive: 'run_script',
  resolvedArgs: { action: 'run_script', script: 'echo' },
  startedAt: 100 + seq,
});
const finished = (seq: number, extra: Partial<NewStep> = {}): NewStep => ({ ...started(seq), endedAt: 200 + seq, outcome: 'ok', ...extra });

describe('src/main/services/store/steps', () => {
  it('journals a step as started with no end, then finishes the same row with its outcome', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 'ed.save' });
    startStep(db, started(1));
    expect(getSteps(db, 'r1')).toEqual([expect.objectContaining({ seq: 1, outcome: 'started', endedAt: null, error: null })]);
    appendStep(db, finished(1, { outcome: 'failed', error: 'exit 2', screenshotPath: '/tmp/s.png' }));
    expect(getSteps(db, 'r1')).toEqual([
      expect.objectContaining({ seq: 1, outcome: 'failed', startedAt: 101, endedAt: 201, error: 'exit 2', screenshotPath: '/tmp/s.png' }),
    ]);
  });

  it('records a step that never started in one go, and refuses a second start or a second outcome', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 'ed.save' });
    appendStep(db, finished(1, { outcome: 'failed', error: 'bad template' }));
    expect(() => startStep(db, started(1))).toThrow(expect.objectContaining({ code: 'store.duplicate_step' }));
    expect(() => appendStep(db, finished(1))).toThrow(expect.objectContaining({ code: 'store.duplicate_step' }));
    startStep(db, started(2));
    expect(() => startStep(db, started(2))).toThrow(expect.objectContaining({ code: 'store.duplicate_step' }));
    appendStep(db, finished(2));
    expect(() => appendStep(db, finished(2, { outcome: 'denied' }))).toThrow(expect.objectContaining({ code: 'store.duplicate_step' }));
    expect(getSteps(db, 'r1').map((s) => [s.seq, s.outcome])).toEqual([
      [1, 'failed'],
      [2, 'ok'],
    ]);
    expect(() => startStep(db, { ...started(3), runId: 'ghost' })).toThrow(expect.objectContaining({ code: 'store.run_not_found' }));
  });

  it('ends a step its run left started when the run finishes: failed, or skipped when the run was aborted', () => {
    const { db } = temp.open();
    createRun(db, { id: 'r1', skillId: 'ed.save', startedAt: 90 });
    startStep(db, started(1));
    finishRun(db, 'r1', { status: 'failed', endedAt: 150, error: { code: 'store.audit_key', message: 'no key' } });
    expect(getSteps(db, 'r1')).toEqual([
      expect.objectContaining({ outcome: 'failed', endedAt: 150, error: 'The run ended (failed: no key) before this step finished' }),
    ]);

    createRun(db, { id: 'r2', skillId: 'ed.save', startedAt: 90 });
    startStep(db, { ...started(1), runId: 'r2' });
    appendStep(db, { ...finished(2), runId: 'r2' });
    finishRun(db, 'r2', { status: 'aborted', endedAt: 50 });
    expect(getSteps(db, 'r2').map((s) => [s.outcome, s.endedAt])).toEqual([
      ['skipped', 101], // never before it started
      ['ok', 202],
    ]);
  });
});
