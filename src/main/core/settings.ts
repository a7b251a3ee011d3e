import { z } from 'zod';
import {
  LLM_ROLE_NAMES,
  type ConnectionTestView,
  type LlmRoleName,
  type ProviderSettingsView,
  type SettingsInput,
  type SettingsView,
} from '../../shared/ipc';
import { createLlmClient, llmSettingsFromEnv, LlmSettingsSchema, probeCapabilities, type RoleSettings } from '../services/llm';
import { getSetting, setSetting, type StoreDb } from '../services/store';
import type { Core } from './Core';
import { modelSettings, readSavedLlmSettings, savedLlmSettingsForSave, SETTINGS_KEYS } from './modelSettings';

/** Settings as the Settings screen shows and saves them; the CLI and the core read the same keys. */

const DefaultAppsSchema = z.record(z.string(), z.string());

/** The configured default app per domain interface (`TextEditor` -> `mousepad`), used when a run names no app. */
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
  const llm = readSavedLlmSettings(db);
  const providers: SettingsView['providers'] = {};
  for (const role of LLM_ROLE_NAMES) {
    const s = llm[role];
    if (s) providers[role] = providerView(s);
  }
  return { dataDir, providers, defaultApps: readDefaultApps(db), domains };
}

/** The Settings screen: the saved settings, with each domain interface and the apps that implement it for the default-app choices. */
export async function coreSettingsView(core: Core, db: StoreDb): Promise<SettingsView> {
  const { library } = await core.loadLibrary();
  const domains = [...library.interfaces.keys()].map((id) => ({ id, apps: library.implementers(id) }));
  return settingsView(db, core.options.dataDir, domains);
}

/** Applies a settings change; a provider set to null is removed, an absent `apiKey` keeps the stored one. */
export function saveSettings(db: StoreDb, input: z.output<typeof SettingsInput>): void {
  if (input.providers) {
    const given = LLM_ROLE_NAMES.filter((role) => role in input.providers!);
    const previousKeys = Object.fromEntries(given.map((role) => [role, previousApiKey(db, role)]));
    const llm = savedLlmSettingsForSave(db, given);
    for (const role of given) {
      const p = input.providers[role];
      if (p === null || p === undefined) {
        delete llm[role];
        continue;
      }
      const apiKey = p.apiKey === undefined ? previousKeys[role] : p.apiKey || undefined;
      // Fields the form does not show (timeouts, temperature...) are kept; the ones it shows are replaced.
      const previous: Partial<RoleSettings> = llm[role] ?? {};
      const { baseURL: _b, resource: _r, apiKeyEnv: _e, apiKey: _k, ...kept } = previous;
      llm[role] = {
        ...kept,
        preset: p.preset,
        model: p.model,
        ...(p.baseURL && { baseURL: p.baseURL }),
        ...(p.resource && { resource: p.resource }),
        ...(p.apiKeyEnv && { apiKeyEnv: p.apiKeyEnv }),
        ...(apiKey && { apiKey }),
      };
    }
    setSetting(db, SETTINGS_KEYS.llm, LlmSettingsSchema.parse(llm));
  }
  if (input.defaultApps) {
    const apps = Object.fromEntries(Object.entries(input.defaultApps).filter(([, v]) => v));
    setSetting(db, SETTINGS_KEYS.defaultApps, apps);
  }
}

/** The stored key of a role, kept when the form leaves the key empty, even if the rest of the role no longer validates. */
function previousApiKey(db: StoreDb, role: LlmRoleName): string | undefined {
  const raw = getSetting(db, SETTINGS_KEYS.llm, (v) =>
    z.object({ [role]: z.object({ apiKey: z.string().optional() }).optional() }).safeParse(v),
  );
  return raw?.success ? raw.data[role]?.apiKey : undefined;
}

/**
 * "Test connection": lists models and checks the role's basic capability with small requests,
 * against the settings in force (saved, overridden by SKILLDESK_* variables), which runs use.
 */
export async function testProvider(
  db: StoreDb,
  role: LlmRoleName,
  env: Record<string, string | undefined> = process.env,
): Promise<ConnectionTestView> {
  const started = Date.now();
  const fromEnv = llmSettingsFromEnv(env)[role]
    ? `SKILLDESK_${role.toUpperCase()}_* variables override the saved ${role}; tested those. `
    : '';
  const done = (ok: boolean, message: string, models?: string[]): ConnectionTestView => ({
    role,
    ok,
    latencyMs: Date.now() - started,
    message: `${fromEnv}${message}`,
    ...(models && { models }),
  });
  let client;
  try {
    client = createLlmClient(role, modelSettings(db, { env }), env);
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
