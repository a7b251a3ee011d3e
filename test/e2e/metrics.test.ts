import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendStep, createRun, finishRun, openStore } from '../../src/main/services/store';
import { openHostSession, type HostSession } from './helpers/hostSession';

const DAY = 86_400_000;

/**
 * Runs recorded straight into the store of the session's data folder: nothing runs, so this file
 * needs no test desktop (headless Chromium only). Figures worked out by hand in the test.
 */
function recordRuns(dataDir: string): void {
  const store = openStore({ dataDir });
  const now = Date.now();
  let seq = 0;
  const run = (
    id: string,
    skillId: string,
    app: string | null,
    steps: number,
    status: 'succeeded' | 'failed',
    o: { parentRunId?: string; goal?: string; dryRun?: boolean; startedAt?: number } = {},
  ) => {
    const startedAt = o.startedAt ?? now - 3_600_000 + ++seq * 1000;
    createRun(store.db, { id, skillId, app, startedAt, ...o });
    for (let i = 1; i <= steps; i++)
      appendStep(store.db, {
        runId: id,
        seq: i,
        skillId,
        nodeId: `n${i}`,
        primitive: 'key',
        resolvedArgs: {},
        startedAt,
        endedAt: startedAt,
        outcome: 'ok',
      });
    if (skillId !== 'agent') finishRun(store.db, id, { status, endedAt: startedAt + 500 });
  };
  run('goal-1', 'agent', null, 0, 'succeeded', { goal: 'type hi in mousepad and save' });
  run('goal-1a', 'mousepad.type_text', 'mousepad', 2, 'succeeded', { parentRunId: 'goal-1', goal: 'type hi in mousepad and save' });
  run('goal-1b', 'mousepad.save', 'mousepad', 2, 'succeeded', { parentRunId: 'goal-1', goal: 'type hi in mousepad and save' });
  finishRun(store.db, 'goal-1', { status: 'succeeded' });
  run('goal-2', 'agent', null, 0, 'failed', { goal: 'press enter' });
  run('goal-2a', 'Desktop.press_key', 'mousepad', 1, 'failed', { parentRunId: 'goal-2', goal: 'press enter' });
  finishRun(store.db, 'goal-2', { status: 'failed', error: { code: 'agent.failed', message: 'gave up' } });
  run('direct-1', 'mousepad.save', 'mousepad', 2, 'succeeded');
  run('direct-2', 'wine-notepad.save_as', 'wine-notepad', 1, 'failed');
  run('dry', 'mousepad.save', 'mousepad', 2, 'succeeded', { dryRun: true });
  run('old', 'mousepad.type_text', 'mousepad', 1, 'succeeded', { startedAt: now - 10 * DAY });
  store.close();
}

describe('src/renderer Metrics view in host mode (Chromium, real core and store)', () => {
  let s: HostSession;

  beforeAll(async () => {
    s = await openHostSession({ prepareDataDir: recordRuns });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows the five figures and the charts, for every recorded run and for the last 7 days', async () => {
    const { page } = s;
    const figure = (id: string) => page.textContent(`[data-figure=${id}] .figure-value`);
    await page.click('[data-screen=metrics]');
    // Every recorded run: goals 1/2 succeeded, direct runs 2/3 (the old run too), the dry run left out.
    await page.waitForSelector('.figures[data-tasks="5"]');
    expect(await figure('success')).toBe('60%');
    expect(await page.textContent('[data-figure=success] .figure-note')).toContain('goals 50% (1 of 2)');

    await page.selectOption('select[aria-label="metrics window"]', '7d');
    await page.waitForSelector('.figures[data-tasks="4"]');
    // 2 of 4 succeeded; steps on success: goal-1 2 + 2 = 4, direct-1 2: mean 3, median 3.
    expect(await figure('success')).toBe('50%');
    expect(await figure('steps')).toBe('3 / 3');
    // Coverage: every task but goal-2 (a fallback only) ran a library skill: 3/4.
    expect(await figure('coverage')).toBe('75%');
    // Reusability: 3 library skills ran (mousepad.type_text, mousepad.save, wine-notepad.save_as), of hundreds.
    expect(await page.textContent('[data-figure=reusability] .figure-note')).toMatch(/^3 of \d{3,} library skills ran in a task$/);
    // Compositionality: the shipped composites' calls; 1 of 4 tasks (goal-1) ran two library skills.
    expect(await figure('compositionality')).toMatch(/^\d+% · 25%$/);
    expect(await page.textContent('[data-figure=compositionality] .figure-note')).toMatch(
      /^\d+ of \d+ calls in \d+ composites and user skills call another library skill · 1 of 4 tasks ran 2\+ library skills$/,
    );
    expect(await page.textContent('[data-bar="mousepad"]')).toContain('67% of 3');
    expect(await page.textContent('[data-bar="wine-notepad"]')).toContain('0% of 1');
    expect(await page.textContent('[data-bar="mousepad.save"]')).toContain('2 tasks');
    expect(await page.textContent('[data-bar="Desktop.press_key"]')).toContain('1 task · fallback');
    expect(await page.textContent('tr[data-kind="direct runs"]')).toContain('50%');
    await s.screenshot('metrics');
    expect(s.pageErrors).toEqual([]);
  });
});
