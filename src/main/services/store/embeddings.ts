import { endianness } from 'node:os';
import { describeValue } from '../../../shared/errors';
import { StoreError } from './errors';
import { sha256Hex } from './json';
import { cachedTransaction, prepared, type StoreDb } from './statements';
import { expectInteger, expectText } from './validate';

// Vectors are stored as little-endian float32 so a store file moves between machines unchanged.
const LITTLE_ENDIAN = endianness() === 'LE';

/** The cache key of a text: SHA-256 hex of its UTF-8 bytes. */
export function embeddingTextHash(text: string): string {
  return sha256Hex(text);
}

export interface EmbeddingInput {
  textHash: string;
  model: string;
  vector: Float32Array;
  /** @default Date.now() */
  createdAt?: number;
}

/** Stores (or replaces) the vector of a text under a model. */
export function putEmbedding(db: StoreDb, input: EmbeddingInput): void {
  expectText(input.textHash, 'textHash');
  expectText(input.model, 'model');
  if (!(input.vector instanceof Float32Array) || input.vector.length === 0) {
    throw new StoreError(
      'store.invalid_argument',
      `Expected \`vector\` to be a non-empty Float32Array, got ${describeValue(input.vector)}`,
    );
  }
  const createdAt = input.createdAt ?? Date.now();
  expectInteger(createdAt, 'createdAt');
  prepared(db, 'INSERT OR REPLACE INTO embeddings (text_hash, model, dims, vector, created_at) VALUES (?, ?, ?, ?, ?)').run(
    input.textHash,
    input.model,
    input.vector.length,
    encodeVector(input.vector),
    createdAt,
  );
}

/** Stores many vectors in one transaction (one commit instead of one per vector). */
export function putEmbeddings(db: StoreDb, inputs: readonly EmbeddingInput[]): void {
  cachedTransaction(db, 'putEmbeddings', (d: StoreDb, all: readonly EmbeddingInput[]) => {
    for (const input of all) putEmbedding(d, input);
  })(db, inputs);
}

/** The cached vector of a text under a model, or undefined. */
export function getEmbedding(db: StoreDb, textHash: string, model: string): Float32Array | undefined {
  const row = prepared<{ dims: number; vector: Buffer }>(db, 'SELECT dims, vector FROM embeddings WHERE text_hash = ? AND model = ?').get(
    textHash,
    model,
  );
  return row && decodeVector(row.vector, row.dims);
}

/** The cached vectors among `textHashes` under a model; missing ones are absent from the map. */
export function getEmbeddings(db: StoreDb, textHashes: readonly string[], model: string): Map<string, Float32Array> {
  // One read transaction: a consistent snapshot, and no per-lookup lock traffic.
  return cachedTransaction(db, 'getEmbeddings', (d: StoreDb, hashes: readonly string[], m: string) => {
    const found = new Map<string, Float32Array>();
    for (const hash of hashes) {
      const vector = getEmbedding(d, hash, m);
      if (vector) found.set(hash, vector);
    }
    return found;
  }).deferred(db, textHashes, model);
}

/** Drops every vector of a model (after switching embedders); returns how many. */
export function deleteEmbeddingsForModel(db: StoreDb, model: string): number {
  return prepared(db, 'DELETE FROM embeddings WHERE model = ?').run(model).changes;
}

function encodeVector(vector: Float32Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf;
}

function decodeVector(bytes: Buffer, dims: number): Float32Array {
  // Copy into a fresh, aligned buffer: a Buffer's byteOffset need not be a multiple of 4.
  const out = new Float32Array(dims);
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes.subarray(0, dims * 4));
  else for (let i = 0; i < dims; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
