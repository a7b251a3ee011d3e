import { describe, expect, it } from 'vitest';
import { createSettingsStore, type SettingsBridge } from '../../../../src/renderer/src/features/settings/settingsStore';
import type { SettingsView } from '../../../../src/shared/ipc';

const view: SettingsView = {
  dataDir: '/data',
  defaultApps: { TextEditor: 'mousepad' },
  domains: [{ id: 'TextEditor', apps: ['mousepad', 'wine-notepad'] }],
  providers: { planner: { preset: 'ollama', model: 'qwen2.5:7b', apiKeySet: true } },
};

function bridge() {
  const saved: unknown[] = [];
  const b: SettingsBridge = {
    settingsGet: async () => ({ ok: true, value: view }),
    settingsSave: async (r) => {
      saved.push(r);
      return { ok: true, value: view };
    },
    settingsTest: async (r) => ({ ok: true, value: { role: r.role, ok: false, latencyMs: 3, message: 'connection refused' } }),
  };
  return { b, saved };
}

describe('src/renderer/src/features/settings/settingsStore', () => {
  it('never sends a stored key back, and removes roles turned off', async () => {
    const { b, saved } = bridge();
    const s = createSettingsStore(b);
    await s.getState().load();
    expect(s.getState().drafts.planner).toMatchObject({ enabled: true, model: 'qwen2.5:7b', apiKey: '' });
    s.getState().setDefaultApp('TextEditor', 'wine-notepad');
    expect(await s.getState().save()).toBe(true);
    expect(saved[0]).toEqual({
      providers: { planner: { preset: 'ollama', model: 'qwen2.5:7b' }, grounder: null, embedder: null },
      defaultApps: { TextEditor: 'wine-notepad' },
    });
  });

  it('asks for a model before saving an enabled role', async () => {
    const { b, saved } = bridge();
    const s = createSettingsStore(b);
    await s.getState().load();
    s.getState().editProvider('embedder', { enabled: true, preset: 'openai' });
    expect(await s.getState().save()).toBe(false);
    expect(s.getState().error?.message).toMatch(/model name for the embedder/);
    expect(saved).toEqual([]);
  });

  it('keeps the connection test result per role', async () => {
    const { b } = bridge();
    const s = createSettingsStore(b);
    await s.getState().test('planner');
    expect(s.getState().tests.planner).toMatchObject({ ok: false, message: 'connection refused' });
    expect(s.getState().tests.grounder).toBeUndefined();
  });
});
