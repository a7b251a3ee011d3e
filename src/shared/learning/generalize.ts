import type { ArgSpec, ArgSpecs, ArgValue, ArgValues } from '../skill/domains';
import type { Primitive } from '../skill/primitives';
import { TEMPLATE_FILTERS } from '../skill/template';
import type { DemoStep, Trajectory } from './trajectory';

const REGEX_META = /[.*+?^${}()|[\]\\]/g;
const escapeRegex = (s: string) => s.replace(REGEX_META, '\\$&');

/** A token of a URL no argument explains and that changes from run to run (an order number, an id). */
const DYNAMIC = /\d/;

/**
 * The forms an argument's value may have taken in a demonstration, longest first (a value inside
 * another is replaced after it), each with the slot that gives it back: the value itself, and for
 * a path its folder and its name (a person types the folder in a location bar, the name in a box).
 * Each is `[slot without braces, value]`, e.g. `['path|basename', 'notes.txt']`.
 */
function valued(args: ArgValues): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(args)) {
    if (!((typeof v === 'string' && v.length >= 2) || typeof v === 'number')) continue;
    const value = String(v);
    out.push([k, value]);
    if (typeof v === 'string' && /^(\/|[A-Za-z]:\\)./.test(v)) {
      const dir = String(TEMPLATE_FILTERS.dirname!(value));
      const base = String(TEMPLATE_FILTERS.basename!(value));
      // The folder's own name too: what a file manager's title shows once the folder is open.
      const dirName = String(TEMPLATE_FILTERS.basename!(dir));
      if (dir.length >= 2 && dir !== value) out.push([`${k}|dirname`, dir]);
      if (base.length >= 3 && base !== value) out.push([`${k}|basename`, base]);
      if (dirName.length >= 3 && dirName !== base) out.push([`${k}|dirname|basename`, dirName]);
    }
  }
  return out.sort((a, b) => b[1].length - a[1].length);
}

/** `text` with the arguments' values as `${slot}`s: a whole field that is a value, or (text of 3+ characters) inside it. */
function templatize(text: string, args: [string, string][]): string {
  for (const [slot, value] of args) if (text === value) return `\${${slot}}`;
  let out = text;
  for (const [slot, value] of args) {
    if (value.length < 3 || /^\d+$/.test(value)) continue;
    out = out
      .split(/(\$\{[^}]*\})/)
      .map((part) => (part.startsWith('${') ? part : part.split(value).join(`\${${slot}}`)))
      .join('');
  }
  return out;
}

/** A regex (a title to wait for) with the arguments' values, as they stand escaped in it, as `${slot|regex_escape}`. */
function templatizePattern(pattern: string, args: [string, string][]): string {
  let out = pattern;
  for (const [slot, value] of args) {
    const escaped = escapeRegex(value);
    if (escaped.length < 3) continue;
    out = out
      .split(/(\$\{[^}]*\})/)
      .map((part) => (part.startsWith('${') ? part : part.split(escaped).join(`\${${slot}|regex_escape}`)))
      .join('');
  }
  return out;
}

/** A URL's path and query with the arguments' values (as URL-encoded) as `${slot|url_encode}`. */
function templatizeUrl(url: string, args: [string, string][]): string {
  let out = url;
  for (const [slot, value] of args) {
    const forms = [encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+'), value.replace(/ /g, '+')];
    for (const form of [...new Set(forms)].filter((f) => f.length >= 2)) {
      out = out
        .split(/(\$\{[^}]*\})/)
        .map((part) => (part.startsWith('${') ? part : part.split(form).join(`\${${slot}|url_encode}`)))
        .join('');
    }
  }
  return out;
}

/** The part of a URL after the site's origin (the whole URL when it is another origin's). */
function relative(url: string, origin: string | undefined): string {
  if (!origin || !url.startsWith(origin)) return url;
  return url.slice(origin.length) || '/';
}

/** A URL's path and query (a relative one as it is). */
function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/**
 * A regex for the page a step leads to: the URL's path and query, the arguments' slots kept (as
 * the values will be, URL-encoded), and tokens no argument explains that hold digits (an order
 * number) left open; `capture` puts the last of those in a group (what a method returns).
 */
export function urlPattern(
  url: string,
  origin: string | undefined,
  args: [string, string][],
  capture = false,
): { pattern: string; dynamic: boolean } {
  // The page's path and query: the wait is on where the site went, whichever origin serves it.
  const rel = templatizeUrl(pathOf(relative(url, origin)), args).replace(/#.*$/, '');
  const tokens = rel.split(/(\$\{[^}]*\}|[/?&=#])/).filter((t) => t !== '');
  // A token no argument explains changes from run to run when it holds digits (an order number
  // in the path) or is a query value (`?sku=B-042`, `?ref=BB-KQXZ`): it is left open.
  const dynamicAt = tokens
    .map((t, i) => (!t.startsWith('${') && !/^[/?&=#]$/.test(t) && (DYNAMIC.test(t) || tokens[i - 1] === '=') ? i : -1))
    .filter((i) => i >= 0);
  const last = dynamicAt.at(-1);
  const pattern = tokens
    .map((t, i) => {
      if (t.startsWith('${')) return t.replace('|url_encode}', '|url_regex}');
      if (dynamicAt.includes(i)) return capture && i === last ? '([^/?&#]+)' : '[^/?&#]+';
      return escapeRegex(t);
    })
    .join('');
  return { pattern: `${pattern}$`, dynamic: last !== undefined };
}

/** The generalized skill: its steps, and what the demonstration left unexplained. */
export interface Generalization {
  steps: Primitive[];
  /** Arguments whose values the demonstration never used (a demonstration of something else?). */
  unused: string[];
  /**
   * Arguments left at their default and never used: the demonstration shows that value only (the
   * shipping the site picks, a box left as it was), and the skill learned does it that way only.
   */
  fixed: string[];
  /** How the method's result is read, when it returns something. */
  returns?: 'url' | 'text';
}

/**
 * Turns a trajectory into a parameterized skill (after PolySkill's induction, deterministic):
 * the values of the task's arguments become `${arg}` slots wherever the person typed, chose or
 * navigated to them; the page each action led to becomes a wait for its URL (its changing parts,
 * an order number, left open); a method that returns text reads it at the end (from the last
 * page's URL where it carries a token no argument explains, else from the page's main region).
 */
export function generalize(t: Trajectory, o: { origin?: string; specs?: ArgSpecs; returns?: boolean } = {}): Generalization {
  const args = valued(t.args);
  const used = new Set<string>();
  const mark = (s: string) => {
    for (const m of s.matchAll(/\$\{([a-z_][a-z0-9_]*)/gi)) used.add(m[1]!);
    return s;
  };
  const steps: Primitive[] = [];
  t.steps.forEach((step: DemoStep, i) => {
    const p = templatizePrimitive(step.primitive, args, o.origin);
    mark(JSON.stringify(p));
    steps.push(p);
    const after = step.after?.url;
    const moved = after && after !== (step.before?.url ?? '') && step.primitive.action !== 'web_navigate';
    const last = i === t.steps.length - 1;
    if (moved && (!last || !o.returns)) steps.push({ action: 'web_wait', url: mark(urlPattern(after, o.origin, args).pattern) });
  });
  let returns: Generalization['returns'];
  if (o.returns) {
    const end = t.steps.at(-1)?.after?.url ?? t.steps.at(-1)?.before?.url;
    const u = end ? urlPattern(end, o.origin, args, true) : undefined;
    if (u?.dynamic) {
      steps.push({ action: 'web_wait', url: mark(u.pattern.replace('([^/?&#]+)', '[^/?&#]+')) });
      steps.push({ action: 'web_read', source: 'url', extract: mark(u.pattern), into: 'result' } as Primitive);
      returns = 'url';
    } else {
      steps.push({ action: 'web_read', source: 'text', locator: { role: 'main' }, into: 'result' } as Primitive);
      returns = 'text';
    }
  }
  const untraced = Object.keys(t.args).filter((k) => !used.has(k));
  const fixed = untraced.filter((k) => isDefaulted(o.specs?.[k], t.args[k]));
  return { steps, unused: untraced.filter((k) => !fixed.includes(k)), fixed, ...(returns && { returns }) };
}

/** An argument left at its default needs no trace in the demonstration. */
function isDefaulted(spec: ArgSpec | undefined, value: ArgValue | undefined): boolean {
  return spec?.default !== undefined && String(spec.default) === String(value);
}

/** A primitive with the arguments' values as slots in every text field (URLs in their encoded form). */
function templatizePrimitive(p: Primitive, args: [string, string][], origin: string | undefined): Primitive {
  // Regexes: a desktop wait's title pattern (a web wait's URL is a pattern made by urlPattern).
  const regex = (key: string) => key === 'pattern' || (key === 'title' && (p.action === 'wait_for_window' || p.action === 'focus_window'));
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string')
      return key === 'url' ? templatizeUrl(relative(v, origin), args) : regex(key) ? templatizePattern(v, args) : templatize(v, args);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'action' ? x : walk(x, k)]));
    return v;
  };
  return walk(p, '') as Primitive;
}
