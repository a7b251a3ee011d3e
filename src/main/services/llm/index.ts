/** Model providers: OpenAI-compatible servers per role, with retries, cancellation and accounting. */
export {
  LLM_ROLES,
  PROVIDER_PRESETS,
  LlmSettingsSchema,
  RoleSettingsSchema,
  resolveProviderConfig,
  describeProvider,
  llmSettingsFromEnv,
} from './config';
export type { LlmRole, LlmSettings, RoleSettings, ProviderConfig, ProviderPreset, StructuredMode } from './config';
export { LlmError, redactSecrets } from './errors';
export type { LlmErrorCode } from './errors';
export { OpenAiLlmClient } from './OpenAiLlmClient';
export type { RetryClock } from './OpenAiLlmClient';
export { probeCapabilities } from './probe';
export type { Capabilities } from './probe';
export { extractJson, parseStructured, toResponseSchema } from './structured';
export { UsageMeter } from './UsageMeter';
export type { UsageRecord, UsageTotals } from './UsageMeter';
export type { ChatMessage, ChatRequest, ChatResult, ContentPart, LlmClient, StructuredRequest } from './types';
import { resolveProviderConfig, type LlmRole, type LlmSettings } from './config';
import { OpenAiLlmClient } from './OpenAiLlmClient';

/** Builds the client for a role, or undefined when that role is not configured (the agent then plans offline). */
export function createLlmClient(
  role: LlmRole,
  settings: LlmSettings | undefined,
  env: Record<string, string | undefined> = process.env,
): OpenAiLlmClient | undefined {
  const config = resolveProviderConfig(role, settings, env);
  return config && new OpenAiLlmClient(config);
}
