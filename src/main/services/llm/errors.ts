import { SkillDeskError } from '../../../shared/errors';

/** Why a model call failed; `retryable` ones are retried with backoff before they surface. */
export type LlmErrorCode =
  | 'llm.rate_limited'
  | 'llm.server_error'
  | 'llm.timeout'
  | 'llm.connection'
  | 'llm.aborted'
  | 'llm.bad_request'
  | 'llm.auth'
  | 'llm.not_found'
  | 'llm.malformed_output'
  | 'llm.unsupported'
  | 'llm.not_configured';

/** A failed model call. Messages never contain the API key (see `redactSecrets`). */
export class LlmError extends SkillDeskError {
  constructor(
    override readonly code: LlmErrorCode,
    message: string,
    readonly info: { status?: number; attempts?: number; raw?: string } = {},
  ) {
    super(code, message, info);
    this.name = 'LlmError';
  }

  get retryable(): boolean {
    return (
      this.code === 'llm.rate_limited' || this.code === 'llm.server_error' || this.code === 'llm.timeout' || this.code === 'llm.connection'
    );
  }
}

/** Replaces every occurrence of the given secrets (and bearer tokens) in `text`, so errors and logs can be printed. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, '$1***').replace(/\bsk-[A-Za-z0-9_-]{8,}/g, 'sk-***');
}
