import { createStore, type StoreApi } from 'zustand/vanilla';
import type { IpcError, SkillDeskBridge } from '../../../../shared/ipc';
import type { MetricsView, Share } from '../../../../shared/metrics';

export type MetricsBridge = Pick<SkillDeskBridge, 'metricsGet'>;

/** The windows the view offers: tasks started in the last day, week, month, or ever. */
export const METRICS_WINDOWS = [
  { id: '24h', label: 'last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'last 30 days', ms: 30 * 86_400_000 },
  { id: 'all', label: 'all recorded runs', ms: null },
] as const;
export type MetricsWindow = (typeof METRICS_WINDOWS)[number]['id'];

export interface MetricsState {
  window: MetricsWindow;
  view?: MetricsView;
  loading: boolean;
  error?: IpcError;
  /** Computes the figures for the current window, from now. */
  load(): Promise<void>;
  setWindow(window: MetricsWindow): Promise<void>;
}

/** The skill metrics (docs/metrics.md) of the recorded runs, over a window the user picks. */
export function createMetricsStore(bridge: MetricsBridge, now: () => number = Date.now): StoreApi<MetricsState> {
  return createStore<MetricsState>((set, get) => {
    // Bumped by every load: the answer for a window the user has since left is dropped.
    let generation = 0;
    return {
      window: 'all',
      loading: false,
      async load() {
        const mine = ++generation;
        const ms = METRICS_WINDOWS.find((w) => w.id === get().window)?.ms ?? null;
        set({ loading: true });
        const r = await bridge.metricsGet(ms === null ? {} : { since: Math.max(0, now() - ms) });
        if (mine !== generation) return;
        set(r.ok ? { view: r.value, loading: false, error: undefined } : { loading: false, error: r.error });
      },
      async setWindow(window) {
        set({ window });
        await get().load();
      },
    };
  });
}

/** `57%`, or `–` when there is nothing to measure. */
export function percent(s: Share): string {
  return s.rate === null ? '–' : `${Math.round(s.rate * 100)}%`;
}

/** `4 of 7`. */
export function fraction(s: Share): string {
  return `${s.count} of ${s.of}`;
}

/** One bar of a chart: its length is `value / max`. */
export interface Bar {
  label: string;
  value: number;
  max: number;
  /** Shown after the bar. */
  text: string;
}

/** Success per app, most tasks first: bars of the success rate. */
export function appBars(view: MetricsView): Bar[] {
  return view.byApp.map((a) => ({
    label: a.app ?? '(no app)',
    value: a.success.rate ?? 0,
    max: 1,
    text: `${percent(a.success)} of ${a.tasks}`,
  }));
}

/** The `limit` most used skills: bars of the tasks each ran in. */
export function skillBars(view: MetricsView, limit = 10): Bar[] {
  const top = view.bySkill.slice(0, limit);
  const max = Math.max(1, ...top.map((s) => s.tasks));
  return top.map((s) => ({
    label: s.skillId,
    value: s.tasks,
    max,
    text: `${s.tasks} task${s.tasks === 1 ? '' : 's'}${s.kind === 'fallback' ? ' · fallback' : ''}`,
  }));
}
