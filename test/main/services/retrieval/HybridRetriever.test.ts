import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillLibrary } from '../../../../src/shared/skill';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { OpenAiLlmClient, resolveProviderConfig, UsageMeter } from '../../../../src/main/services/llm';
import { HybridRetriever, llmEmbedder, MemoryEmbeddingCache, skillCards, stem } from '../../../../src/main/services/retrieval';
import { useReplayServer } from '../../../helpers/replay';

describe('src/main/services/retrieval/HybridRetriever', () => {
  let library: SkillLibrary;
  const replay = useReplayServer();
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
  });

  it('makes one card per interface method with the apps that implement it on the platform', () => {
    const cards = skillCards(library, 'linux');
    const save = cards.find((c) => c.ref === 'Document.save_as')!;
    // Every Linux app with a save_as implementation, and no Windows app.
    const linuxApps = [...library.apps.values()].filter((a) => a.platforms.includes('linux')).map((a) => a.id);
    const withSaveAs = library.implementationsOf('Document.save_as').map((s) => s.app!);
    expect(save.apps).toEqual(withSaveAs.filter((a) => linuxApps.includes(a)).sort());
    expect(save.apps).toEqual(expect.arrayContaining(['mousepad', 'wine-notepad']));
    expect(save.apps).not.toContain('notepad');
    expect(cards.some((c) => c.ref.startsWith('Desktop.'))).toBe(false);
    expect(skillCards(library, 'win32').find((c) => c.ref === 'Document.save_as')!.apps).toEqual([
      'excel',
      'notepad',
      'paint',
      'powerpoint',
      'vscode',
      'word',
      'wordpad',
    ]);
  });

  it('stems inflections to one term', () => {
    expect(['save', 'saving', 'saved', 'saves'].map(stem)).toEqual(['sav', 'sav', 'sav', 'sav']);
  });

  it('ranks the lexically matching skill first with no model configured', async () => {
    const r = HybridRetriever.fromLibrary(library, { platform: 'linux' });
    expect(r.mode).toBe('lexical');
    expect((await r.retrieve('store the document under /tmp/x.txt'))[0]!.card.ref).toBe('Document.save_as');
    expect((await r.retrieve('please reset the calculator to zero', { top: 2 }))[0]!.card.ref).toBe('Calculator.clear');
  });

  it('merges the top-L of several queries, keeping each card once with the queries that found it', async () => {
    const r = HybridRetriever.fromLibrary(library, { platform: 'linux' });
    const hits = await r.retrieve(['paste the clipboard', 'copy the selection'], { top: 4, perQuery: 2 });
    const refs = hits.map((h) => h.card.ref);
    expect(refs).toContain('TextEditor.paste');
    expect(refs).toContain('TextEditor.copy');
    expect(new Set(refs).size).toBe(refs.length);
    expect(hits.find((h) => h.card.ref === 'TextEditor.paste')!.queries).toContain('paste the clipboard');
  });

  it('adds cosine similarity from the embedder and caches vectors by text hash and model', async () => {
    const client = new OpenAiLlmClient(
      resolveProviderConfig('embedder', { embedder: { baseURL: replay.baseURL, model: 'replay-embed' } })!,
    );
    const meter = new UsageMeter();
    const cache = new MemoryEmbeddingCache();
    const r = HybridRetriever.fromLibrary(library, { platform: 'linux', embedder: llmEmbedder(client, meter), cache });
    const hits = await r.retrieve('open a file in the editor');
    expect(r.mode).toBe('hybrid');
    expect(hits[0]!.semantic).toBeTypeOf('number');
    expect(hits[0]!.card.ref).toBe('Document.open_file');
    const embedRequests = replay.server.requests.filter((q) => q.path.endsWith('/embeddings')).length;
    // a second retriever over the same cache embeds only the new query
    const r2 = HybridRetriever.fromLibrary(library, { platform: 'linux', embedder: llmEmbedder(client, meter), cache });
    await r2.retrieve('open a file in the editor');
    expect(replay.server.requests.filter((q) => q.path.endsWith('/embeddings')).length).toBe(embedRequests);
    expect(cache.hits).toBeGreaterThan(r.cards.length);
    expect(meter.totals().byStage.embed!.calls).toBeGreaterThan(0);
  });
});
