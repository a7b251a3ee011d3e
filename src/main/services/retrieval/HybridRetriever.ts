import type { SkillLibrary, Platform } from '../../../shared/skill';
import { skillCards, type SkillCard } from './cards';
import { cosine, embedCached, MemoryEmbeddingCache, type EmbeddingCache, type Embedder } from './EmbeddingCache';
import { MiniSearchLexicalIndex } from './LexicalIndex';

export interface RetrieveOptions {
  /** How many cards to return. @default 5 */
  top?: number;
  /** How many cards each query contributes before merging (top-L). @default max(top, 10) */
  perQuery?: number;
  signal?: AbortSignal;
}

/** A retrieved card with its scores; `score` is what ranks (0..1). */
export interface RetrievalHit {
  card: SkillCard;
  score: number;
  lexical: number;
  semantic?: number;
  /** The queries that brought it, and the intent that matched best lexically. */
  queries: string[];
  intent?: string;
}

export interface HybridOptions {
  embedder?: Embedder;
  cache?: EmbeddingCache;
  /** Weight of the lexical score in the hybrid (the rest is cosine similarity). @default 0.5 */
  lexicalWeight?: number;
  platform?: Platform;
}

/** The text a card is embedded as. */
export function cardText(card: SkillCard): string {
  return `${card.ref}: ${card.description} ${card.intents.join('; ')}`;
}

/**
 * Hybrid skill retrieval: BM25+ always, plus cosine similarity of embeddings when an embedder
 * is configured; each query keeps its top L, and the lists are merged by best score.
 */
export class HybridRetriever {
  readonly cards: SkillCard[];
  private readonly lexical: MiniSearchLexicalIndex;
  private readonly byRef: Map<string, SkillCard>;
  private readonly position: Map<string, number>;
  private cardVectors?: Promise<Float32Array[]>;
  private readonly cache: EmbeddingCache;

  constructor(
    cards: readonly SkillCard[],
    private readonly options: HybridOptions = {},
    appNames?: (app: string) => string,
  ) {
    this.cards = [...cards];
    this.byRef = new Map(this.cards.map((c) => [c.ref, c]));
    this.position = new Map(this.cards.map((c, i) => [c.ref, i]));
    this.lexical = new MiniSearchLexicalIndex(this.cards, appNames);
    this.cache = options.cache ?? new MemoryEmbeddingCache();
  }

  /** A retriever over a loaded library. */
  static fromLibrary(library: SkillLibrary, options: HybridOptions = {}): HybridRetriever {
    return new HybridRetriever(skillCards(library, options.platform), options, (a) => library.apps.get(a)?.name ?? a);
  }

  get mode(): 'lexical' | 'hybrid' {
    return this.options.embedder ? 'hybrid' : 'lexical';
  }

  card(ref: string): SkillCard | undefined {
    return this.byRef.get(ref);
  }

  /** Ranks cards for one query or several (the planner's K queries), merged. */
  async retrieve(query: string | readonly string[], opts: RetrieveOptions = {}): Promise<RetrievalHit[]> {
    const queries = (typeof query === 'string' ? [query] : [...query]).map((q) => q.trim()).filter(Boolean);
    const top = opts.top ?? 5;
    const perQuery = opts.perQuery ?? Math.max(top, 10);
    const merged = new Map<string, RetrievalHit>();
    const vectors = this.options.embedder ? await this.vectors(opts.signal) : undefined;
    const queryVectors =
      this.options.embedder && queries.length ? await embedCached(this.options.embedder, this.cache, queries, opts.signal) : undefined;
    queries.forEach((q, qi) => {
      for (const hit of this.rank(q, perQuery, vectors, queryVectors?.[qi])) {
        const seen = merged.get(hit.card.ref);
        if (!seen) merged.set(hit.card.ref, hit);
        else {
          seen.queries.push(q);
          if (hit.score > seen.score) Object.assign(seen, { ...hit, queries: seen.queries });
        }
      }
    });
    return [...merged.values()].sort((a, b) => b.score - a.score || a.card.ref.localeCompare(b.card.ref)).slice(0, top);
  }

  private rank(q: string, limit: number, vectors?: Float32Array[], qv?: Float32Array): RetrievalHit[] {
    const lex = this.lexical.search(q, limit);
    const max = lex[0]?.score ?? 1;
    const hits = new Map<string, RetrievalHit>();
    for (const h of lex)
      hits.set(h.ref, { card: this.byRef.get(h.ref)!, score: h.score / max, lexical: h.score, queries: [q], intent: h.intent });
    if (!vectors || !qv) return [...hits.values()];
    const w = this.options.lexicalWeight ?? 0.5;
    const sims = this.cards
      .map((c, i) => ({ c, s: cosine(vectors[i]!, qv) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, limit);
    for (const { c } of sims) if (!hits.has(c.ref)) hits.set(c.ref, { card: c, score: 0, lexical: 0, queries: [q] });
    for (const h of hits.values()) {
      const i = this.position.get(h.card.ref)!;
      h.semantic = cosine(vectors[i]!, qv);
      h.score = w * (h.lexical / max) + (1 - w) * Math.max(0, h.semantic);
    }
    return [...hits.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private vectors(signal?: AbortSignal): Promise<Float32Array[]> {
    this.cardVectors ??= embedCached(this.options.embedder!, this.cache, this.cards.map(cardText), signal);
    this.cardVectors.catch(() => {
      this.cardVectors = undefined;
    });
    return this.cardVectors;
  }
}
