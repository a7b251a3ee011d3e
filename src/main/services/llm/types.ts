import type { z } from 'zod';
import type { ProviderConfig } from './config';
import type { UsageMeter } from './UsageMeter';

/** One part of a user message: text, or a PNG image (screenshots for the grounder). */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; png: Uint8Array };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  messages: ChatMessage[];
  signal?: AbortSignal;
  /** Where the call's tokens and time are counted (the agent run's meter). */
  meter?: UsageMeter;
  /** What the call is for (`plan`, `rerank`, `configure`, `ground`), recorded in the accounting. */
  stage?: string;
  maxTokens?: number;
  temperature?: number;
}

export interface StructuredRequest<T> extends ChatRequest {
  /** Name of the schema, sent to the server and used in error messages, e.g. `pick_skill`. */
  name: string;
  schema: z.ZodType<T>;
}

export interface ChatResult {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
}

/** The port the agent, retrieval and grounding use; `OpenAiLlmClient` implements it. */
export interface LlmClient {
  readonly config: ProviderConfig;
  chat(req: ChatRequest): Promise<ChatResult>;
  /** A chat answer parsed as JSON and validated; throws `llm.malformed_output` (with the raw text) when it does not fit. */
  structured<T>(req: StructuredRequest<T>): Promise<T>;
  embed(texts: readonly string[], opts?: { signal?: AbortSignal; meter?: UsageMeter }): Promise<number[][]>;
}
