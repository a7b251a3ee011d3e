import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CompositionView, IpcError, LibraryView, SearchHit, SkillDeskBridge } from '../../../../shared/ipc';

export type LibraryBridge = Pick<SkillDeskBridge, 'libraryGet' | 'libraryReload' | 'librarySearch' | 'libraryComposition'>;

export interface LibraryState {
  view?: LibraryView;
  composition?: CompositionView;
  loading: boolean;
  error?: IpcError;
  query: string;
  /** Retriever hits for `query`; undefined when not searching. */
  hits?: SearchHit[];
  /** Narrow the list to one app or interface. */
  filter: { app?: string; domain?: string };
  load(): Promise<void>;
  reload(): Promise<void>;
  search(query: string): Promise<void>;
  setFilter(filter: LibraryState['filter']): void;
  loadComposition(): Promise<void>;
}

/** Library browsing: interfaces, apps, skills, retriever search, problems. */
export function createLibraryStore(bridge: LibraryBridge): StoreApi<LibraryState> {
  return createStore<LibraryState>((set, get) => ({
    loading: false,
    query: '',
    filter: {},
    async load() {
      set({ loading: true });
      const r = await bridge.libraryGet({});
      set(r.ok ? { view: r.value, loading: false, error: undefined } : { loading: false, error: r.error });
    },
    async reload() {
      set({ loading: true });
      const r = await bridge.libraryReload({});
      set(r.ok ? { view: r.value, loading: false, error: undefined } : { loading: false, error: r.error });
    },
    async search(query) {
      set({ query });
      if (!query.trim()) return set({ hits: undefined });
      const r = await bridge.librarySearch({ query, limit: 20 });
      // A slower answer to an older query must not replace a newer one.
      if (get().query !== query) return;
      set(r.ok ? { hits: r.value, error: undefined } : { error: r.error });
    },
    setFilter: (filter) => set({ filter }),
    async loadComposition() {
      const r = await bridge.libraryComposition({});
      set(r.ok ? { composition: r.value } : { error: r.error });
    },
  }));
}

/** The skills to list: search hits in rank order (interface refs expand to their skills), else all, filtered. */
export function visibleSkills(state: Pick<LibraryState, 'view' | 'hits' | 'filter'>): LibraryView['skills'] {
  const skills = state.view?.skills ?? [];
  const byFilter = (s: LibraryView['skills'][number]): boolean =>
    (!state.filter.app || s.app === state.filter.app) &&
    (!state.filter.domain || Boolean(s.implements?.startsWith(`${state.filter.domain}.`)));
  if (!state.hits) return skills.filter(byFilter);
  const out: LibraryView['skills'] = [];
  for (const h of state.hits) {
    for (const s of skills) if ((s.id === h.skillId || s.implements === h.skillId) && !out.includes(s) && byFilter(s)) out.push(s);
  }
  return out;
}
