import { llmSettingsFromEnv, LlmSettingsSchema, type LlmSettings } from '../services/llm';
import { getSetting, type StoreDb } from '../services/store';

/** The model roles in force: the saved `llm` settings, overridden per role by SKILLDESK_* variables (as the CLI does). */
export function savedLlmSettings(db: StoreDb, env: Record<string, string | undefined> = process.env): LlmSettings {
  const saved = getSetting(db, 'llm', (v) => LlmSettingsSchema.parse(v));
  return { ...saved, ...llmSettingsFromEnv(env) };
}
