import { getEmbedding, getEmbeddings, putEmbedding, putEmbeddings, type StoreDb } from '../store';
import type { EmbeddingCache } from './EmbeddingCache';

/** The embedding cache in the store's `embeddings` table (by text hash and model), so vectors survive restarts. */
export class SqliteEmbeddingCache implements EmbeddingCache {
  constructor(private readonly db: StoreDb) {}

  get(model: string, textHash: string): Float32Array | undefined {
    return getEmbedding(this.db, textHash, model);
  }

  put(model: string, textHash: string, vector: Float32Array): void {
    putEmbedding(this.db, { textHash, model, vector });
  }

  getMany(model: string, textHashes: readonly string[]): Map<string, Float32Array> {
    return getEmbeddings(this.db, textHashes, model);
  }

  putMany(model: string, entries: readonly { textHash: string; vector: Float32Array }[]): void {
    putEmbeddings(
      this.db,
      entries.map((e) => ({ textHash: e.textHash, model, vector: e.vector })),
    );
  }
}
