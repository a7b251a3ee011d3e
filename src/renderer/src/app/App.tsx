import { useEffect } from 'react';
import { useStore } from 'zustand';
import { EditorScreen } from '../features/editor/EditorScreen';
import { LearnScreen } from '../features/learn/LearnScreen';
import { LibraryScreen } from '../features/library/LibraryScreen';
import { MetricsScreen } from '../features/metrics/MetricsScreen';
import { PermissionsScreen } from '../features/permissions/PermissionsScreen';
import { PromptModal } from '../features/permissions/PromptModal';
import { RunScreen } from '../features/run/RunScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { StoresContext, type Screen, type Stores } from './stores';

const SCREENS: { id: Screen; label: string }[] = [
  { id: 'run', label: 'Run' },
  { id: 'library', label: 'Library' },
  { id: 'editor', label: 'Graph editor' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'metrics', label: 'Metrics' },
  { id: 'learn', label: 'Learn' },
  { id: 'settings', label: 'Settings' },
];

export function App({ stores }: { stores: Stores }) {
  const screen = useStore(stores.shell, (s) => s.screen);
  const go = useStore(stores.shell, (s) => s.go);
  const info = useStore(stores.shell, (s) => s.info);
  const status = useStore(stores.shell, (s) => s.status);
  const connection = useStore(stores.shell, (s) => s.connection);
  const pending = useStore(stores.permissions, (s) => s.prompts.length);

  useEffect(() => {
    void stores.bridge.appInfo({}).then((r) => r.ok && stores.shell.setState({ info: r.value }));
    void stores.bridge.appStatus({}).then((r) => r.ok && stores.shell.setState({ status: r.value }));
    void stores.library.getState().load();
    void stores.permissions.getState().loadPending();
  }, [stores]);

  return (
    <StoresContext.Provider value={stores}>
      <div className="shell">
        <header className="topbar">
          <div className="brand">SkillDesk</div>
          <nav>
            {SCREENS.map((s) => (
              <button key={s.id} className={s.id === screen ? 'tab active' : 'tab'} onClick={() => go(s.id)} data-screen={s.id}>
                {s.label}
                {s.id === 'permissions' && pending > 0 && <span className="badge">{pending}</span>}
              </button>
            ))}
          </nav>
          <div className="topbar-right">
            {info && (
              <span className="muted" title={`data: ${info.dataDir}`}>
                {info.mode === 'host' ? 'host mode' : 'desktop'} · v{info.version}
              </span>
            )}
            <span className={`conn conn-${connection}`} title="connection to SkillDesk">
              {connection === 'open' || info?.mode === 'electron' ? 'connected' : connection}
            </span>
            <button
              className="danger"
              disabled={status.running.length === 0}
              title="Emergency stop: aborts every running skill before its next step (Ctrl+Alt+Esc in the desktop app)"
              onClick={() => void stores.bridge.runStop({})}
            >
              Stop all{status.running.length ? ` (${status.running.length})` : ''}
            </button>
          </div>
        </header>
        {connection === 'refused' && (
          <div className="error-box" role="alert">
            This page has no valid SkillDesk token. Open the address <code>skilldesk serve</code> printed (it ends in <code>#token=…</code>
            ); the token changes at each launch.
          </div>
        )}
        <main className="content">
          {screen === 'run' && <RunScreen />}
          {screen === 'library' && <LibraryScreen />}
          {screen === 'editor' && <EditorScreen />}
          {screen === 'permissions' && <PermissionsScreen />}
          {screen === 'metrics' && <MetricsScreen />}
          {screen === 'learn' && <LearnScreen />}
          {screen === 'settings' && <SettingsScreen />}
        </main>
        <PromptModal />
      </div>
    </StoresContext.Provider>
  );
}
