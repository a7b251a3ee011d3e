import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedCached, SqliteEmbeddingCache, type Embedder } from '../../../../src/main/services/retrieval';
import { openStore } from '../../../../src/main/services/store';

describe('src/main/services/retrieval/SqliteEmbeddingCache', () => {
  it('keeps vectors across store reopenings so only new texts reach the embedder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-emb-'));
    try {
      const asked: string[] = [];
      const embedder: Embedder = {
        model: 'm1',
        embed: async (texts) => {
          asked.push(...texts);
          return texts.map((t) => [t.length, 1, 0]);
        },
      };
      let store = openStore({ dataDir: dir });
      const first = await embedCached(embedder, new SqliteEmbeddingCache(store.db), ['ab', 'abcd']);
      store.close();
      store = openStore({ dataDir: dir });
      const second = await embedCached(embedder, new SqliteEmbeddingCache(store.db), ['abcd', 'xyz']);
      store.close();
      expect(asked).toEqual(['ab', 'abcd', 'xyz']);
      expect([...second[0]!]).toEqual([...first[1]!]);
      expect(Math.hypot(...second[1]!)).toBeCloseTo(1, 5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
