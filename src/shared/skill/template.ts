import { SkillDeskError } from '../errors';

/**
 * Matches `${name}`, `${name.path}` and `${name|filter|filter}`; `$${` escapes a literal `${`.
 * Filters adapt a value to the target app (e.g. a POSIX path to the form Wine's dialogs accept).
 */
const SLOT = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)((?:\|[a-z_]+)*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)((?:\|[a-z_]+)*)\}$/;

/** Value filters usable in templates. */
export const TEMPLATE_FILTERS: Record<string, (value: string) => string> = {
  /** `/tmp/a b.txt` -> `Z:\tmp\a b.txt` (Wine maps drive Z: to the POSIX root). */
  wine_path: (v) => (v.startsWith('/') ? `Z:${v.replaceAll('/', '\\')}` : v),
  /** Last path segment, for either separator. */
  basename: (v) => v.split(/[\\/]/).pop() ?? v,
  /** Escapes regex metacharacters, for titles in `wait_for_window`. */
  regex_escape: (v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
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
export function renderTemplate(template: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(template);
  if (whole && !whole[2]) return lookup(whole[1]!, scope);
  return template.replace(SLOT, (_match, name: string | undefined, filters: string | undefined) => {
    if (!name) return '${';
    const value = lookup(name, scope);
    return applyFilters(typeof value === 'string' ? value : JSON.stringify(value), filters ?? '');
  });
}

/** Renders every string inside a JSON-like value. */
export function renderDeep<T>(value: T, scope: TemplateScope): T {
  if (typeof value === 'string') return renderTemplate(value, scope) as T;
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderDeep(v, scope);
    return out as T;
  }
  return value;
}

function applyFilters(value: string, filters: string): string {
  return filters
    .split('|')
    .filter(Boolean)
    .reduce((v, name) => {
      const filter = TEMPLATE_FILTERS[name];
      if (!filter) {
        throw new SkillDeskError(
          'template.unknown_filter',
          `Unknown template filter \`${name}\`; known: ${Object.keys(TEMPLATE_FILTERS).join(', ')}`,
        );
      }
      return filter(v);
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
