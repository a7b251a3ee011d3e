import { templateSlots } from '../../../shared/skill';

/**
 * Reverse matching of intent templates: `save the document as ${path}` against "save the
 * document as /tmp/a.txt" yields `{ path: '/tmp/a.txt' }`. Literal words match case-insensitively
 * with flexible spacing; slots capture free text.
 */
export interface CompiledTemplate {
  template: string;
  slots: string[];
  /** Lazy and greedy readings: with two slots the split point is ambiguous, and the domains decide. */
  patterns: RegExp[];
  /** Characters of literal text: more literal text means a more specific template. */
  literalChars: number;
}

const SLOT_SPLIT = /\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g;

/**
 * Ways people refer to "the thing being worked on"; a template saying one of them accepts any,
 * so "save it as P" reads as "save the document as P".
 */
const OBJECT_PHRASES = [
  'it',
  'this',
  'the document',
  'the file',
  'the text',
  'the note',
  'this file',
  'this document',
  'the current document',
];
const OBJECT_RE = new RegExp(
  `(^|\\s)(${OBJECT_PHRASES.sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/ /g, '\\s+'))
    .join('|')})(?=\\s|$)`,
  'giu',
);
const OBJECT_ALT = `(?:${OBJECT_PHRASES.map((p) => p.split(' ').join('\\s+')).join('|')})`;

/** Pronouns are references, not values: "save it as P" must not type the word "it". */
export const PRONOUN_VALUE = /^(it|this|that|them|these|those)$/iu;

export function compileTemplate(template: string): CompiledTemplate {
  const slots = templateSlots(template);
  const literals = template.split(SLOT_SPLIT).filter((_, i) => i % 2 === 0);
  const literal = (s: string) =>
    s
      .trim()
      .replace(OBJECT_RE, '$1\u0001')
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => (w === '\u0001' ? OBJECT_ALT : w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('\\s+');
  const build = (capture: string) => {
    let src = '';
    literals.forEach((lit, i) => {
      const l = literal(lit);
      if (l) src += (src ? '\\s+' : '') + l;
      if (i < slots.length) src += (src ? '\\s+' : '') + capture;
    });
    return new RegExp(`^\\s*${src}\\s*[.!]?\\s*$`, 'iu');
  };
  const patterns = slots.length > 1 ? [build('(.+?)'), build('(.+)')] : [build('(.+)')];
  return { template, slots, patterns, literalChars: literals.join('').replace(/\s+/g, '').length };
}

/** Strips one pair of surrounding quotes: 'hello' -> hello. */
export function unquote(value: string): string {
  const v = value.trim();
  const m = /^(['"“‘`])([\s\S]*)(['"”’`])$/u.exec(v);
  return m && (m[1] === m[3] || (m[1] === '“' && m[3] === '”') || (m[1] === '‘' && m[3] === '’')) ? m[2]! : v;
}

/** Every reading of `text` as the template (distinct argument sets). */
export function matchTemplate(t: CompiledTemplate, text: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const seen = new Set<string>();
  for (const p of t.patterns) {
    const m = p.exec(text);
    if (!m) continue;
    const args: Record<string, string> = {};
    t.slots.forEach((s, i) => {
      args[s] = unquote(m[i + 1]!);
    });
    const key = JSON.stringify(args);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(args);
    }
  }
  return out;
}

/**
 * Splits a goal into clauses at "then", "and then", ";" and ", then" (strong), and at
 * "and" / "," (weak, used only when the longer reading matches nothing). Quoted text is never split.
 */
export interface GoalPiece {
  text: string;
  /** The separator before the next piece. */
  sep?: { text: string; strength: 'strong' | 'weak' };
}

export function splitGoal(goal: string): GoalPiece[] {
  const quoted: string[] = [];
  const masked = goal.replace(/(?<=^|[\s(])(["“'‘`])[^"“”'‘’`]*?(["”'’`])(?=$|[\s.,;!?)])/gu, (m) => {
    quoted.push(m);
    return `\uE000${quoted.length - 1}\uE000`;
  });
  const unmask = (s: string) => s.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => quoted[Number(i)]!);
  const SEP = /\s*(;|,?\s+and\s+then\s+|,?\s+then\s+|,\s*then\s+|,\s*and\s+|\s+and\s+|,\s*)\s*/giu;
  const pieces: GoalPiece[] = [];
  let last = 0;
  for (const m of masked.matchAll(SEP)) {
    const text = masked.slice(last, m.index).trim();
    const strength = /then|;/i.test(m[1]!) ? 'strong' : 'weak';
    if (text) pieces.push({ text: unmask(text), sep: { text: unmask(m[0]), strength } });
    last = m.index! + m[0].length;
  }
  const tail = masked
    .slice(last)
    .trim()
    .replace(/[.!]+$/, '');
  if (tail) pieces.push({ text: unmask(tail) });
  else if (pieces.length) delete pieces[pieces.length - 1]!.sep;
  return pieces;
}

/** Re-joins pieces i..j-1 with their original separators. */
export function joinPieces(pieces: readonly GoalPiece[], i: number, j: number): string {
  let s = '';
  for (let k = i; k < j; k++) s += pieces[k]!.text + (k < j - 1 ? pieces[k]!.sep!.text : '');
  return s.trim();
}
