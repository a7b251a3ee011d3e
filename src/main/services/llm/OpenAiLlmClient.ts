import OpenAI from 'openai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ProviderConfig, StructuredMode } from './config';
import { LlmError, redactSecrets } from './errors';
import { parseStructured, toResponseSchema } from './structured';
import type { ChatMessage, ChatRequest, ChatResult, LlmClient, StructuredRequest } from './types';
import type { UsageMeter } from './UsageMeter';
import { abortableSleep } from '../../../shared/sleep';

/** Injected for tests: how long to wait between retries. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => abortableSleep(ms, signal, () => new LlmError('llm.aborted', 'The model call was cancelled')),
};

const MAX_BACKOFF_MS = 20_000;

/**
 * A model provider through the `openai` package: any OpenAI-compatible server by base URL.
 * Retries (429, 5xx, timeouts, dropped connections) are ours rather than the SDK's, so each
 * attempt is accounted and cancellation stops the backoff too.
 */
export class OpenAiLlmClient implements LlmClient {
  private readonly sdk: OpenAI;
  /** Downgraded at run time when a server rejects `response_format` (`auto` mode only). */
  private structuredMode: Exclude<StructuredMode, 'auto'>;

  constructor(
    readonly config: ProviderConfig,
    private readonly clock: RetryClock = realClock,
  ) {
    const keyless = !config.apiKey;
    this.sdk = new OpenAI({
      baseURL: config.baseURL,
      // The SDK insists on a key; for keyless local servers the header is then dropped below.
      apiKey: config.apiKey ?? 'no-key',
      maxRetries: 0,
      timeout: config.timeoutMs,
      // The key goes to the configured base URL and nowhere else: a redirect is an error, not
      // followed (fetch drops `Authorization` on a cross-origin redirect, but not Azure's `api-key`).
      fetchOptions: { redirect: 'manual' },
      defaultHeaders: {
        ...(keyless && { Authorization: null }),
        ...(config.keyHeader === 'api-key' && config.apiKey && { 'api-key': config.apiKey, Authorization: null }),
      },
    });
    this.structuredMode = config.structured === 'auto' ? 'json_schema' : config.structured;
  }

  /** The structured-output mode in use (after any downgrade). */
  get mode(): Exclude<StructuredMode, 'auto'> {
    return this.structuredMode;
  }

  setStructuredMode(mode: Exclude<StructuredMode, 'auto'>): void {
    this.structuredMode = mode;
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    return this.complete(req, undefined);
  }

  async structured<T>(req: StructuredRequest<T>): Promise<T> {
    const schema = toResponseSchema(req.schema);
    for (;;) {
      const mode = this.structuredMode;
      const messages = mode === 'json_schema' ? req.messages : withSchemaInstructions(req.messages, req.name, schema);
      const format: ChatCompletionCreateParamsNonStreaming['response_format'] =
        mode === 'json_schema'
          ? { type: 'json_schema', json_schema: { name: req.name, schema, strict: false } }
          : mode === 'json_object'
            ? { type: 'json_object' }
            : undefined;
      try {
        const { text } = await this.complete({ ...req, messages }, format);
        return parseStructured(text, req.name, req.schema);
      } catch (err) {
        // A server that does not know `response_format` answers 400; fall back one mode and ask again.
        if (
          this.config.structured === 'auto' &&
          err instanceof LlmError &&
          err.code === 'llm.bad_request' &&
          /response_format|json_schema|json_object/i.test(err.message) &&
          mode !== 'prompt'
        ) {
          this.structuredMode = mode === 'json_schema' ? 'json_object' : 'prompt';
          continue;
        }
        throw err;
      }
    }
  }

  async embed(texts: readonly string[], opts: { signal?: AbortSignal; meter?: UsageMeter } = {}): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 64) {
      const batch = texts.slice(i, i + 64);
      const res = await this.withRetries('embed', opts.meter, opts.signal, async (signal) => {
        const r = await this.sdk.embeddings.create({ model: this.config.model, input: [...batch], encoding_format: 'float' }, { signal });
        return {
          value: r.data.sort((a, b) => a.index - b.index).map((d) => d.embedding),
          promptTokens: r.usage?.prompt_tokens ?? 0,
          completionTokens: 0,
        };
      });
      if (res.length !== batch.length) throw new LlmError('llm.malformed_output', `Expected ${batch.length} embeddings, got ${res.length}`);
      out.push(...res);
    }
    return out;
  }

  /** Lists model ids (`GET /models`), for probing and the settings screen. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    return this.withRetries('models', undefined, signal, async (s) => {
      const ids: string[] = [];
      for await (const m of this.sdk.models.list({ signal: s })) ids.push(m.id);
      return { value: ids, promptTokens: 0, completionTokens: 0 };
    });
  }

  private async complete(req: ChatRequest, format: ChatCompletionCreateParamsNonStreaming['response_format']): Promise<ChatResult> {
    const temperature = req.temperature ?? this.config.temperature;
    const maxTokens = req.maxTokens ?? this.config.maxTokens;
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.config.model,
      messages: req.messages.map(toSdkMessage),
      ...(temperature !== undefined && { temperature }),
      ...(maxTokens !== undefined && { max_tokens: maxTokens }),
      ...(format && { response_format: format }),
    };
    return this.withRetries(req.stage ?? 'chat', req.meter, req.signal, async (signal) => {
      const r = await this.sdk.chat.completions.create(body, { signal });
      const choice = r.choices?.[0];
      const text = choice?.message?.content;
      if (typeof text !== 'string') {
        throw new LlmError(
          'llm.malformed_output',
          `Expected a chat completion with message content, got ${JSON.stringify(r).slice(0, 200)}`,
        );
      }
      const usage = { promptTokens: r.usage?.prompt_tokens ?? 0, completionTokens: r.usage?.completion_tokens ?? 0 };
      return { value: { text, usage }, ...usage };
    });
  }

  private async withRetries<T>(
    stage: string,
    meter: UsageMeter | undefined,
    outer: AbortSignal | undefined,
    attempt: (signal: AbortSignal | undefined) => Promise<{ value: T; promptTokens: number; completionTokens: number }>,
  ): Promise<T> {
    const started = this.clock.now();
    let attempts = 0;
    const account = (outcome: string, tokens = { promptTokens: 0, completionTokens: 0 }) =>
      meter?.record({
        role: this.config.role,
        model: this.config.model,
        stage,
        ...tokens,
        ms: this.clock.now() - started,
        attempts,
        outcome,
      });
    for (;;) {
      attempts += 1;
      try {
        if (outer?.aborted) throw new LlmError('llm.aborted', 'The model call was cancelled');
        const r = await attempt(outer);
        account('ok', r);
        return r.value;
      } catch (raw) {
        const err = this.toLlmError(raw);
        if (!err.retryable || attempts > this.config.maxRetries) {
          account(err.code);
          throw attempts > 1 ? new LlmError(err.code, `${err.message} (after ${attempts} attempts)`, { ...err.info, attempts }) : err;
        }
        try {
          await this.clock.sleep(this.backoff(attempts, raw), outer);
        } catch (abort) {
          account('llm.aborted');
          throw abort;
        }
      }
    }
  }

  private backoff(attempt: number, raw: unknown): number {
    const headers = raw instanceof OpenAI.APIError ? raw.headers : undefined;
    const ms = Number(headers?.get('retry-after-ms'));
    const s = Number(headers?.get('retry-after'));
    if (Number.isFinite(ms) && ms >= 0 && headers?.get('retry-after-ms')) return Math.min(ms, MAX_BACKOFF_MS);
    if (Number.isFinite(s) && s >= 0 && headers?.get('retry-after')) return Math.min(s * 1000, MAX_BACKOFF_MS);
    const base = this.config.backoffMs * 2 ** (attempt - 1);
    return Math.min(MAX_BACKOFF_MS, base * (0.75 + Math.random() * 0.5));
  }

  private toLlmError(raw: unknown): LlmError {
    if (raw instanceof LlmError) return raw;
    const where = `${this.config.baseURL} (model ${this.config.model})`;
    const clean = (m: string) => redactSecrets(m, [this.config.apiKey]);
    if (raw instanceof OpenAI.APIUserAbortError) return new LlmError('llm.aborted', 'The model call was cancelled');
    if (raw instanceof OpenAI.APIConnectionTimeoutError)
      return new LlmError(
        'llm.timeout',
        `No answer from ${where} within ${this.config.timeoutMs} ms; raise llm.${this.config.role}.timeoutMs or check the server`,
      );
    if (raw instanceof OpenAI.APIConnectionError)
      return new LlmError('llm.connection', `Cannot reach ${where}: ${clean(raw.message)}; is the server running?`);
    if (raw instanceof OpenAI.APIError) {
      const status = raw.status ?? 0;
      const msg = clean(raw.message);
      if (status >= 300 && status < 400)
        return new LlmError(
          'llm.bad_request',
          `${where} answered with a redirect (${status}${raw.headers?.get('location') ? ` to ${raw.headers.get('location')}` : ''}); SkillDesk sends the API key only to the configured base URL, so set the base URL to where the server answers`,
          { status },
        );
      if (status === 429) return new LlmError('llm.rate_limited', `Rate limited by ${where}: ${msg}`, { status });
      if (status === 408 || status >= 500)
        return new LlmError('llm.server_error', `Server error ${status} from ${where}: ${msg}`, { status });
      if (status === 401 || status === 403)
        return new LlmError('llm.auth', `Authentication failed at ${where} (${status}); check the API key setting`, { status });
      if (status === 404)
        return new LlmError('llm.not_found', `Not found at ${where} (404): ${msg}; check the base URL and model name`, { status });
      return new LlmError('llm.bad_request', `Request rejected by ${where} (${status}): ${msg}`, { status });
    }
    return new LlmError('llm.connection', `Model call to ${where} failed: ${clean(raw instanceof Error ? raw.message : String(raw))}`);
  }
}

function withSchemaInstructions(messages: ChatMessage[], name: string, schema: Record<string, unknown>): ChatMessage[] {
  const note = `Answer with one JSON object only (no prose, no code fence), named ${name}, matching this JSON Schema:\n${JSON.stringify(schema)}`;
  const [first, ...rest] = messages;
  if (first?.role === 'system' && typeof first.content === 'string')
    return [{ role: 'system', content: `${first.content}\n\n${note}` }, ...rest];
  return [{ role: 'system', content: note }, ...messages];
}

function toSdkMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (typeof m.content === 'string') return { role: m.role, content: m.content } as ChatCompletionMessageParam;
  const parts: ChatCompletionContentPart[] = m.content.map((p) =>
    p.type === 'text'
      ? { type: 'text', text: p.text }
      : { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(p.png).toString('base64')}` } },
  );
  if (m.role !== 'user') return { role: m.role, content: parts.filter((p) => p.type === 'text') } as ChatCompletionMessageParam;
  return { role: 'user', content: parts };
}
