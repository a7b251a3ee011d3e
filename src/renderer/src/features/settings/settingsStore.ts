import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConnectionTestView, IpcError, LlmRoleName, SettingsView, SkillDeskBridge } from '../../../../shared/ipc';

export type SettingsBridge = Pick<SkillDeskBridge, 'settingsGet' | 'settingsSave' | 'settingsTest'>;

/** A provider as edited in the form; `apiKey` empty means "keep the stored key". */
export interface ProviderDraft {
  preset: 'openai' | 'azure' | 'ollama' | 'lmstudio' | 'vllm' | 'custom';
  baseURL: string;
  resource: string;
  model: string;
  apiKey: string;
  apiKeyEnv: string;
  enabled: boolean;
}

export interface SettingsState {
  view?: SettingsView;
  drafts: Record<LlmRoleName, ProviderDraft>;
  defaultApps: Record<string, string>;
  tests: Partial<Record<LlmRoleName, ConnectionTestView | 'testing'>>;
  saving: boolean;
  savedAt?: number;
  error?: IpcError;
  load(): Promise<void>;
  editProvider(role: LlmRoleName, patch: Partial<ProviderDraft>): void;
  setDefaultApp(domain: string, app: string): void;
  save(): Promise<boolean>;
  test(role: LlmRoleName): Promise<void>;
}

const emptyDraft = (): ProviderDraft => ({
  preset: 'ollama',
  baseURL: '',
  resource: '',
  model: '',
  apiKey: '',
  apiKeyEnv: '',
  enabled: false,
});

/** Settings: model providers per role (with "test connection"), the data folder, default apps. */
export function createSettingsStore(bridge: SettingsBridge): StoreApi<SettingsState> {
  const fromView = (v: SettingsView): Pick<SettingsState, 'drafts' | 'defaultApps'> => {
    const drafts = { planner: emptyDraft(), grounder: emptyDraft(), embedder: emptyDraft() };
    for (const role of ['planner', 'grounder', 'embedder'] as const) {
      const p = v.providers[role];
      if (p)
        drafts[role] = {
          preset: p.preset,
          baseURL: p.baseURL ?? '',
          resource: p.resource ?? '',
          model: p.model,
          apiKey: '',
          apiKeyEnv: p.apiKeyEnv ?? '',
          enabled: true,
        };
    }
    return { drafts, defaultApps: { ...v.defaultApps } };
  };
  return createStore<SettingsState>((set, get) => ({
    drafts: { planner: emptyDraft(), grounder: emptyDraft(), embedder: emptyDraft() },
    defaultApps: {},
    tests: {},
    saving: false,
    async load() {
      const r = await bridge.settingsGet({});
      set(r.ok ? { view: r.value, ...fromView(r.value), error: undefined } : { error: r.error });
    },
    editProvider(role, patch) {
      set({ drafts: { ...get().drafts, [role]: { ...get().drafts[role], ...patch } } });
    },
    setDefaultApp(domain, app) {
      set({ defaultApps: { ...get().defaultApps, [domain]: app } });
    },
    async save() {
      const { drafts, defaultApps } = get();
      const providers: Record<string, unknown> = {};
      for (const role of ['planner', 'grounder', 'embedder'] as const) {
        const d = drafts[role];
        if (!d.enabled) {
          providers[role] = null;
          continue;
        }
        if (!d.model.trim()) {
          set({
            error: { code: 'settings.invalid', message: `Enter a model name for the ${role} (e.g. qwen2.5:7b), or turn the ${role} off.` },
          });
          return false;
        }
        providers[role] = {
          preset: d.preset,
          model: d.model.trim(),
          ...(d.baseURL.trim() && { baseURL: d.baseURL.trim() }),
          ...(d.resource.trim() && { resource: d.resource.trim() }),
          ...(d.apiKey && { apiKey: d.apiKey }),
          ...(d.apiKeyEnv.trim() && { apiKeyEnv: d.apiKeyEnv.trim() }),
        };
      }
      set({ saving: true, error: undefined });
      const r = await bridge.settingsSave({ providers: providers as never, defaultApps });
      if (!r.ok) {
        set({ saving: false, error: r.error });
        return false;
      }
      set({ saving: false, savedAt: Date.now(), view: r.value, ...fromView(r.value) });
      return true;
    },
    async test(role) {
      set({ tests: { ...get().tests, [role]: 'testing' } });
      const r = await bridge.settingsTest({ role });
      set({ tests: { ...get().tests, [role]: r.ok ? r.value : { role, ok: false, latencyMs: 0, message: r.error.message } } });
    },
  }));
}
