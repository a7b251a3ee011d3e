import type { StepOutcome } from '../../../../../src/shared/run';
import { appendStep, createRun, finishRun, startStep, type StoreDb } from '../../../../../src/main/services/store';

/** When the fixture's window ends; its window starts 7 days earlier. */
export const METRICS_NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
export const METRICS_SINCE = METRICS_NOW - 7 * 86_400_000;
const HOUR = 3_600_000;

type StepSpec = [skillId: string, primitive: string, outcome?: StepOutcome];

/**
 * Records the runs the metrics tests compute by hand, against the tiny library in
 * test/fixtures/metrics-library (apps pad and memo; Desktop.press_key is the fallback).
 *
 * Agent goals (a `runs` row with skill `agent` and the goal; skill runs point at it):
 *   G1 succeeded: pad.type_text on pad [type_text]; Notes.write on pad [call, type_text(pad.type_text), call, hotkey(pad.save)]
 *   G2 failed:    Desktop.press_key on memo [key]; memo.save on memo, failed [hotkey failed]
 *   G3 succeeded: Desktop.press_key on pad [key]; Desktop.press_key on memo [key]  (fallbacks only, two apps)
 *   G4 failed:    no skill run (the planner could not map the goal)
 *   G5 dry:       recorded before goals carried their dry flag: only its child run is marked dry
 * Direct runs (no parent, no goal):
 *   D1 succeeded: pad.macro (user skill) [call, hotkey+key(pad.clear), call, key(Desktop.press_key), call, hotkey(pad.save)]
 *   D2 succeeded: memo.type_text [type_text]
 *   D3 aborted:   memo.save [hotkey skipped]
 *   D4 failed:    pad.clear [hotkey, key failed]
 *   D7 succeeded: pad.type_text [type_text]
 *   D5 still running: pad.type_text [type_text started]
 *   D8 dry run:   memo.type_text [type_text]
 *   D6 outside the 7-day window (8 days old), succeeded: pad.save [hotkey]
 *   orphan: a pad.clear run whose parent was never stored [hotkey, key]
 */
export function recordMetricsRuns(db: StoreDb): void {
  let clock = METRICS_SINCE + HOUR;
  const run = (
    id: string,
    o: { skillId: string; app?: string; goal?: string; parentRunId?: string; dryRun?: boolean; startedAt?: number },
    steps: StepSpec[],
    status: 'succeeded' | 'failed' | 'aborted' | 'running',
  ) => {
    const startedAt = o.startedAt ?? (clock += HOUR);
    createRun(db, {
      id,
      skillId: o.skillId,
      app: o.app ?? null,
      goal: o.goal ?? null,
      parentRunId: o.parentRunId ?? null,
      dryRun: o.dryRun ?? false,
      startedAt,
      args: o.goal ? { planner: 'offline' } : {},
    });
    steps.forEach(([skillId, primitive, outcome = 'ok'], i) => {
      const step = {
        runId: id,
        seq: i + 1,
        skillId,
        nodeId: `n${i + 1}`,
        primitive,
        resolvedArgs: {},
        startedAt: startedAt + i,
        app: o.app ?? null,
      };
      if (status === 'running') startStep(db, step);
      else appendStep(db, { ...step, endedAt: startedAt + i + 1, outcome });
    });
    if (status !== 'running') finishRun(db, id, { status, endedAt: startedAt + 1000 });
  };
  const goal = (id: string, text: string, status: 'succeeded' | 'failed', children: () => void) => {
    run(id, { skillId: 'agent', goal: text }, [], 'running');
    children();
    finishRun(db, id, { status, endedAt: clock + 1000 });
  };

  goal('G1', 'write hello in pad and save', 'succeeded', () => {
    run(
      'G1a',
      { skillId: 'pad.type_text', app: 'pad', goal: 'write hello in pad and save', parentRunId: 'G1' },
      [['pad.type_text', 'type_text']],
      'succeeded',
    );
    run(
      'G1b',
      { skillId: 'Notes.write', app: 'pad', goal: 'write hello in pad and save', parentRunId: 'G1' },
      [
        ['Notes.write', 'call'],
        ['pad.type_text', 'type_text'],
        ['Notes.write', 'call'],
        ['pad.save', 'hotkey'],
      ],
      'succeeded',
    );
  });
  goal('G2', 'save memo', 'failed', () => {
    run(
      'G2a',
      { skillId: 'Desktop.press_key', app: 'memo', goal: 'save memo', parentRunId: 'G2' },
      [['Desktop.press_key', 'key']],
      'succeeded',
    );
    run('G2b', { skillId: 'memo.save', app: 'memo', goal: 'save memo', parentRunId: 'G2' }, [['memo.save', 'hotkey', 'failed']], 'failed');
  });
  goal('G3', 'press enter in pad and memo', 'succeeded', () => {
    run('G3a', { skillId: 'Desktop.press_key', app: 'pad', goal: 'g3', parentRunId: 'G3' }, [['Desktop.press_key', 'key']], 'succeeded');
    run('G3b', { skillId: 'Desktop.press_key', app: 'memo', goal: 'g3', parentRunId: 'G3' }, [['Desktop.press_key', 'key']], 'succeeded');
  });
  goal('G4', 'juggle', 'failed', () => undefined);
  goal('G5', 'type hi in memo (dry)', 'succeeded', () => {
    run(
      'G5a',
      { skillId: 'memo.type_text', app: 'memo', goal: 'g5', parentRunId: 'G5', dryRun: true },
      [['memo.type_text', 'type_text']],
      'succeeded',
    );
  });

  run(
    'D1',
    { skillId: 'pad.macro', app: 'pad' },
    [
      ['pad.macro', 'call'],
      ['pad.clear', 'hotkey'],
      ['pad.clear', 'key'],
      ['pad.macro', 'call'],
      ['Desktop.press_key', 'key'],
      ['pad.macro', 'call'],
      ['pad.save', 'hotkey'],
    ],
    'succeeded',
  );
  run('D2', { skillId: 'memo.type_text', app: 'memo' }, [['memo.type_text', 'type_text']], 'succeeded');
  run('D3', { skillId: 'memo.save', app: 'memo' }, [['memo.save', 'hotkey', 'skipped']], 'aborted');
  run(
    'D4',
    { skillId: 'pad.clear', app: 'pad' },
    [
      ['pad.clear', 'hotkey'],
      ['pad.clear', 'key', 'failed'],
    ],
    'failed',
  );
  run('D7', { skillId: 'pad.type_text', app: 'pad' }, [['pad.type_text', 'type_text']], 'succeeded');
  run('D5', { skillId: 'pad.type_text', app: 'pad' }, [['pad.type_text', 'type_text']], 'running');
  run('D8', { skillId: 'memo.type_text', app: 'memo', dryRun: true }, [['memo.type_text', 'type_text']], 'succeeded');
  run('D6', { skillId: 'pad.save', app: 'pad', startedAt: METRICS_NOW - 8 * 86_400_000 }, [['pad.save', 'hotkey']], 'succeeded');
  run(
    'orphan',
    { skillId: 'pad.clear', app: 'pad', parentRunId: 'never-stored' },
    [
      ['pad.clear', 'hotkey'],
      ['pad.clear', 'key'],
    ],
    'succeeded',
  );
}
