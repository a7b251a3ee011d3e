import { describe, expect, it } from 'vitest';
import {
  appBars,
  createMetricsStore,
  percent,
  skillBars,
  type MetricsBridge,
} from '../../../../src/renderer/src/features/metrics/metricsStore';
import type { IpcResult } from '../../../../src/shared/ipc';
import { computeMetrics, type MetricsView } from '../../../../src/shared/metrics';
import { SkillLibrary } from '../../../../src/shared/skill/library';

const NOW = 1_000_000_000_000;

function emptyView(since: number | null): MetricsView {
  return computeMetrics({ topLevel: [], children: [], steps: [] }, new SkillLibrary([]), { since, until: NOW });
}

describe('src/renderer/src/features/metrics/metricsStore', () => {
  it('asks for the window the user picks, counted back from now, and for everything by default', async () => {
    const requests: unknown[] = [];
    const bridge: MetricsBridge = {
      metricsGet: async (r) => {
        requests.push(r);
        return { ok: true, value: emptyView(r.since ?? null) };
      },
    };
    const store = createMetricsStore(bridge, () => NOW);
    await store.getState().load();
    await store.getState().setWindow('7d');
    expect(requests).toEqual([{}, { since: NOW - 7 * 86_400_000 }]);
    expect(store.getState()).toMatchObject({ window: '7d', loading: false, view: { window: { since: NOW - 7 * 86_400_000 } } });
  });

  it('drops the answer for a window the user has left, and shows an error as data', async () => {
    const pending: ((r: IpcResult<MetricsView>) => void)[] = [];
    const bridge: MetricsBridge = { metricsGet: () => new Promise((resolve) => pending.push(resolve)) };
    const store = createMetricsStore(bridge, () => NOW);
    const first = store.getState().setWindow('24h');
    const second = store.getState().setWindow('all');
    pending[1]!({ ok: true, value: emptyView(null) });
    pending[0]!({ ok: true, value: emptyView(NOW - 86_400_000) });
    await Promise.all([first, second]);
    expect(store.getState().view?.window.since).toBeNull();
    const failing = createMetricsStore({
      metricsGet: async () => ({ ok: false, error: { code: 'metrics.no_store', message: 'no store' } }),
    });
    await failing.getState().load();
    expect(failing.getState()).toMatchObject({ loading: false, error: { code: 'metrics.no_store' } });
  });

  it('turns the view into bars: success per app, and tasks of the most used skills', () => {
    const view: MetricsView = {
      ...emptyView(null),
      byApp: [
        { app: 'pad', tasks: 5, succeeded: 4, success: { count: 4, of: 5, rate: 0.8 } },
        { app: null, tasks: 1, succeeded: 0, success: { count: 0, of: 1, rate: 0 } },
      ],
      bySkill: [
        { skillId: 'Desktop.press_key', kind: 'fallback', tasks: 3, runs: 4 },
        { skillId: 'pad.save', kind: 'implementation', tasks: 1, runs: 1 },
      ],
    };
    expect(appBars(view)).toEqual([
      { label: 'pad', value: 0.8, max: 1, text: '80% of 5' },
      { label: '(no app)', value: 0, max: 1, text: '0% of 1' },
    ]);
    expect(skillBars(view, 1)).toEqual([{ label: 'Desktop.press_key', value: 3, max: 3, text: '3 tasks · fallback' }]);
    expect(percent({ count: 0, of: 0, rate: null })).toBe('–');
  });
});
