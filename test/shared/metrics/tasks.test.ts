import { describe, expect, it } from 'vitest';
import { assembleTasks, mean, median, share, taskFigures, type TopLevelRunRow } from '../../../src/shared/metrics';

const top = (id: string, o: Partial<TopLevelRunRow> = {}): TopLevelRunRow => ({
  id,
  skillId: 'agent',
  app: null,
  status: 'succeeded',
  dryRun: false,
  goal: 'g',
  startedAt: 0,
  ...o,
});

describe('src/shared/metrics/tasks', () => {
  it('takes the mean and median of steps, and no figure from no data', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 10])).toBe(3.5);
    expect([mean([]), median([])]).toEqual([null, null]);
    expect(share(0, 0)).toEqual({ count: 0, of: 0, rate: null });
    expect(share(0, 3).rate).toBe(0);
  });

  it('leaves out a goal with a dry skill run and a task still running, and sums steps across runs', () => {
    const { tasks, excluded } = assembleTasks({
      topLevel: [top('g1'), top('g2'), top('g3', { status: 'running' }), top('d1', { goal: null, skillId: 'a.x', app: 'a' })],
      children: [
        { id: 'g1a', parentRunId: 'g1', skillId: 'a.x', app: 'a', status: 'succeeded', dryRun: false },
        { id: 'g1b', parentRunId: 'g1', skillId: 'b.y', app: 'b', status: 'failed', dryRun: false },
        { id: 'g2a', parentRunId: 'g2', skillId: 'a.x', app: 'a', status: 'succeeded', dryRun: true },
      ],
      steps: [
        { runId: 'g1a', skillId: 'a.x', primitiveSteps: 2, callSteps: 0 },
        { runId: 'g1b', skillId: 'b.y', primitiveSteps: 3, callSteps: 1 },
        { runId: 'd1', skillId: 'a.x', primitiveSteps: 1, callSteps: 0 },
      ],
    });
    expect(excluded).toEqual({ dryRun: 1, running: 1 });
    expect(tasks.map((t) => [t.id, t.kind, t.apps, t.primitiveSteps, [...t.skills]])).toEqual([
      [
        'g1',
        'goal',
        ['a', 'b'],
        5,
        [
          ['a.x', 1],
          ['b.y', 1],
        ],
      ],
      ['d1', 'direct', ['a'], 1, [['a.x', 1]]],
    ]);
    // b.y is not a library skill here: g1 used one library skill, so it is covered but not composed.
    const f = taskFigures(tasks, (id) => id === 'a.x');
    expect([f.coverage.count, f.multiSkill.count, f.stepsOnSuccess.median]).toEqual([2, 0, 3]);
  });
});
