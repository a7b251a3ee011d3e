import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  LlmError,
  OpenAiLlmClient,
  UsageMeter,
  probeCapabilities,
  resolveProviderConfig,
  type RoleSettings,
} from '../../../../src/main/services/llm';
import { useReplayServer } from '../../../helpers/replay';

const Pick = z.object({ skill: z.string(), reason: z.string() });

describe('src/main/services/llm/OpenAiLlmClient', () => {
  const replay = useReplayServer('test');
  const client = (over: Partial<RoleSettings> = {}) =>
    new OpenAiLlmClient(
      resolveProviderConfig('planner', {
        planner: { preset: 'custom', baseURL: replay.baseURL, model: 'replay-model', backoffMs: 10, ...over },
      })!,
    );

  it('returns validated structured output and accounts its tokens when the server answers with JSON schema', async () => {
    replay.server.load({
      name: 't',
      interactions: [
        {
          route: 'chat',
          stage: 'pick_skill',
          respond: { content: '{"skill":"TextEditor.save_as","reason":"saves"}', usage: { prompt_tokens: 120, completion_tokens: 9 } },
        },
      ],
    });
    const meter = new UsageMeter();
    const out = await client().structured({
      name: 'pick_skill',
      schema: Pick,
      meter,
      stage: 'rerank',
      messages: [{ role: 'user', content: 'pick' }],
    });
    expect(out).toEqual({ skill: 'TextEditor.save_as', reason: 'saves' });
    expect(replay.server.requests[0]!.body.response_format.type).toBe('json_schema');
    expect(replay.server.requests[0]!.body.response_format.json_schema.schema.required).toEqual(['skill', 'reason']);
    expect(meter.totals()).toMatchObject({ calls: 1, promptTokens: 120, completionTokens: 9, totalTokens: 129, retries: 0 });
  });

  it('retries after a 429 honouring retry-after-ms, then succeeds', async () => {
    replay.server.load({
      name: 't',
      interactions: [
        {
          route: 'chat',
          respond: { status: 429, headers: { 'retry-after-ms': '50' }, body: { error: { message: 'slow down', type: 'rate_limit' } } },
        },
        { route: 'chat', respond: { status: 503, body: { error: { message: 'overloaded' } } } },
        { route: 'chat', respond: { content: 'hello' } },
      ],
    });
    const meter = new UsageMeter();
    const t0 = Date.now();
    const res = await client().chat({ meter, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.text).toBe('hello');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(50);
    expect(replay.server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(3);
    expect(meter.records[0]).toMatchObject({ attempts: 3, outcome: 'ok' });
  });

  it('fails with llm.rate_limited after the retry budget is spent', async () => {
    const r429 = { route: 'chat' as const, respond: { status: 429, body: { error: { message: 'quota' } } } };
    replay.server.load({ name: 't', interactions: [r429, r429, r429] });
    const err = await client({ maxRetries: 2 })
      .chat({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).code).toBe('llm.rate_limited');
    expect((err as LlmError).message).toMatch(/after 3 attempts/);
  });

  it('times out with llm.timeout when the server answers too late', async () => {
    replay.server.load({ name: 't', interactions: [{ route: 'chat', respond: { content: 'late', delayMs: 3000 } }] });
    const t0 = Date.now();
    const err = await client({ timeoutMs: 200, maxRetries: 0 })
      .chat({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect((err as LlmError).code).toBe('llm.timeout');
    expect(Date.now() - t0).toBeLessThan(2500);
  });

  it('stops with llm.aborted when the caller cancels during a slow answer', async () => {
    replay.server.load({ name: 't', interactions: [{ route: 'chat', respond: { content: 'late', delayMs: 3000 } }] });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await client()
      .chat({ signal: ac.signal, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect((err as LlmError).code).toBe('llm.aborted');
  });

  it('reports malformed JSON with the raw answer when the model breaks the format', async () => {
    replay.server.load({
      name: 't',
      interactions: [{ route: 'chat', respond: { content: '{"skill": "TextEditor.save_as", "reason": ' } }],
    });
    const err = await client()
      .structured({ name: 'pick_skill', schema: Pick, messages: [{ role: 'user', content: 'pick' }] })
      .catch((e: unknown) => e);
    expect((err as LlmError).code).toBe('llm.malformed_output');
    expect((err as LlmError).info.raw).toContain('"reason": ');
  });

  it('falls back to JSON mode when the server rejects json_schema', async () => {
    replay.server.load({
      name: 't',
      disabled: ['json_schema'],
      interactions: [{ route: 'chat', stage: 'pick_skill', respond: { content: 'Sure! ```json\n{"skill":"x.y","reason":"r"}\n```' } }],
    });
    const c = client();
    const out = await c.structured({
      name: 'pick_skill',
      schema: Pick,
      messages: [
        { role: 'system', content: 'You pick.' },
        { role: 'user', content: 'pick' },
      ],
    });
    expect(out.skill).toBe('x.y');
    expect(c.mode).toBe('json_object');
    expect(replay.server.requests.at(-1)!.body.response_format).toEqual({ type: 'json_object' });
    expect(replay.server.requests.at(-1)!.body.messages[0].content).toMatch(/JSON Schema/);
  });

  it('sends no Authorization header for a keyless local server, and never echoes a key in errors', async () => {
    replay.server.load({
      name: 't',
      interactions: [
        { route: 'chat', respond: { content: 'ok' } },
        { route: 'chat', respond: { status: 401, body: { error: { message: 'Incorrect API key provided: sk-secret-abcdefgh1234' } } } },
      ],
    });
    await client().chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(replay.server.requests[0]!.headers.authorization).toBeUndefined();
    const keyed = client({ apiKey: 'sk-secret-abcdefgh1234' });
    const err = (await keyed.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as LlmError;
    expect(replay.server.requests[1]!.headers.authorization).toBe('Bearer sk-secret-abcdefgh1234');
    expect(err.code).toBe('llm.auth');
    expect(`${err.message} ${JSON.stringify(err.info)}`).not.toContain('sk-secret-abcdefgh1234');
  });

  it('sends the key in the api-key header for Azure OpenAI', async () => {
    replay.server.load({ name: 't', interactions: [{ route: 'chat', respond: { content: 'ok' } }] });
    const c = new OpenAiLlmClient(
      resolveProviderConfig('planner', {
        planner: { preset: 'azure', baseURL: replay.baseURL, apiKey: 'azure-key-123456', model: 'gpt-4o' },
      })!,
    );
    await c.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(replay.server.requests[0]!.headers['api-key']).toBe('azure-key-123456');
    expect(replay.server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('embeds texts in order and probes what the server supports', async () => {
    const c = client();
    const [a, b] = await c.embed(['save the file', 'calculate 2 + 2']);
    expect(a).toHaveLength(64);
    expect(a).not.toEqual(b);
    replay.server.load({
      name: 't',
      disabled: ['images'],
      interactions: [{ route: 'chat', stage: 'ping', respond: { content: '{"ok":true}' } }],
    });
    const caps = await probeCapabilities(c);
    expect(caps).toMatchObject({
      reachable: true,
      modelListed: 'yes',
      structured: 'json_schema',
      images: false,
      embeddings: { dimensions: 64 },
    });
  });

  it('reports an unreachable server as not reachable instead of throwing', async () => {
    const c = new OpenAiLlmClient(
      resolveProviderConfig('planner', { planner: { baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 } })!,
    );
    const caps = await probeCapabilities(c);
    expect(caps.reachable).toBe(false);
    expect(caps.notes[0]).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:9\/v1/);
  });
});

describe('src/main/services/llm/config', () => {
  it('applies presets and refuses a missing key where the service needs one', () => {
    expect(resolveProviderConfig('planner', { planner: { preset: 'ollama', model: 'qwen2.5' } })).toMatchObject({
      baseURL: 'http://127.0.0.1:11434/v1',
      keyHeader: 'authorization',
    });
    expect(
      resolveProviderConfig(
        'embedder',
        { embedder: { preset: 'azure', resource: 'acme', apiKeyEnv: 'AZ_API_KEY', model: 'e' } },
        { AZ_API_KEY: 'k' },
      ),
    ).toMatchObject({ baseURL: 'https://acme.openai.azure.com/openai/v1', apiKey: 'k', keyHeader: 'api-key' });
    expect(() => resolveProviderConfig('planner', { planner: { preset: 'openai', model: 'gpt-4o' } }, {})).toThrow(/needs an API key/);
    expect(resolveProviderConfig('grounder', {})).toBeUndefined();
  });
});
