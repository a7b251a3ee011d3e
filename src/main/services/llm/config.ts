import { z } from 'zod';
import { ApiKeyEnvName } from '../../../shared/apiKeyEnv';
import { SkillDeskError } from '../../../shared/errors';

/** The jobs a model does for SkillDesk; each can use its own server and model. */
export const LLM_ROLES = ['planner', 'grounder', 'embedder'] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

/** Known server kinds; a preset fills in the base URL and how the key is sent. */
export const PROVIDER_PRESETS = {
  openai: { baseURL: 'https://api.openai.com/v1', keyRequired: true, keyHeader: 'authorization', label: 'OpenAI' },
  azure: { baseURL: 'https://{resource}.openai.azure.com/openai/v1', keyRequired: true, keyHeader: 'api-key', label: 'Azure OpenAI' },
  ollama: { baseURL: 'http://127.0.0.1:11434/v1', keyRequired: false, keyHeader: 'authorization', label: 'Ollama' },
  lmstudio: { baseURL: 'http://127.0.0.1:1234/v1', keyRequired: false, keyHeader: 'authorization', label: 'LM Studio' },
  vllm: { baseURL: 'http://127.0.0.1:8000/v1', keyRequired: false, keyHeader: 'authorization', label: 'vLLM' },
  custom: { baseURL: '', keyRequired: false, keyHeader: 'authorization', label: 'OpenAI-compatible server' },
} as const;
export type ProviderPreset = keyof typeof PROVIDER_PRESETS;

/** How structured output is requested: JSON schema, JSON mode, or instructions in the prompt only. */
export const StructuredModeSchema = z.enum(['auto', 'json_schema', 'json_object', 'prompt']);
export type StructuredMode = z.infer<typeof StructuredModeSchema>;

/** Settings of one role, as stored in the settings file (the key may instead come from an environment variable). */
export const RoleSettingsSchema = z
  .object({
    preset: z.enum(Object.keys(PROVIDER_PRESETS) as [ProviderPreset, ...ProviderPreset[]]).default('custom'),
    /** Overrides the preset's URL; for `azure`, `{resource}` is replaced by `resource`. */
    baseURL: z.string().url().optional(),
    resource: z.string().optional(),
    /** Optional for local servers. Never logged. */
    apiKey: z.string().optional(),
    /** Environment variable holding the key, e.g. `OPENAI_API_KEY`; only `*_API_KEY` names (`API_KEY_ENV_PATTERN`). */
    apiKeyEnv: ApiKeyEnvName.optional(),
    model: z.string().min(1),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    /** Per request. @default 60000 */
    timeoutMs: z.number().int().positive().max(600_000).default(60_000),
    /** Retries on 429, 5xx, timeouts and dropped connections. @default 3 */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** First backoff delay; doubles each retry (with jitter), capped at 20 s, and honours `retry-after`. @default 500 */
    backoffMs: z.number().int().nonnegative().default(500),
    structured: StructuredModeSchema.default('auto'),
    /** Grounder: how the model reports coordinates. @default 'absolute' */
    coordinates: z.enum(['absolute', 'normalized_1000', 'resized']).optional(),
    /** Grounder: longest side of the image sent to the model. @default 1280 */
    imageMaxSide: z.number().int().min(64).max(8192).optional(),
  })
  .strict();
export type RoleSettings = z.input<typeof RoleSettingsSchema>;

/** `llm` section of the settings: one entry per configured role. */
export const LlmSettingsSchema = z
  .object({
    planner: RoleSettingsSchema.optional(),
    grounder: RoleSettingsSchema.optional(),
    embedder: RoleSettingsSchema.optional(),
  })
  .strict();
export type LlmSettings = z.input<typeof LlmSettingsSchema>;

/** A role's settings with the preset applied and the key resolved. */
export interface ProviderConfig {
  role: LlmRole;
  preset: ProviderPreset;
  baseURL: string;
  apiKey?: string;
  keyHeader: 'authorization' | 'api-key';
  model: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs: number;
  maxRetries: number;
  backoffMs: number;
  structured: StructuredMode;
  coordinates: 'absolute' | 'normalized_1000' | 'resized';
  imageMaxSide: number;
}

/**
 * Applies the preset and resolves the key for one role; undefined when the role is not configured.
 * @example resolveProviderConfig('planner', { planner: { preset: 'ollama', model: 'qwen2.5:7b' } })
 */
export function resolveProviderConfig(
  role: LlmRole,
  settings: LlmSettings | undefined,
  env: Record<string, string | undefined> = process.env,
): ProviderConfig | undefined {
  const raw = settings?.[role];
  if (!raw) return undefined;
  const parsed = RoleSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SkillDeskError('settings.invalid', `Invalid llm.${role}.${issue.path.join('.')}: ${issue.message}`);
  }
  const s = parsed.data;
  const preset = PROVIDER_PRESETS[s.preset];
  let baseURL = s.baseURL ?? preset.baseURL;
  if (baseURL.includes('{resource}')) {
    if (!s.resource)
      throw new SkillDeskError(
        'settings.invalid',
        `Expected \`llm.${role}.resource\` (the Azure resource name) or a full \`baseURL\` for the azure preset`,
      );
    baseURL = baseURL.replace('{resource}', encodeURIComponent(s.resource));
  }
  if (!baseURL)
    throw new SkillDeskError('settings.invalid', `Expected \`llm.${role}.baseURL\` such as http://127.0.0.1:8000/v1 for a custom server`);
  const apiKey = s.apiKey ?? (s.apiKeyEnv ? env[s.apiKeyEnv] : undefined);
  if (preset.keyRequired && !apiKey) {
    throw new SkillDeskError(
      'settings.invalid',
      `${preset.label} needs an API key: set \`llm.${role}.apiKey\` or \`llm.${role}.apiKeyEnv\` (e.g. OPENAI_API_KEY)`,
    );
  }
  return {
    role,
    preset: s.preset,
    baseURL: baseURL.replace(/\/+$/, ''),
    ...(apiKey && { apiKey }),
    keyHeader: preset.keyHeader,
    model: s.model,
    ...(s.temperature !== undefined && { temperature: s.temperature }),
    ...(s.maxTokens !== undefined && { maxTokens: s.maxTokens }),
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    backoffMs: s.backoffMs,
    structured: s.structured,
    coordinates: s.coordinates ?? 'absolute',
    imageMaxSide: s.imageMaxSide ?? 1280,
  };
}

/** A printable description of a config with the key masked, for `settings show` and logs. */
export function describeProvider(c: ProviderConfig): string {
  return `${c.role}: ${PROVIDER_PRESETS[c.preset].label} ${c.baseURL} model=${c.model} key=${c.apiKey ? 'set (hidden)' : 'none'}`;
}

/**
 * Role settings from environment variables, for the CLI and CI: `SKILLDESK_<ROLE>_MODEL`,
 * `_BASE_URL`, `_PRESET`, `_API_KEY_ENV` (the name of the variable holding the key), `_API_KEY`.
 * `SKILLDESK_LLM_*` applies to every role that has no variables of its own.
 * @example SKILLDESK_PLANNER_MODEL=qwen2.5:7b SKILLDESK_PLANNER_PRESET=ollama skilldesk agent "..."
 */
export function llmSettingsFromEnv(env: Record<string, string | undefined> = process.env): LlmSettings {
  const out: Record<string, RoleSettings> = {};
  for (const role of LLM_ROLES) {
    const get = (k: string) => env[`SKILLDESK_${role.toUpperCase()}_${k}`] ?? (role !== 'embedder' ? env[`SKILLDESK_LLM_${k}`] : undefined);
    const model = get('MODEL');
    if (!model) continue;
    const preset = get('PRESET') as ProviderPreset | undefined;
    out[role] = {
      model,
      ...(preset && { preset }),
      ...(get('BASE_URL') && { baseURL: get('BASE_URL') }),
      ...(get('API_KEY_ENV') && { apiKeyEnv: get('API_KEY_ENV') }),
      ...(get('API_KEY') && { apiKey: get('API_KEY') }),
    };
  }
  return out;
}
