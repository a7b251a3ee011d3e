import { createContext, useContext } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { createStore } from 'zustand/vanilla';
import type { AppInfo, SkillDeskBridge, StatusView } from '../../../shared/ipc';
import type { ConnectionState } from '../bridge';
import { createEditorStore, type EditorState } from '../features/editor/editorStore';
import { createLearnStore, type LearnState } from '../features/learn/learnStore';
import { createLibraryStore, type LibraryState } from '../features/library/libraryStore';
import { createMetricsStore, type MetricsState } from '../features/metrics/metricsStore';
import { createPermissionsStore, type PermissionsState } from '../features/permissions/permissionsStore';
import { createRunStore, type RunState } from '../features/run/runStore';
import { createSettingsStore, type SettingsState } from '../features/settings/settingsStore';

export type Screen = 'run' | 'library' | 'editor' | 'permissions' | 'metrics' | 'learn' | 'settings';

export interface ShellState {
  screen: Screen;
  info?: AppInfo;
  status: StatusView;
  connection: 'connecting' | ConnectionState;
  /** Host mode: whether this page is the owner, the one that answers permission prompts (see hostHandshake.ts). */
  owner: boolean;
  go(screen: Screen): void;
}

export interface Stores {
  bridge: SkillDeskBridge;
  shell: StoreApi<ShellState>;
  run: StoreApi<RunState>;
  library: StoreApi<LibraryState>;
  editor: StoreApi<EditorState>;
  permissions: StoreApi<PermissionsState>;
  metrics: StoreApi<MetricsState>;
  learn: StoreApi<LearnState>;
  settings: StoreApi<SettingsState>;
}

/** Builds every feature store over one bridge and routes main's events to them. */
export function createStores(bridge: SkillDeskBridge, shell: StoreApi<ShellState>): Stores {
  const stores: Stores = {
    bridge,
    shell,
    run: createRunStore(bridge),
    library: createLibraryStore(bridge),
    editor: createEditorStore(bridge),
    permissions: createPermissionsStore(bridge),
    metrics: createMetricsStore(bridge),
    learn: createLearnStore(bridge),
    settings: createSettingsStore(bridge),
  };
  bridge.onRunEvent((e) => {
    stores.run.getState().handleEvent(e);
    stores.editor.getState().handleRunEvent(e);
  });
  bridge.onPermissionsPrompt((p) => stores.permissions.getState().promptArrived(p));
  bridge.onPermissionsSettled((s) => {
    stores.permissions.getState().promptSettled(s.promptId);
    void stores.permissions.getState().loadAudit();
    void stores.permissions.getState().loadGrants();
  });
  bridge.onLibraryChanged(() => void stores.library.getState().load());
  bridge.onLearnEvent((e) => stores.learn.getState().handleEvent(e));
  bridge.onAppStatus((status) => shell.setState({ status }));
  return stores;
}

export function createShellStore(): StoreApi<ShellState> {
  const initial = (location.hash.replace('#', '') || 'run') as Screen;
  return createStore<ShellState>((set) => ({
    screen: ['run', 'library', 'editor', 'permissions', 'metrics', 'learn', 'settings'].includes(initial) ? initial : 'run',
    status: { running: [], pendingPrompts: 0 },
    connection: 'connecting',
    owner: false,
    go(screen) {
      location.hash = screen;
      set({ screen });
    },
  }));
}

export const StoresContext = createContext<Stores | null>(null);

export function useStores(): Stores {
  const s = useContext(StoresContext);
  if (!s) throw new Error('useStores() outside <StoresContext.Provider>');
  return s;
}
