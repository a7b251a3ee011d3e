import { z } from 'zod';
import {
  LLM_ROLE_NAMES,
  type ConnectionTestView,
  type LlmRoleName,
  type ProviderSettingsView,
  type SettingsInput,
  type SettingsView,
} from '../../shared/ipc';
import { createLlmClient, LlmSettingsSchema, probeCapabilities, type LlmSettings, type RoleSettings } from '../services/llm';
import { getSetting, setSetting, type StoreDb } from '../services/store';

/** Settings keys in the store's `settings` table. */
export const SETTINGS_KEYS = { llm: 'llm', defaultApps: 'defaultApps' } as const;

const DefaultAppsSchema = z.record(z.string(), z.string());

export function readLlmSettings(db: StoreDb): LlmSettings {
  return getSetting(db, SETTINGS_KEYS.llm, (v) => LlmSettingsSchema.parse(v)) ?? {};
}

export function readDefaultApps(db: StoreDb): Record<string, string> {
  return getSetting(db, SETTINGS_KEYS.defaultApps, (v) => DefaultAppsSchema.parse(v)) ?? {};
}

function providerView(s: RoleSettings): ProviderSettingsView {
  return {
    preset: s.preset ?? 'custom',
    model: s.model,
    apiKeySet: Boolean(s.apiKey),
    ...(s.baseURL && { baseURL: s.baseURL }),
    ...(s.resource && { resource: s.resource }),
    ...(s.apiKeyEnv && { apiKeyEnv: s.apiKeyEnv }),
  };
}

/** The settings as the renderer may see them: keys are reported as set, never sent. */
export function settingsView(db: StoreDb, dataDir: string, domains: SettingsView['domains']): SettingsView {
  const llm = readLlmSettings(db);
  const providers: SettingsView['providers'] = {};
  for (const role of LLM_ROLE_NAMES) {
    const s = llm[role];
    if (s) providers[role] = providerView(s);
  }
  return { dataDir, providers, defaultApps: readDefaultApps(db), domains };
}

/** Applies a settings change; a provider set to null is removed, an absent `apiKey` keeps the stored one. */
export function saveSettings(db: StoreDb, input: z.output<typeof SettingsInput>): void {
  if (input.providers) {
    const llm: Record<string, RoleSettings> = { ...readLlmSettings(db) } as Record<string, RoleSettings>;
    for (const role of LLM_ROLE_NAMES) {
      if (!(role in input.providers)) continue;
      const p = input.providers[role];
      if (p === null || p === undefined) {
        delete llm[role];
        continue;
      }
      const previousKey = llm[role]?.apiKey;
      const apiKey = p.apiKey === undefined ? previousKey : p.apiKey || undefined;
      llm[role] = {
        ...(llm[role] ?? {}),
        preset: p.preset,
        model: p.model,
        baseURL: p.baseURL,
        resource: p.resource,
        apiKeyEnv: p.apiKeyEnv,
        apiKey,
      };
      for (const k of ['baseURL', 'resource', 'apiKeyEnv', 'apiKey'] as const) if (llm[role]![k] === undefined) delete llm[role]![k];
    }
    setSetting(db, SETTINGS_KEYS.llm, LlmSettingsSchema.parse(llm));
  }
  if (input.defaultApps) {
    const apps = Object.fromEntries(Object.entries(input.defaultApps).filter(([, v]) => v));
    setSetting(db, SETTINGS_KEYS.defaultApps, apps);
  }
}

/** "Test connection": lists models and checks the role's basic capability with small requests. */
export async function testProvider(db: StoreDb, role: LlmRoleName): Promise<ConnectionTestView> {
  const started = Date.now();
  const done = (ok: boolean, message: string, models?: string[]): ConnectionTestView => ({
    role,
    ok,
    latencyMs: Date.now() - started,
    message,
    ...(models && { models }),
  });
  let client;
  try {
    client = createLlmClient(role, readLlmSettings(db));
  } catch (err) {
    return done(false, (err as Error).message);
  }
  if (!client) return done(false, `No provider is set for the ${role}: choose a preset and a model, save, then test again.`);
  const signal = AbortSignal.timeout(30_000);
  const caps = await probeCapabilities(
    client,
    { chat: role !== 'embedder', images: role === 'grounder', embeddings: role === 'embedder' },
    signal,
  ).catch((err: unknown) => err as Error);
  if (caps instanceof Error) return done(false, caps.message);
  if (!caps.reachable)
    return done(false, caps.notes.join(' ') || 'The server did not answer; check the base URL and that the server is running.');
  const notes = [
    caps.modelListed === 'no' ? `model \`${client.config.model}\` is not among the server's models` : undefined,
    role === 'embedder'
      ? caps.embeddings
        ? `embeddings: ${caps.embeddings.dimensions} dimensions`
        : 'embeddings failed'
      : `structured output: ${caps.structured}`,
    role === 'grounder' ? `images: ${caps.images ? 'yes' : 'no'}` : undefined,
    ...caps.notes,
  ].filter(Boolean);
  const usable = role === 'embedder' ? Boolean(caps.embeddings) : caps.structured !== 'none';
  return done(usable, `Reachable. ${notes.join('; ')}`, caps.models.slice(0, 50));
}
