import { SkillDeskError } from '../../shared/errors';
import { computeMetrics, type MetricsView } from '../../shared/metrics';
import type { SkillLibrary } from '../../shared/skill/library';
import { readMetricsRows, type StoreDb } from '../services/store';

/** What the metrics read from the core: its store and its library. */
export interface MetricsCore {
  readonly db?: StoreDb | undefined;
  loadLibrary(): Promise<{ library: SkillLibrary }>;
}

export interface MetricsOptions {
  /** Only tasks started at or after this time (epoch ms). @default every recorded task */
  since?: number;
  /** When the figures are computed (the window's end). @default Date.now() */
  now?: number;
}

/** The skill metrics of `docs/metrics.md` for the runs in `db`, against `library`. */
export function storedMetrics(db: StoreDb, library: SkillLibrary, o: MetricsOptions = {}): MetricsView {
  return computeMetrics(readMetricsRows(db, o.since), library, { since: o.since ?? null, until: o.now ?? Date.now() });
}

/** The skill metrics for every shell (`skilldesk metrics`, the Metrics view): the core's store and current library. */
export async function coreMetrics(core: MetricsCore, o: MetricsOptions = {}): Promise<MetricsView> {
  const db = core.db;
  if (!db)
    throw new SkillDeskError('metrics.no_store', 'This SkillDesk keeps no run store, so there is nothing to measure; check --data-dir');
  const { library } = await core.loadLibrary();
  return storedMetrics(db, library, o);
}
