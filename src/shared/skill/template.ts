import { SkillDeskError } from '../errors';

/**
 * Matches `${name}`, `${name.path}` and `${name|filter|filter}`; `$${` escapes a literal `${`.
 * Filters adapt a value to the target app (e.g. a POSIX path to the form Wine's dialogs accept).
 */
const SLOT = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)((?:\|[a-z_]+)*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)((?:\|[a-z_]+)*)\}$/;

/**
 * Value filters usable in templates. Text filters apply to each item of a list; list filters
 * (`LIST_FILTERS`) turn a list into text.
 */
export const TEMPLATE_FILTERS: Record<string, (value: string) => string> = {
  /** `/tmp/a b.txt` -> `Z:\tmp\a b.txt` (Wine maps drive Z: to the POSIX root). */
  wine_path: (v) => (v.startsWith('/') ? `Z:${v.replaceAll('/', '\\')}` : v),
  /** Last path segment, for either separator. */
  basename: (v) => v.split(/[\\/]/).pop() ?? v,
  /** Everything before the last path segment (the folder a path is in), for either separator. */
  dirname: (v) => {
    const cut = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
    return cut > 0 ? v.slice(0, cut) : cut === 0 ? v.slice(0, 1) : '.';
  },
  /** Escapes regex metacharacters, for titles in `wait_for_window`. */
  regex_escape: (v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  /** Wraps a value in double quotes, as Windows file dialogs and command lines take names with spaces. */
  quoted: (v) => `"${v}"`,
  /** Percent-encodes a value for one URL component (a query value, a path segment): `a b&c` -> `a%20b%26c`. */
  url_encode: (v) => encodeURIComponent(v),
  /**
   * A regex matching the value as any site may have put it in a URL: each character as itself or
   * percent-encoded (either case), a space also as `+` (`a b` matches `a+b`, `a%20b`, `a b`).
   */
  url_regex: (v) =>
    [...v]
      .map((ch) => {
        const plain = ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (/[A-Za-z0-9\-_.~]/.test(ch)) return plain; // unreserved: never encoded
        const hex = [...new TextEncoder().encode(ch)].map(
          (b) =>
            `%${b
              .toString(16)
              .padStart(2, '0')
              .replace(/[a-f]/g, (x) => `[${x}${x.toUpperCase()}]`)}`,
        );
        return `(?:${[plain, hex.join(''), ...(ch === ' ' ? ['\\+'] : [])].join('|')})`;
      })
      .join(''),
};

/** Filters from a list argument to text. */
export const LIST_FILTERS: Record<string, (items: readonly unknown[]) => string> = {
  /** One item per line (what a multi-line box or a bulleted list takes). */
  lines: (items) => items.map(String).join('\n'),
  /** Items separated by spaces: with `quoted` first, the multi-file form of a Windows file-name box (`"a.txt" "b.txt"`). */
  spaced: (items) => items.map(String).join(' '),
  /** How many items there are. */
  count: (items) => String(items.length),
  /** A Markdown bulleted list: `- a` per line. */
  bullets: (items) => items.map((i) => `- ${String(i)}`).join('\n'),
  /** A Markdown numbered list: `1. a` per line. */
  numbered: (items) => items.map((i, n) => `${n + 1}. ${String(i)}`).join('\n'),
};

/** Names of the `${slot}` references in a template string (first path segment only). */
export function templateSlots(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(SLOT)) {
    if (m[1]) names.push(m[1].split('.')[0]!);
  }
  return names;
}

/** Values visible to templates: skill arguments and variables set by `read` nodes. */
export type TemplateScope = Readonly<Record<string, unknown>>;

/**
 * Substitutes `${name}` slots. A template that is exactly one slot keeps the value's type
 * (so a number argument stays a number); otherwise values are stringified.
 */
export function renderTemplate(template: string, scope: TemplateScope, o: RenderOptions = {}): unknown {
  const whole = WHOLE.exec(template);
  if (whole && !whole[2] && !o.asText) return lookup(whole[1]!, scope);
  return template.replace(SLOT, (_match, name: string | undefined, filters: string | undefined) => {
    if (!name) return '${';
    const value = applyFilters(lookup(name, scope), filters ?? '');
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

export interface RenderOptions {
  /**
   * Every template renders to text, one-slot templates included: what a primitive types, waits
   * for or names is text even when the argument is a number. @default false
   */
  asText?: boolean;
}

/** Renders every string inside a JSON-like value. */
export function renderDeep<T>(value: T, scope: TemplateScope, o: RenderOptions = {}): T {
  if (typeof value === 'string') return renderTemplate(value, scope, o) as T;
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope, o)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderDeep(v, scope, o);
    return out as T;
  }
  return value;
}

/** Applies filters left to right: text filters to a value (each item of a list), list filters to a list. */
function applyFilters(value: unknown, filters: string): unknown {
  return filters
    .split('|')
    .filter(Boolean)
    .reduce<unknown>((v, name) => {
      const toText = LIST_FILTERS[name];
      if (toText) {
        if (!Array.isArray(v)) throw new SkillDeskError('template.not_a_list', `Template filter \`${name}\` needs a list, got ${typeof v}`);
        return toText(v);
      }
      const filter = TEMPLATE_FILTERS[name];
      if (!filter) {
        throw new SkillDeskError(
          'template.unknown_filter',
          `Unknown template filter \`${name}\`; known: ${[...Object.keys(TEMPLATE_FILTERS), ...Object.keys(LIST_FILTERS)].join(', ')}`,
        );
      }
      return Array.isArray(v) ? v.map((item) => filter(String(item))) : filter(typeof v === 'string' ? v : JSON.stringify(v));
    }, value);
}

function lookup(path: string, scope: TemplateScope): unknown {
  const [head, ...rest] = path.split('.');
  if (!(head! in scope)) {
    throw new SkillDeskError(
      'template.unknown_slot',
      `Template slot \`\${${path}}\` has no value; known names: ${Object.keys(scope).join(', ') || '(none)'}`,
    );
  }
  let value: unknown = scope[head!];
  for (const key of rest) {
    value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined) {
    throw new SkillDeskError('template.unknown_slot', `Template slot \`\${${path}}\` resolved to nothing`);
  }
  return value;
}
