import { describe, expect, it } from 'vitest';
import { addMemory, listMemory, type NewMemory } from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const memo = (step: number, extra: Partial<NewMemory> = {}): NewMemory => ({
  sessionId: 's1',
  goal: 'write hello to /tmp/h.txt',
  step,
  intent: `step ${step}`,
  skillId: 'TextEditor.write_file',
  args: { path: '/tmp/h.txt' },
  outcome: 'succeeded',
  summary: `did step ${step}`,
  createdAt: 100 + step,
  ...extra,
});

describe('src/main/services/store/memory', () => {
  it('stores entries, failures included, and returns the most recent ones oldest first', () => {
    const { db } = temp.open();
    for (let i = 0; i < 5; i++)
      addMemory(db, memo(i, i === 3 ? { outcome: 'invalid_args', skillId: null, summary: 'model gave path=42' } : {}));
    addMemory(db, memo(0, { sessionId: 's2' }));
    const recent = listMemory(db, { sessionId: 's1', limit: 3 });
    expect(recent.map((m) => m.step)).toEqual([2, 3, 4]);
    expect(recent[1]).toMatchObject({
      outcome: 'invalid_args',
      skillId: null,
      runId: null,
      summary: 'model gave path=42',
      args: { path: '/tmp/h.txt' },
      createdAt: 103,
    });
    expect(listMemory(db, { sessionId: 's2' })).toHaveLength(1);
    expect(listMemory(db)).toHaveLength(6);
  });

  it('finds the entries of a run, and accepts a run id the store has never seen', () => {
    const { db } = temp.open();
    const row = addMemory(db, memo(0, { runId: 'run-kept-elsewhere' }));
    expect(listMemory(db, { runId: 'run-kept-elsewhere' })).toEqual([row]);
  });

  it('rejects an entry without an outcome or with a negative step', () => {
    const { db } = temp.open();
    expect(() => addMemory(db, memo(0, { outcome: '' }))).toThrow('Expected `outcome` to be a non-empty string, got `` (string)');
    expect(() => addMemory(db, memo(-1))).toThrow(/Expected `step` to be a non-negative integer/);
  });
});
