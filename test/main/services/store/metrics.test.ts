import { describe, expect, it } from 'vitest';
import { createRun, listChildRuns, listTopLevelRuns, readMetricsRows, tallyStepsBySkill } from '../../../../src/main/services/store';
import { METRICS_NOW, METRICS_SINCE, recordMetricsRuns } from './helpers/metricsRuns';
import { useTempStores } from './helpers/tempDir';

describe('src/main/services/store/metrics', () => {
  const stores = useTempStores();

  it('reads the top-level runs started in the window, dry and running ones included', () => {
    const { db } = stores.open();
    recordMetricsRuns(db);
    const top = listTopLevelRuns(db, METRICS_SINCE);
    // Oldest first; D6 is 8 days old, the orphan has a parent id.
    expect(top.map((r) => r.id)).toEqual(['G1', 'G2', 'G3', 'G4', 'G5', 'D1', 'D2', 'D3', 'D4', 'D7', 'D5', 'D8']);
    expect(top.find((r) => r.id === 'G1')).toMatchObject({
      skillId: 'agent',
      app: null,
      goal: 'write hello in pad and save',
      status: 'succeeded',
    });
    expect(top.find((r) => r.id === 'D8')).toMatchObject({ dryRun: true, goal: null });
    expect(top.find((r) => r.id === 'D5')?.status).toBe('running');
    expect(listTopLevelRuns(db).map((r) => r.id)).toContain('D6');
  });

  it('reads the children of the window’s top-level runs, and none of a parent never stored', () => {
    const { db } = stores.open();
    recordMetricsRuns(db);
    const children = listChildRuns(db, METRICS_SINCE);
    expect(children.map((c) => `${c.parentRunId}/${c.id}`)).toEqual(['G1/G1a', 'G1/G1b', 'G2/G2a', 'G2/G2b', 'G3/G3a', 'G3/G3b', 'G5/G5a']);
    expect(children.find((c) => c.id === 'G5a')).toMatchObject({ dryRun: true, skillId: 'memo.type_text', app: 'memo' });
    // A child follows its goal's start: a goal inside the window keeps a child started before it.
    createRun(db, { id: 'late-goal', skillId: 'agent', goal: 'g', startedAt: METRICS_NOW - 1000 });
    createRun(db, { id: 'early-child', skillId: 'pad.save', parentRunId: 'late-goal', startedAt: METRICS_SINCE - 1000 });
    expect(listChildRuns(db, METRICS_SINCE).map((c) => c.id)).toContain('early-child');
    expect(listChildRuns(db, METRICS_NOW - 2000).map((c) => c.id)).toEqual(['early-child']);
    expect(listChildRuns(db).some((c) => c.id === 'orphan')).toBe(false);
  });

  it('tallies steps per run and skill, call steps apart', () => {
    const { db } = stores.open();
    recordMetricsRuns(db);
    const tallies = tallyStepsBySkill(db, METRICS_SINCE);
    expect(tallies.filter((t) => t.runId === 'D1')).toEqual([
      { runId: 'D1', skillId: 'Desktop.press_key', primitiveSteps: 1, callSteps: 0 },
      { runId: 'D1', skillId: 'pad.clear', primitiveSteps: 2, callSteps: 0 },
      { runId: 'D1', skillId: 'pad.macro', primitiveSteps: 0, callSteps: 3 },
      { runId: 'D1', skillId: 'pad.save', primitiveSteps: 1, callSteps: 0 },
    ]);
    // The children's steps follow their goal into the window; D6's stay out.
    expect(tallies.filter((t) => t.runId === 'G1b').map((t) => [t.skillId, t.primitiveSteps, t.callSteps])).toEqual([
      ['Notes.write', 0, 2],
      ['pad.save', 1, 0],
      ['pad.type_text', 1, 0],
    ]);
    expect(tallies.some((t) => t.runId === 'D6')).toBe(false);
    expect(tallyStepsBySkill(db).some((t) => t.runId === 'D6')).toBe(true);
  });

  it('reads the three together', () => {
    const { db } = stores.open();
    recordMetricsRuns(db);
    const rows = readMetricsRows(db, METRICS_SINCE);
    expect([rows.topLevel.length, rows.children.length]).toEqual([12, 7]);
    expect(rows.steps).toEqual(tallyStepsBySkill(db, METRICS_SINCE));
  });
});
