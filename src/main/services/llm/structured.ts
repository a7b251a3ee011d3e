import { z } from 'zod';
import { describeValue } from '../../../shared/errors';
import { LlmError } from './errors';

/** JSON Schema for a zod schema, in the subset OpenAI-compatible servers accept. */
export function toResponseSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * Pulls the JSON value out of a model answer: bare JSON, a ```json fence, or JSON after prose
 * (small local models often add a sentence before it).
 */
export function extractJson(text: string): unknown {
  const fence = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidates = [text.trim(), fence?.[1]?.trim()];
  const start = text.search(/[{[]/);
  if (start >= 0) {
    const close = text[start] === '{' ? '}' : ']';
    candidates.push(text.slice(start, text.lastIndexOf(close) + 1));
  }
  for (const c of candidates) {
    if (!c) continue;
    try {
      return JSON.parse(c);
    } catch {
      // try the next reading
    }
  }
  throw new LlmError('llm.malformed_output', `Expected the model to answer with JSON, got ${describeValue(text)}`, { raw: text });
}

/** Parses and validates a structured answer; the error names the first failing field, for the re-ask. */
export function parseStructured<T>(text: string, name: string, schema: z.ZodType<T>): T {
  const value = extractJson(text);
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  const issues = res.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  throw new LlmError('llm.malformed_output', `Expected the answer to match \`${name}\` (${issues}), got ${describeValue(value)}`, {
    raw: text,
  });
}
