import MiniSearch from 'minisearch';
import type { SkillCard } from './cards';
import { processTerm } from './text';

interface IntentDoc {
  id: number;
  ref: string;
  name: string;
  description: string;
  intent: string;
  apps: string;
}

export interface LexicalHit {
  ref: string;
  score: number;
  /** The intent template that matched best. */
  intent: string;
}

/**
 * BM25+ (minisearch) over one document per intent template, carrying the card's name,
 * description and app names; a card scores as its best template, so a query that matches one
 * phrasing closely beats one that brushes many.
 */
export class MiniSearchLexicalIndex {
  private readonly index: MiniSearch<IntentDoc>;
  private readonly docs: IntentDoc[] = [];

  constructor(cards: readonly SkillCard[], appNames: (app: string) => string = (a) => a) {
    this.index = new MiniSearch<IntentDoc>({
      fields: ['name', 'description', 'intent', 'apps'],
      storeFields: [],
      processTerm,
      tokenize: (text) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean),
      searchOptions: {
        boost: { intent: 2, name: 1.5, description: 1, apps: 1 },
        prefix: (t) => t.length >= 5,
        fuzzy: (t) => (t.length >= 6 ? 0.15 : false),
        combineWith: 'OR',
      },
    });
    for (const card of cards) {
      const name = card.ref.replace(/[._-]/g, ' ');
      const apps = card.apps.map((a) => `${a} ${appNames(a)}`).join(' ');
      for (const intent of card.intents.length ? card.intents : [card.description]) {
        this.docs.push({
          id: this.docs.length,
          ref: card.ref,
          name,
          description: card.description,
          intent: intent.replace(/\$\{([a-z0-9_]+)[^}]*\}/gi, '$1'),
          apps,
        });
      }
    }
    this.index.addAll(this.docs);
  }

  get size(): number {
    return this.docs.length;
  }

  /** Cards ranked by their best intent document's BM25+ score. */
  search(query: string, limit: number): LexicalHit[] {
    const best = new Map<string, LexicalHit>();
    for (const r of this.index.search(query)) {
      const doc = this.docs[r.id as number]!;
      const seen = best.get(doc.ref);
      if (!seen || r.score > seen.score) best.set(doc.ref, { ref: doc.ref, score: r.score, intent: doc.intent });
      // Results come sorted by score: once `limit` distinct cards are seen, later ones cannot enter the top.
      if (best.size >= limit) break;
    }
    return [...best.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  }
}
