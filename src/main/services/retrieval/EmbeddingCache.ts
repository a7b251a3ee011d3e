import { createHash } from 'node:crypto';
import type { UsageMeter } from '../llm/UsageMeter';

/** Where embedding vectors are kept between runs, keyed by model and the text's hash (the SQLite store in the app). */
export interface EmbeddingCache {
  get(model: string, textHash: string): Float32Array | undefined;
  put(model: string, textHash: string, vector: Float32Array): void;
  /** Batch forms (one transaction in SQLite); used when present. */
  getMany?(model: string, textHashes: readonly string[]): Map<string, Float32Array>;
  putMany?(model: string, entries: readonly { textHash: string; vector: Float32Array }[]): void;
}

/** sha256 of the text, hex: the cache key (texts themselves are not stored twice). */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** An in-process cache (tests, benchmarks, and runs without a store). */
export class MemoryEmbeddingCache implements EmbeddingCache {
  private readonly map = new Map<string, Float32Array>();
  hits = 0;
  misses = 0;

  get(model: string, hash: string): Float32Array | undefined {
    const v = this.map.get(`${model}\0${hash}`);
    if (v) this.hits += 1;
    else this.misses += 1;
    return v;
  }

  put(model: string, hash: string, vector: Float32Array): void {
    this.map.set(`${model}\0${hash}`, vector);
  }
}

/** Turns texts into vectors: the configured embedder role (`LlmClient.embed`) plus its model name. */
export interface Embedder {
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Embeds through the cache: only texts never seen with this model reach the embedder. */
export async function embedCached(
  embedder: Embedder,
  cache: EmbeddingCache,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const hashes = texts.map(textHash);
  const found = cache.getMany?.(embedder.model, hashes);
  const out: (Float32Array | undefined)[] = hashes.map((h) => (found ? found.get(h) : cache.get(embedder.model, h)));
  const missing = out.flatMap((v, i) => (v ? [] : [i]));
  if (missing.length) {
    const vectors = await embedder.embed(
      missing.map((i) => texts[i]!),
      signal,
    );
    const fresh = missing.map((i, k) => ({ i, textHash: hashes[i]!, vector: normalise(Float32Array.from(vectors[k]!)) }));
    if (cache.putMany) cache.putMany(embedder.model, fresh);
    else for (const f of fresh) cache.put(embedder.model, f.textHash, f.vector);
    for (const f of fresh) out[f.i] = f.vector;
  }
  return out as Float32Array[];
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

/** Cosine of two L2-normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i]! * b[i]!;
  return s;
}

/** The embedder role's client as an `Embedder` (tokens go to `meter` when given). */
export function llmEmbedder(
  client: {
    config: { model: string };
    embed(texts: readonly string[], opts?: { signal?: AbortSignal; meter?: UsageMeter }): Promise<number[][]>;
  },
  meter?: UsageMeter,
): Embedder {
  return {
    model: client.config.model,
    embed: (texts, signal) => client.embed(texts, { ...(signal && { signal }), ...(meter && { meter }) }),
  };
}
