import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeModelSettings, modelSettings, readSavedLlmSettings } from '../../../src/main/core/modelSettings';
import { saveSettings, settingsView } from '../../../src/main/core/settings';
import { getSetting, openStore, setSetting, type SqliteStore } from '../../../src/main/services/store';

describe('src/main/core/modelSettings', () => {
  let dataDir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-settings-'));
    store = openStore({ dataDir });
  });
  afterEach(() => {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const saved = {
    planner: { preset: 'ollama' as const, model: 'llama3', timeoutMs: 5000 },
    embedder: { preset: 'ollama' as const, model: 'nomic' },
  };

  it('reads saved settings, then SKILLDESK_* variables replace a role, then flags merge over the planner', () => {
    setSetting(store.db, 'llm', saved);
    // Validated on read, so the schema's defaults are filled in.
    expect(modelSettings(store.db, { env: {} })).toMatchObject({ ...saved, planner: { ...saved.planner, maxRetries: 3 } });
    const env = { SKILLDESK_PLANNER_MODEL: 'qwen2.5:7b', SKILLDESK_PLANNER_BASE_URL: 'http://127.0.0.1:8000/v1' };
    const withEnv = modelSettings(store.db, { env });
    // The variables describe the whole role: the saved preset and timeout do not leak into it.
    expect(withEnv.planner).toEqual({ model: 'qwen2.5:7b', baseURL: 'http://127.0.0.1:8000/v1' });
    expect(withEnv.embedder).toMatchObject(saved.embedder);
    const withFlags = modelSettings(store.db, { env, overrides: { model: 'phi3', timeoutMs: 900 } });
    expect(withFlags.planner).toEqual({ model: 'phi3', baseURL: 'http://127.0.0.1:8000/v1', timeoutMs: 900 });
    expect(modelSettings(store.db, { env, overrides: { offline: true } }).planner).toBeUndefined();
  });

  it('applies SKILLDESK_LLM_* to the planner and grounder but not the embedder', () => {
    expect(mergeModelSettings(undefined, { SKILLDESK_LLM_MODEL: 'm', SKILLDESK_LLM_PRESET: 'vllm' })).toEqual({
      planner: { model: 'm', preset: 'vllm' },
      grounder: { model: 'm', preset: 'vllm' },
    });
  });

  it('asks for a model when a flag names a server but nothing names the model', () => {
    expect(() => mergeModelSettings(undefined, {}, { preset: 'ollama' })).toThrow(/Expected `--model`/);
  });

  it('refuses saved settings that do not validate, naming the field, instead of casting them', () => {
    setSetting(store.db, 'llm', { planner: { preset: 'ollama', model: '' } });
    expect(() => readSavedLlmSettings(store.db)).toThrow(
      expect.objectContaining({ code: 'settings.invalid', message: expect.stringContaining('`llm.planner.model`') }),
    );
    setSetting(store.db, 'llm', { planer: { model: 'x' } });
    expect(() => modelSettings(store.db, { env: {} })).toThrow(/`llm\.planer`/);
  });

  it('lets the Settings screen replace a broken role, and keeps refusing while another role is broken', () => {
    setSetting(store.db, 'llm', { planner: { preset: 'ollama', model: '', apiKey: 'sk-kept' }, grounder: { model: 'g', timeoutMs: -1 } });
    expect(() => settingsView(store.db, dataDir, [])).toThrow(/`llm\.planner\.model`/);
    expect(() => saveSettings(store.db, { providers: { planner: { preset: 'ollama', model: 'llama3' } } })).toThrow(
      /`llm\.grounder\.timeoutMs`/,
    );
    saveSettings(store.db, { providers: { planner: { preset: 'ollama', model: 'llama3' }, grounder: null } });
    expect(getSetting(store.db, 'llm')).toEqual({
      planner: expect.objectContaining({ preset: 'ollama', model: 'llama3', apiKey: 'sk-kept' }),
    });
    expect(settingsView(store.db, dataDir, []).providers).toEqual({ planner: { preset: 'ollama', model: 'llama3', apiKeySet: true } });
  });

  it('keeps fields the form does not show and drops the ones it cleared', () => {
    setSetting(store.db, 'llm', { planner: { preset: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 1234 } });
    saveSettings(store.db, { providers: { planner: { preset: 'ollama', model: 'm2' } } });
    const planner = readSavedLlmSettings(store.db).planner!;
    expect(planner).toMatchObject({ preset: 'ollama', model: 'm2', timeoutMs: 1234 });
    expect(planner.baseURL).toBeUndefined();
  });
});
