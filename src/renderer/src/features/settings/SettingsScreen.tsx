import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { API_KEY_ENV_PATTERN } from '../../../../shared/apiKeyEnv';
import { LLM_ROLE_NAMES, PROVIDER_PRESET_NAMES } from '../../../../shared/ipc';
import { useStores } from '../../app/stores';

const ROLE_HELP = {
  planner: 'plans goals, writes retrieval queries, picks and configures skills',
  grounder: 'finds on-screen targets by their label (needs a vision model)',
  embedder: 'embeddings for hybrid skill retrieval',
} as const;

/** Settings: a model provider per role with "test connection", the data folder, default app per domain. */
export function SettingsScreen() {
  const { settings } = useStores();
  const s = useStore(
    settings,
    useShallow((x) => ({
      view: x.view,
      drafts: x.drafts,
      defaultApps: x.defaultApps,
      tests: x.tests,
      saving: x.saving,
      savedAt: x.savedAt,
      error: x.error,
    })),
  );
  useEffect(() => void settings.getState().load(), [settings]);
  const api = settings.getState();
  return (
    <div className="stack">
      {s.error && (
        <div className="error-box" role="alert">
          {s.error.message}
        </div>
      )}
      <section className="panel">
        <h2>Model providers</h2>
        <p className="muted">
          Any OpenAI-compatible server: OpenAI, Azure OpenAI, or a local Ollama / LM Studio / vLLM. Without a planner, goals are planned
          offline from skill intents.
        </p>
        <div className="providers">
          {LLM_ROLE_NAMES.map((role) => {
            const d = s.drafts[role];
            const t = s.tests[role];
            return (
              <fieldset key={role} className="provider" data-role={role}>
                <legend>
                  <label className="check">
                    <input type="checkbox" checked={d.enabled} onChange={(e) => api.editProvider(role, { enabled: e.target.checked })} />{' '}
                    {role}
                  </label>
                </legend>
                <p className="muted small">{ROLE_HELP[role]}</p>
                <label className="field">
                  <span className="field-name">Server</span>
                  <select
                    value={d.preset}
                    disabled={!d.enabled}
                    onChange={(e) => api.editProvider(role, { preset: e.target.value as typeof d.preset })}
                  >
                    {PROVIDER_PRESET_NAMES.map((p) => (
                      <option key={p} value={p}>
                        {p}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="field">
                  <span className="field-name">Base URL</span>
                  <input
                    disabled={!d.enabled}
                    placeholder="preset default"
                    value={d.baseURL}
                    onChange={(e) => api.editProvider(role, { baseURL: e.target.value })}
                  />
                </label>
                {d.preset === 'azure' && (
                  <label className="field">
                    <span className="field-name">Azure resource</span>
                    <input
                      disabled={!d.enabled}
                      value={d.resource}
                      onChange={(e) => api.editProvider(role, { resource: e.target.value })}
                    />
                  </label>
                )}
                <label className="field">
                  <span className="field-name">Model</span>
                  <input
                    disabled={!d.enabled}
                    placeholder="e.g. gpt-4.1-mini or qwen2.5:7b"
                    value={d.model}
                    onChange={(e) => api.editProvider(role, { model: e.target.value })}
                  />
                </label>
                <label className="field">
                  <span className="field-name">API key</span>
                  <input
                    disabled={!d.enabled}
                    type="password"
                    placeholder={s.view?.providers[role]?.apiKeySet ? 'set (leave empty to keep)' : 'none'}
                    value={d.apiKey}
                    onChange={(e) => api.editProvider(role, { apiKey: e.target.value })}
                  />
                </label>
                <label className="field">
                  <span className="field-name">…or key from environment variable (a name ending in _API_KEY)</span>
                  <input
                    disabled={!d.enabled}
                    placeholder="OPENAI_API_KEY"
                    pattern={API_KEY_ENV_PATTERN.source}
                    title="Only variables named like OPENAI_API_KEY: capitals, ending in _API_KEY. Their key is sent only to this provider's base URL."
                    value={d.apiKeyEnv}
                    onChange={(e) => api.editProvider(role, { apiKeyEnv: e.target.value })}
                  />
                </label>
                <button disabled={!d.enabled || t === 'testing'} onClick={() => void api.test(role)}>
                  {t === 'testing' ? 'Testing…' : 'Test connection'}
                </button>
                {t && t !== 'testing' && (
                  <div className={t.ok ? 'ok-box' : 'error-box'} data-test-result={t.ok ? 'ok' : 'fail'}>
                    {t.ok ? 'OK' : 'Failed'} ({t.latencyMs} ms): {t.message}
                  </div>
                )}
              </fieldset>
            );
          })}
        </div>
      </section>
      <section className="panel">
        <h2>Default app per domain</h2>
        <p className="muted">
          Used when a skill names an interface (e.g. TextEditor.save_as) and neither you nor the focused window picks the app.
        </p>
        <div className="form grid2">
          {s.view?.domains.map((d) => (
            <label key={d.id} className="field">
              <span className="field-name">{d.id}</span>
              <select value={s.defaultApps[d.id] ?? ''} onChange={(e) => api.setDefaultApp(d.id, e.target.value)}>
                <option value="">(focused window's app)</option>
                {d.apps.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </div>
      </section>
      <section className="panel">
        <h2>Data folder</h2>
        <p>
          <code>{s.view?.dataDir}</code>
        </p>
        <p className="muted">
          The store, your own skills (<code>skills/</code>) and step screenshots live here. Start with <code>--data-dir</code> or{' '}
          <code>SKILLDESK_DATA_DIR</code> to use another folder.
        </p>
      </section>
      <div className="row">
        <button className="primary" disabled={s.saving} onClick={() => void api.save()}>
          {s.saving ? 'Saving…' : 'Save settings'}
        </button>
        {s.savedAt && <span className="ok-text">Saved.</span>}
      </div>
    </div>
  );
}
