import { z } from 'zod';
import { SkillDeskError } from '../../shared/errors';
import { llmSettingsFromEnv, LlmSettingsSchema, type LlmSettings, type ProviderPreset, type RoleSettings } from '../services/llm';
import { getSetting, type StoreDb } from '../services/store';

/** Settings keys in the store's `settings` table. */
export const SETTINGS_KEYS = { llm: 'llm', defaultApps: 'defaultApps' } as const;

type Env = Record<string, string | undefined>;
type Issue = z.ZodError['issues'][number];

/** Overrides of the planner role for one command (the CLI's `--model`, `--base-url`, `--preset`...). */
export interface PlannerOverrides {
  /** Plan with the deterministic offline planner even when a model is configured. */
  offline?: boolean;
  model?: string;
  baseURL?: string;
  preset?: ProviderPreset;
  apiKeyEnv?: string;
  timeoutMs?: number;
}

/** Why saved model settings could not be read: the first failing field, as `llm.<role>.<field>`. */
function invalidSaved(issue: Issue): SkillDeskError {
  const field = ['llm', ...issue.path.map(String)].join('.');
  return new SkillDeskError(
    'settings.invalid',
    `The saved model settings are invalid at \`${field}\`: ${issue.message}. Save that provider again in Settings to replace them.`,
    { field },
  );
}

/** The saved `llm` settings as stored, each role checked on its own; `broken` maps a role to its first problem. */
function savedRoles(db: StoreDb): { roles: Record<string, unknown>; broken: Map<string, Issue> } {
  const raw = getSetting(db, SETTINGS_KEYS.llm);
  const broken = new Map<string, Issue>();
  if (raw === undefined) return { roles: {}, broken };
  const shape = z.record(z.string(), z.unknown()).safeParse(raw);
  if (!shape.success) {
    broken.set('', shape.error.issues[0]!);
    return { roles: {}, broken };
  }
  const parsed = LlmSettingsSchema.safeParse(shape.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const role = issue.path.length ? String(issue.path[0]) : ((issue as { keys?: string[] }).keys?.[0] ?? '');
      if (!broken.has(role)) broken.set(role, issue.path.length ? issue : { ...issue, path: [role] });
    }
  }
  return { roles: shape.data, broken };
}

/** The saved model settings (the Settings screen's), validated; throws `settings.invalid` naming the field. */
export function readSavedLlmSettings(db: StoreDb): LlmSettings {
  const { roles, broken } = savedRoles(db);
  const first = broken.values().next();
  if (!first.done) throw invalidSaved(first.value);
  return LlmSettingsSchema.parse(roles);
}

/**
 * The saved settings for a save that replaces the `replacing` roles: a broken role being replaced
 * is left out (saving it again is how it gets fixed), while a broken role the save keeps still
 * fails, naming its field.
 */
export function savedLlmSettingsForSave(db: StoreDb, replacing: readonly string[]): Record<string, RoleSettings> {
  const { roles, broken } = savedRoles(db);
  for (const [role, issue] of broken) if (!replacing.includes(role)) throw invalidSaved(issue);
  const valid = LlmSettingsSchema.parse(Object.fromEntries(Object.entries(roles).filter(([role]) => !broken.has(role))));
  const kept: Record<string, RoleSettings> = {};
  for (const [role, s] of Object.entries(valid)) if (s) kept[role] = s;
  return kept;
}

/**
 * Merges the three sources of model settings, lowest precedence first:
 *  1. `saved`: the Settings screen's, from the store;
 *  2. `SKILLDESK_<ROLE>_*` environment variables (`SKILLDESK_LLM_*` for the planner and grounder):
 *     a role named there replaces the saved role as a whole;
 *  3. `overrides` of the planner for one command: merged field by field over the planner role;
 *     `offline` removes the planner.
 * Each role is validated when a client is built (`resolveProviderConfig` names the bad field).
 * @example mergeModelSettings({ planner: { preset: 'ollama', model: 'llama3' } }, {}, { model: 'qwen2.5:7b' })
 */
export function mergeModelSettings(saved: LlmSettings | undefined, env: Env, overrides: PlannerOverrides = {}): LlmSettings {
  const merged: LlmSettings = { ...saved, ...llmSettingsFromEnv(env) };
  if (overrides.model || overrides.baseURL || overrides.preset) {
    const base: Partial<RoleSettings> = merged.planner ?? {};
    const model = overrides.model ?? base.model;
    if (!model)
      throw new SkillDeskError(
        'cli.bad_option',
        'Expected `--model` with `--base-url`/`--preset`, e.g. --preset ollama --model qwen2.5:7b',
      );
    merged.planner = {
      ...base,
      model,
      ...(overrides.preset && { preset: overrides.preset }),
      ...(overrides.baseURL && { baseURL: overrides.baseURL }),
      ...(overrides.apiKeyEnv && { apiKeyEnv: overrides.apiKeyEnv }),
      ...(overrides.timeoutMs !== undefined && { timeoutMs: overrides.timeoutMs }),
    };
  }
  if (overrides.offline) delete merged.planner;
  return merged;
}

/**
 * The model settings in force: the one reader every shell uses (the agent, retrieval, the
 * grounder, the Settings screen's connection test). See `mergeModelSettings` for the precedence.
 */
export function modelSettings(db: StoreDb | undefined, o: { env?: Env; overrides?: PlannerOverrides } = {}): LlmSettings {
  return mergeModelSettings(db && readSavedLlmSettings(db), o.env ?? process.env, o.overrides);
}
