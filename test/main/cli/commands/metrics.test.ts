import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../src/main/cli';
import { appendStep, createRun, finishRun, openStore } from '../../../../src/main/services/store';
import type { MetricsView } from '../../../../src/shared/metrics';

const DAY = 86_400_000;

describe('src/main/cli/commands/metrics', () => {
  let dataDir: string;

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['--data-dir', dataDir, 'metrics', ...argv], { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-metrics-cli-'));
    const store = openStore({ dataDir });
    const now = Date.now();
    const run = (id: string, skillId: string, startedAt: number, o: { parentRunId?: string; goal?: string; dryRun?: boolean } = {}) => {
      createRun(store.db, { id, skillId, app: skillId === 'agent' ? null : 'mousepad', startedAt, ...o });
      if (skillId === 'agent') return;
      for (const [i, primitive] of ['focus_window', 'hotkey'].entries())
        appendStep(store.db, {
          runId: id,
          seq: i + 1,
          skillId,
          nodeId: `n${i}`,
          primitive,
          resolvedArgs: {},
          startedAt,
          endedAt: startedAt + 1,
          outcome: 'ok',
        });
      finishRun(store.db, id, { status: 'succeeded', endedAt: startedAt + 10 });
    };
    // A goal (succeeded) with two skill runs, a direct run, a dry run, and a direct run 10 days old.
    run('goal', 'agent', now - 3_600_000, { goal: 'type hi and save' });
    run('goal-a', 'mousepad.type_text', now - 3_500_000, { parentRunId: 'goal', goal: 'type hi and save' });
    run('goal-b', 'mousepad.save', now - 3_400_000, { parentRunId: 'goal', goal: 'type hi and save' });
    finishRun(store.db, 'goal', { status: 'succeeded', endedAt: now - 3_300_000 });
    run('direct', 'mousepad.save', now - 2 * 3_600_000);
    run('dry', 'mousepad.save', now - 3_600_000, { dryRun: true });
    run('old', 'mousepad.type_text', now - 10 * DAY);
    store.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints every figure as JSON, for every recorded task or those of a window', async () => {
    const all = await cli('--json');
    expect(all.code).toBe(0);
    const m = JSON.parse(all.out) as MetricsView;
    expect(m.window.since).toBeNull();
    expect(m.excluded).toEqual({ dryRun: 1, running: 0 });
    expect(m.tasks.goals).toMatchObject({ tasks: 1, success: { rate: 1 }, stepsOnSuccess: { mean: 4 } });
    expect(m.tasks.direct).toMatchObject({ tasks: 2, success: { rate: 1 }, stepsOnSuccess: { mean: 2, median: 2 } });
    expect(m.tasks.all.multiSkill).toEqual({ count: 1, of: 3, rate: 1 / 3 });
    expect(m.bySkill).toEqual([
      { skillId: 'mousepad.save', kind: 'implementation', tasks: 2, runs: 2 },
      { skillId: 'mousepad.type_text', kind: 'implementation', tasks: 2, runs: 2 },
    ]);
    expect(m.reusability.count).toBe(2);
    // The shipped library: hundreds of skills, and composites that call its other skills.
    expect(m.reusability.of).toBeGreaterThan(100);
    expect(m.compositionality.skills.of).toBeGreaterThan(0);

    const week = JSON.parse((await cli('--since', '7d', '--json')).out) as MetricsView;
    expect(week.window.since).toBeGreaterThan(Date.now() - 7 * DAY - 60_000);
    expect(week.tasks.direct.tasks).toBe(1);
    expect(week.bySkill.find((s) => s.skillId === 'mousepad.type_text')?.tasks).toBe(1);
    const iso = JSON.parse((await cli('--since', new Date(Date.now() - DAY).toISOString(), '--json')).out) as MetricsView;
    expect(iso.tasks.all.tasks).toBe(2);
  });

  it('prints a table of the figures', async () => {
    const r = await cli('--since', '24h');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^FIGURE +AGENT GOALS +DIRECT RUNS +ALL TASKS$/m);
    expect(r.out).toMatch(/^success rate +100% \(1\/1\) +100% \(1\/1\) +100% \(2\/2\)$/m);
    expect(r.out).toMatch(/^steps per success \(mean \/ median\) +4 \/ 4 +2 \/ 2 +3 \/ 3$/m);
    expect(r.out).toMatch(/^mousepad +2 +100% \(2\/2\)$/m);
    expect(r.out).toMatch(/^mousepad\.save +implementation +2 +2$/m);
    expect(r.out).toContain('Left out: 1 dry run, 0 still running.');
  });

  it('refuses a --since that is neither a time nor an age, saying what it expected', async () => {
    const r = await cli('--since', 'last week');
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: Expected `--since` to be an ISO time, epoch ms or an age like 30m/2h/7d, got `last week`');
    expect(r.out).toBe('');
  });
});
