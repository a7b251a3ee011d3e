import { describe, expect, it } from 'vitest';
import {
  deleteEmbeddingsForModel,
  embeddingTextHash,
  getEmbedding,
  getEmbeddings,
  putEmbedding,
  putEmbeddings,
} from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

/** Bit-level equality: -0, NaN payloads and subnormals must survive, not just compare equal. */
function bits(v: Float32Array): number[] {
  return Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length));
}

describe('src/main/services/store/embeddings', () => {
  it('round-trips vectors bit for bit across a reopen, including -0, NaN, infinities and subnormals', () => {
    const dataDir = temp.dir();
    const random = new Float32Array(1536).map(() => (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 20 - 10));
    const special = new Float32Array([-0, 0, Number.NaN, Infinity, -Infinity, 1.4e-45, 3.4028234663852886e38, 1 / 3]);
    const first = temp.open({}, dataDir);
    putEmbedding(first.db, { textHash: embeddingTextHash('save the file'), model: 'text-embedding-3-small', vector: random });
    putEmbedding(first.db, { textHash: 'special', model: 'm', vector: special });
    first.close();
    const { db } = temp.open({}, dataDir);
    expect(bits(getEmbedding(db, embeddingTextHash('save the file'), 'text-embedding-3-small')!)).toEqual(bits(random));
    expect(bits(getEmbedding(db, 'special', 'm')!)).toEqual(bits(special));
  });

  it('stores a vector that is a view into a larger buffer without its neighbours', () => {
    const { db } = temp.open();
    const backing = new Float32Array([9, 1, 2, 3, 9]);
    putEmbedding(db, { textHash: 'h', model: 'm', vector: backing.subarray(1, 4) });
    expect(Array.from(getEmbedding(db, 'h', 'm')!)).toEqual([1, 2, 3]);
  });

  it('keys by text hash and model, replacing on a second put', () => {
    const { db } = temp.open();
    putEmbedding(db, { textHash: 'h', model: 'a', vector: new Float32Array([1, 2]) });
    putEmbedding(db, { textHash: 'h', model: 'b', vector: new Float32Array([3, 4, 5]) });
    putEmbedding(db, { textHash: 'h', model: 'a', vector: new Float32Array([6]) });
    expect(Array.from(getEmbedding(db, 'h', 'a')!)).toEqual([6]);
    expect(Array.from(getEmbedding(db, 'h', 'b')!)).toEqual([3, 4, 5]);
    expect(getEmbedding(db, 'h', 'c')).toBeUndefined();
    expect(getEmbedding(db, 'other', 'a')).toBeUndefined();
  });

  it('reads and writes in batches, leaving misses out of the map', () => {
    const { db } = temp.open();
    putEmbeddings(
      db,
      ['x', 'y', 'z'].map((t, i) => ({ textHash: embeddingTextHash(t), model: 'm', vector: new Float32Array([i, i + 0.5]) })),
    );
    const found = getEmbeddings(db, ['x', 'missing', 'z'].map(embeddingTextHash), 'm');
    expect([...found.keys()]).toEqual([embeddingTextHash('x'), embeddingTextHash('z')]);
    expect(Array.from(found.get(embeddingTextHash('z'))!)).toEqual([2, 2.5]);
    expect(getEmbeddings(db, [embeddingTextHash('y')], 'm').size).toBe(1); // a second call gets its own result
    expect(deleteEmbeddingsForModel(db, 'm')).toBe(3);
    expect(getEmbeddings(db, ['x', 'y', 'z'].map(embeddingTextHash), 'm').size).toBe(0);
  });

  it('rejects what is not a non-empty Float32Array', () => {
    const { db } = temp.open();
    expect(() => putEmbedding(db, { textHash: 'h', model: 'm', vector: [1, 2] as unknown as Float32Array })).toThrow(
      'Expected `vector` to be a non-empty Float32Array, got `[1,2]` (array)',
    );
    expect(() => putEmbedding(db, { textHash: 'h', model: 'm', vector: new Float32Array(0) })).toThrow(/non-empty Float32Array/);
    expect(() => putEmbedding(db, { textHash: '', model: 'm', vector: new Float32Array(1) })).toThrow(
      /Expected `textHash` to be a non-empty string/,
    );
  });

  it('hashes text as SHA-256 hex of its UTF-8 bytes', () => {
    expect(embeddingTextHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
