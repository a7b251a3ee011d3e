import { z } from 'zod';
import { LlmError } from './errors';
import type { OpenAiLlmClient } from './OpenAiLlmClient';

/** What a server turned out to support; `structured` is the best mode that worked. */
export interface Capabilities {
  reachable: boolean;
  models: string[];
  /** Whether the configured model is among the listed ones (servers that list nothing give `unknown`). */
  modelListed: 'yes' | 'no' | 'unknown';
  structured: 'json_schema' | 'json_object' | 'prompt' | 'none';
  images: boolean;
  embeddings: { dimensions: number } | false;
  notes: string[];
}

/** A 1x1 white PNG: the smallest image that tells whether the endpoint takes images at all. */
const PIXEL_PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC', 'base64'),
);

/**
 * Probes a server with small requests: model list, structured output (schema, then JSON mode,
 * then plain prompt), an image, and embeddings. Leaves the client in the best structured mode found.
 */
export async function probeCapabilities(
  client: OpenAiLlmClient,
  what: { chat?: boolean; images?: boolean; embeddings?: boolean } = { chat: true, images: true, embeddings: true },
  signal?: AbortSignal,
): Promise<Capabilities> {
  const caps: Capabilities = {
    reachable: false,
    models: [],
    modelListed: 'unknown',
    structured: 'none',
    images: false,
    embeddings: false,
    notes: [],
  };
  const opt = signal ? { signal } : {};
  try {
    caps.models = await client.listModels(signal);
    caps.reachable = true;
    if (caps.models.length) caps.modelListed = caps.models.includes(client.config.model) ? 'yes' : 'no';
  } catch (err) {
    if (err instanceof LlmError && (err.code === 'llm.connection' || err.code === 'llm.timeout' || err.code === 'llm.auth')) {
      caps.notes.push(err.message);
      return caps;
    }
    caps.notes.push(`model list unavailable: ${(err as Error).message}`);
    caps.reachable = true;
  }
  const Ping = z.object({ ok: z.boolean() });
  if (what.chat) {
    for (const mode of ['json_schema', 'json_object', 'prompt'] as const) {
      client.setStructuredMode(mode);
      try {
        await client.structured({
          name: 'ping',
          schema: Ping,
          stage: 'probe',
          maxTokens: 20,
          messages: [{ role: 'user', content: 'Reply with {"ok": true}.' }],
          ...opt,
        });
        caps.structured = mode;
        break;
      } catch (err) {
        caps.notes.push(`${mode}: ${(err as Error).message}`);
      }
    }
    if (caps.structured !== 'none') client.setStructuredMode(caps.structured);
  }
  if (what.images) {
    try {
      await client.chat({
        stage: 'probe',
        maxTokens: 5,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What colour is this pixel? One word.' },
              { type: 'image', png: PIXEL_PNG },
            ],
          },
        ],
        ...opt,
      });
      caps.images = true;
    } catch (err) {
      caps.notes.push(`images: ${(err as Error).message}`);
    }
  }
  if (what.embeddings) {
    try {
      const [v] = await client.embed(['ping'], opt);
      if (v?.length) caps.embeddings = { dimensions: v.length };
    } catch (err) {
      caps.notes.push(`embeddings: ${(err as Error).message}`);
    }
  }
  return caps;
}
