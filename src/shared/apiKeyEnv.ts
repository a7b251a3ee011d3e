import { z } from 'zod';

/**
 * Which environment variables a model provider may read its API key from: names ending in
 * `_API_KEY` (`OPENAI_API_KEY`, `AZURE_OPENAI_API_KEY`, `GROQ_API_KEY`...). The name is a
 * setting, and settings can be written from the UI, so an arbitrary name would let whoever
 * writes them send any variable of SkillDesk's environment (`HOME`, `PATH`,
 * `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, a database URL with its password) to a server as a
 * bearer token. By the `_API_KEY` convention such a variable already is a key meant for an API.
 */
export const API_KEY_ENV_PATTERN = /^[A-Z][A-Z0-9_]*_API_KEY$/;

/** An `apiKeyEnv` setting: a variable name matching `API_KEY_ENV_PATTERN`. */
export const ApiKeyEnvName = z
  .string()
  .regex(
    API_KEY_ENV_PATTERN,
    'Expected the name of a variable holding an API key, in capitals and ending in _API_KEY (such as OPENAI_API_KEY); other variables are never sent to a model server',
  );
