/**
 * Retrieval benchmark: latency (p50/p95) of the lexical retriever at the shipped library size
 * and with 100 000 synthetic skills added, and Recall@5 on hand-written paraphrases
 * (bench/data/retrieval-queries.json). Prints one JSON object.
 *
 *   npx tsx bench/retrieval.bench.ts [--synthetic 100000] [--repeat 5]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLibrary } from '../src/main/services/library/YamlLibraryLoader';
import { HybridRetriever, skillCards, type SkillCard } from '../src/main/services/retrieval';
import { seededRandom } from '../src/shared/skill';

interface QuerySet {
  queries: { query: string; expected: string }[];
}

const VERBS =
  'open close save create delete rename move copy paste print export import search find replace sort filter send reply forward archive play pause stop record zoom rotate crop resize insert format align share upload download sync schedule remind start set enable disable toggle mute show hide pin unpin mark flag merge split compress extract convert translate attach refresh reload clear reset undo redo duplicate lock unlock'.split(
    ' ',
  );
const NOUNS =
  'document file folder message email contact event meeting photo image video song playlist tab window bookmark page row column cell chart table slide note task timer alarm calendar invoice report comment thread channel project ticket branch commit issue album track podcast subtitle layer brush palette font style margin header footer link cookie download history password account profile printer scanner device volume brightness'.split(
    ' ',
  );
const ADJ =
  'current selected new old recent shared private public first last next previous main default favourite archived pending draft final weekly monthly'.split(
    ' ',
  );

/** Synthetic app-only skills with English-like intents that share vocabulary with the real ones. */
function syntheticCards(n: number, seed = 42): SkillCard[] {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const cards: SkillCard[] = [];
  for (let i = 0; i < n; i++) {
    const app = `synthapp${i % 5000}`;
    const verb = pick(VERBS);
    const noun = pick(NOUNS);
    const adj = pick(ADJ);
    cards.push({
      ref: `${app}.${verb}_${adj}_${noun}_${i}`,
      kind: 'app_skill',
      trust: 'builtin',
      apps: [app],
      args: {},
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} the ${adj} ${noun} in ${app}.`,
      intents: [`${verb} the ${adj} ${noun}`, `${pick(VERBS)} ${noun} ${pick(['now', 'quickly', 'again', 'for me', 'please'])}`],
    });
  }
  return cards;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(retriever: HybridRetriever, set: QuerySet, repeat: number) {
  const times: number[] = [];
  let hitsAt5 = 0;
  let hitsAt1 = 0;
  const misses: { query: string; expected: string; got: string[] }[] = [];
  for (const q of set.queries) await retriever.retrieve(q.query, { top: 5 }); // warm-up
  for (let r = 0; r < repeat; r++) {
    for (const q of set.queries) {
      const t0 = performance.now();
      const hits = await retriever.retrieve(q.query, { top: 5 });
      times.push(performance.now() - t0);
      if (r === 0) {
        const refs = hits.map((h) => h.card.ref);
        if (refs.includes(q.expected)) hitsAt5 += 1;
        else misses.push({ query: q.query, expected: q.expected, got: refs });
        if (refs[0] === q.expected) hitsAt1 += 1;
      }
    }
  }
  times.sort((a, b) => a - b);
  const round = (x: number) => Number(x.toFixed(3));
  return {
    cards: retriever.cards.length,
    queries: set.queries.length,
    samples: times.length,
    latencyMs: { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(times.at(-1)!) },
    recallAt5: round(hitsAt5 / set.queries.length),
    recallAt1: round(hitsAt1 / set.queries.length),
    misses,
  };
}

async function main() {
  const arg = (name: string, def: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const synthetic = arg('synthetic', 100_000);
  const repeat = arg('repeat', 5);
  const set = JSON.parse(readFileSync(join(__dirname, 'data', 'retrieval-queries.json'), 'utf8')) as QuerySet;
  const { library } = await loadLibrary({ builtinDir: join(__dirname, '..', 'skills') });
  const shippedCards = skillCards(library, 'linux');

  let t0 = performance.now();
  const shipped = new HybridRetriever(shippedCards, {}, (a) => library.apps.get(a)?.name ?? a);
  const shippedBuildMs = performance.now() - t0;
  const shippedResult = await measure(shipped, set, repeat);

  const extra = syntheticCards(synthetic);
  t0 = performance.now();
  const big = new HybridRetriever([...shippedCards, ...extra], {}, (a) => library.apps.get(a)?.name ?? a);
  const bigBuildMs = performance.now() - t0;
  const bigResult = await measure(big, set, Math.max(1, Math.ceil(repeat / 2)));

  console.log(
    JSON.stringify(
      {
        bench: 'retrieval',
        retriever: 'lexical (minisearch BM25+, per-intent documents)',
        node: process.version,
        cpus: (await import('node:os')).cpus().length,
        shipped: { ...shippedResult, buildMs: Number(shippedBuildMs.toFixed(1)) },
        synthetic: {
          added: synthetic,
          ...bigResult,
          buildMs: Number(bigBuildMs.toFixed(1)),
          heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
        },
      },
      null,
      2,
    ),
  );
}

void main();
