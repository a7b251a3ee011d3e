/** Skill retrieval: BM25+ over intents, names and descriptions; embeddings when configured; multi-query merge. */
export { skillCards } from './cards';
export type { SkillCard } from './cards';
export { HybridRetriever, cardText } from './HybridRetriever';
export type { HybridOptions, RetrievalHit, RetrieveOptions } from './HybridRetriever';
export { MiniSearchLexicalIndex } from './LexicalIndex';
export { SqliteEmbeddingCache } from './SqliteEmbeddingCache';
export type { LexicalHit } from './LexicalIndex';
export { MemoryEmbeddingCache, embedCached, textHash, cosine, llmEmbedder } from './EmbeddingCache';
export type { EmbeddingCache, Embedder } from './EmbeddingCache';
export { stem, terms, words } from './text';
