/**
 * Text normalisation shared by the lexical index and the offline planner: lower case, words,
 * common English stop words dropped, and a light suffix stemmer so "saving"/"saved"/"saves" meet.
 */
const STOP = new Set(
  'a an the to of in on at for with and or it its this that is are be by as into from my me i please can you your then'.split(' '),
);

/** Light stemming: enough for skill intents, deterministic, no dictionary. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suf of ['ing', 'ed', 'es', 's']) {
    if (w.length > suf.length + 2 && w.endsWith(suf) && !w.endsWith('ss')) {
      w = w.slice(0, -suf.length);
      break;
    }
  }
  // "sav(e)" / "typ(e)": drop a trailing e so base and inflected forms share a stem.
  return w.length > 3 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** Words of a text, lower-cased, `${slot}` markers turned into the slot's name. */
export function words(text: string): string[] {
  return (
    text
      .replace(/\$\{([a-z0-9_]+)[^}]*\}/gi, ' $1 ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Index terms of a text: words without stop words, stemmed. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP.has(w))
    .map(stem);
}

/** The minisearch term processor: same normalisation for documents and queries. */
export function processTerm(term: string): string | null {
  const w = term.toLowerCase();
  return STOP.has(w) ? null : stem(w);
}
