import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { coreMetrics, storedMetrics } from '../../../src/main/core/metrics';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import type { SkillLibrary } from '../../../src/shared/skill/library';
import { METRICS_NOW, METRICS_SINCE, recordMetricsRuns } from '../services/store/helpers/metricsRuns';
import { useTempStores } from '../services/store/helpers/tempDir';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'metrics-library');

describe('src/main/core/metrics', () => {
  const stores = useTempStores();
  let library: SkillLibrary;

  beforeAll(async () => {
    const loaded = await loadLibrary({ builtinDir: join(FIXTURE, 'builtin'), userDir: join(FIXTURE, 'user') });
    expect(loaded.problems).toEqual([]);
    library = loaded.library;
  });

  it('computes every figure from a real store file as worked out by hand', () => {
    const store = stores.open();
    recordMetricsRuns(store.db);
    const m = storedMetrics(store.db, library, { since: METRICS_SINCE, now: METRICS_NOW });

    expect(m.window).toEqual({ since: METRICS_SINCE, until: METRICS_NOW });
    // Dry: D8 (its own flag) and G5 (its child's flag). Running: D5. D6 is outside the window and
    // the orphan run has no stored parent: neither is a task at all.
    expect(m.excluded).toEqual({ dryRun: 2, running: 1 });

    // 1. Success rate. Goals G1 ok, G2 failed, G3 ok, G4 failed: 2/4.
    expect(m.tasks.goals).toMatchObject({ tasks: 4, succeeded: 2, failed: 2, aborted: 0, success: { count: 2, of: 4, rate: 0.5 } });
    // Direct D1 ok, D2 ok, D3 aborted, D4 failed, D7 ok: 3/5.
    expect(m.tasks.direct).toMatchObject({ tasks: 5, succeeded: 3, failed: 1, aborted: 1, success: { count: 3, of: 5, rate: 0.6 } });
    // All nine: 5/9.
    expect(m.tasks.all).toMatchObject({ tasks: 9, succeeded: 5, failed: 3, aborted: 1, success: { count: 5, of: 9, rate: 5 / 9 } });

    // 2. Primitive steps per successful task, call steps excluded.
    // G1: G1a 1 + G1b 2 (type_text, hotkey; its 2 calls excluded) = 3. G3: 1 + 1 = 2. Mean 2.5, median 2.5.
    expect(m.tasks.goals.stepsOnSuccess).toEqual({ tasks: 2, mean: 2.5, median: 2.5 });
    // D1: hotkey, key, key, hotkey = 4 (3 calls excluded). D2: 1. D7: 1. Mean 6/3 = 2, median of [1, 1, 4] = 1.
    expect(m.tasks.direct.stepsOnSuccess).toEqual({ tasks: 3, mean: 2, median: 1 });
    // All: [3, 2, 4, 1, 1]: mean 11/5 = 2.2, median of [1, 1, 2, 3, 4] = 2.
    expect(m.tasks.all.stepsOnSuccess).toEqual({ tasks: 5, mean: 2.2, median: 2 });

    // 3. Reusability. Library skills, the fallback Desktop.press_key apart: Notes.write, Notes.greet,
    // memo.save, memo.type_text, pad.clear, pad.save, pad.type_text, pad.macro = 8. Every one ran in
    // a counted task but Notes.greet (memo.type_text ran in D2, not only in the dry D8 and G5): 7/8.
    expect(m.reusability).toEqual({ count: 7, of: 8, rate: 7 / 8 });

    // 4. Coverage: a task that ran at least one library skill. G1 yes, G2 yes (memo.save, though it
    // failed), G3 no (fallbacks only), G4 no (no skill): 2/4. Every direct run: 5/5. All: 7/9.
    expect(m.tasks.goals.coverage).toEqual({ count: 2, of: 4, rate: 0.5 });
    expect(m.tasks.direct.coverage).toEqual({ count: 5, of: 5, rate: 1 });
    expect(m.tasks.all.coverage).toEqual({ count: 7, of: 9, rate: 7 / 9 });

    // 5a. Call nodes of the composites (Notes.write: 2 calls, both to library skills; Notes.greet:
    // Desktop.press_key, a fallback, and Notes.type_text) and the user skill pad.macro (pad.clear,
    // Desktop.press_key, Notes.save): 7 call nodes, 2 + 1 + 2 = 5 to library skills. The fallback
    // composite Desktop.press_key is not a library skill, so it is not among them.
    expect(m.compositionality.skills).toEqual({ count: 5, of: 7, rate: 5 / 7, skills: 3, skillsWithCalls: 3 });
    // 5b. Tasks that ran two or more distinct library skills: G1 (pad.type_text, Notes.write,
    // pad.save) and D1 (pad.macro, pad.clear, pad.save); G2 ran one library skill and a fallback.
    expect(m.tasks.goals.multiSkill).toEqual({ count: 1, of: 4, rate: 0.25 });
    expect(m.tasks.direct.multiSkill).toEqual({ count: 1, of: 5, rate: 0.2 });
    expect(m.compositionality.tasks).toEqual({ count: 2, of: 9, rate: 2 / 9 });

    // Per skill: tasks it ran in, and runs (G1 ran pad.type_text in both its runs).
    expect(m.bySkill).toEqual([
      { skillId: 'Desktop.press_key', kind: 'fallback', tasks: 3, runs: 4 }, // G2a, G3a, G3b, D1
      { skillId: 'pad.type_text', kind: 'implementation', tasks: 2, runs: 3 }, // G1a, G1b, D7
      { skillId: 'memo.save', kind: 'implementation', tasks: 2, runs: 2 }, // G2b, D3
      { skillId: 'pad.clear', kind: 'app_skill', tasks: 2, runs: 2 }, // D1, D4
      { skillId: 'pad.save', kind: 'implementation', tasks: 2, runs: 2 }, // G1b, D1
      { skillId: 'memo.type_text', kind: 'implementation', tasks: 1, runs: 1 }, // D2
      { skillId: 'Notes.write', kind: 'composite', tasks: 1, runs: 1 }, // G1b
      { skillId: 'pad.macro', kind: 'app_skill', tasks: 1, runs: 1 }, // D1
    ]);
    // Per app: a task counts for each app its runs name; G3 ran on both.
    expect(m.byApp).toEqual([
      { app: 'pad', tasks: 5, succeeded: 4, success: { count: 4, of: 5, rate: 0.8 } }, // G1, G3, D1, D7 ok; D4 failed
      { app: 'memo', tasks: 4, succeeded: 2, success: { count: 2, of: 4, rate: 0.5 } }, // G3, D2 ok; G2 failed, D3 aborted
      { app: null, tasks: 1, succeeded: 0, success: { count: 0, of: 1, rate: 0 } }, // G4 ran no skill
    ]);
  });

  it('counts every recorded task when no window is given', () => {
    const store = stores.open();
    recordMetricsRuns(store.db);
    const m = storedMetrics(store.db, library, { now: METRICS_NOW });
    expect(m.window.since).toBeNull();
    // D6 (pad.save, succeeded, 1 step) joins the direct runs: 4/6; the mean steps become (6 + 1) / 4.
    expect(m.tasks.direct).toMatchObject({ tasks: 6, succeeded: 4, success: { rate: 4 / 6 }, stepsOnSuccess: { mean: 7 / 4, median: 1 } });
    expect(m.tasks.goals.tasks).toBe(4);
    expect(m.excluded).toEqual({ dryRun: 2, running: 1 });
  });

  it('answers zero tasks with empty rates (not 0%) and refuses a core without a store', async () => {
    const store = stores.open();
    const m = await coreMetrics({ db: store.db, loadLibrary: async () => ({ library }) }, { since: METRICS_SINCE });
    expect(m.tasks.all).toMatchObject({ tasks: 0, success: { rate: null }, stepsOnSuccess: { mean: null, median: null } });
    expect(m.reusability).toEqual({ count: 0, of: 8, rate: 0 });
    await expect(coreMetrics({ loadLibrary: async () => ({ library }) })).rejects.toMatchObject({ code: 'metrics.no_store' });
  });
});
