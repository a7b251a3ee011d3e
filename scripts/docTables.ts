/**
 * Tables in docs/ that are derived from code, generated from it so they cannot drift: each sits
 * between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in its doc. `npm run docs:tables`
 * rewrites them (scripts/update-doc-tables.ts); test/scripts/docTables.test.ts fails on a stale doc.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPABILITIES, CAPABILITY_NAMES, CATEGORY_TITLES, type ScopeKind } from '../src/shared/permissions/taxonomy';
import { PRIMITIVE_ACTIONS, PRIMITIVES } from '../src/shared/skill/primitives';

export interface DocTable {
  /** The doc, relative to the repository root. */
  file: string;
  /** The marker name. */
  name: string;
  /** The table as Markdown, without a trailing newline. */
  render(): string;
}

/** How the doc names what each kind of scope is written as (its constraint field). */
const SCOPE_TITLES: Record<ScopeKind, string> = { path: 'paths', app: 'apps', url: 'URLs', command: 'command', skill: 'skill', none: '—' };

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The capability taxonomy (src/shared/permissions/taxonomy.ts) as the table in docs/permissions.md. */
export function capabilityTable(): string {
  const rows = ['| Group | Capability | Level | Scoped by | Meaning |', '| --- | --- | --- | --- | --- |'];
  let group: string | undefined;
  for (const name of CAPABILITY_NAMES) {
    const info = CAPABILITIES[name];
    // The group is named on its first row only, so the table reads as sections.
    const title = CATEGORY_TITLES[info.category];
    const groupCell = title === group ? ' ' : ` ${title} `;
    rows.push(`|${groupCell}| \`${name}\` | ${info.level} | ${SCOPE_TITLES[info.scope]} | ${cell(info.description)} |`);
    group = title;
  }
  return rows.join('\n');
}

/** A primitive's fields as authors write them: `name`, optional ones with `?`, enums with their values. */
function primitiveFields(shape: Record<string, unknown>): string {
  return Object.entries(shape)
    .filter(([name]) => name !== 'action')
    .map(([name, field]) => {
      const f = field as { optional?: () => unknown; def?: { type?: string; innerType?: unknown }; options?: unknown[] };
      const optional = f.def?.type === 'optional';
      const inner = (optional ? f.def?.innerType : field) as { options?: unknown[] };
      const values =
        Array.isArray(inner.options) && inner.options.every((o) => typeof o === 'string') ? ` (${inner.options.join(', ')})` : '';
      return `\`${name}\`${optional ? '?' : ''}${values}`;
    })
    .join(', ');
}

/** The primitive table (src/shared/skill/primitives.ts) as authors read it in docs/skills.md. */
export function primitiveTable(): string {
  const rows = ['| primitive | fields (`?` optional) | what it does |', '| --- | --- | --- |'];
  for (const action of PRIMITIVE_ACTIONS) {
    const d = PRIMITIVES[action];
    rows.push(`| \`${action}\` | ${cell(primitiveFields(d.schema.shape)) || '—'} | ${cell(d.doc)} |`);
  }
  return rows.join('\n');
}

/** What each primitive can need from the policy, from the same table, for docs/permissions.md. */
export function primitiveNeedsTable(): string {
  const rows = ['| Primitive | Input | Can need |', '| --- | --- | --- |'];
  for (const action of PRIMITIVE_ACTIONS) {
    const d = PRIMITIVES[action];
    const caps = d.capabilities.map((c) => `\`${c}\``).join(', ') || 'nothing';
    const inferred =
      action === 'run_script'
        ? ' + every capability inferred from the script; unanalysable → deny'
        : d.requests
          ? ` + per request its page sends (request guard): ${d.requests.map((c) => `\`${c}\``).join(', ')}`
          : '';
    rows.push(`| \`${action}\` | ${d.input ?? '—'} | ${caps}${inferred} |`);
  }
  return rows.join('\n');
}

export const DOC_TABLES: readonly DocTable[] = [
  { file: 'docs/permissions.md', name: 'capabilities', render: capabilityTable },
  { file: 'docs/permissions.md', name: 'primitive-needs', render: primitiveNeedsTable },
  { file: 'docs/skills.md', name: 'primitives', render: primitiveTable },
];

/** `text` with table `name` replaced by `table`; throws when the doc lacks the markers, naming them. */
export function replaceTable(text: string, name: string, table: string): string {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`Expected the markers \`${open}\` and \`${close}\`, in that order, around the table`);
  return `${text.slice(0, start + open.length)}\n${table}\n${text.slice(end)}`;
}

/** Each doc under `root` with its generated tables brought up to date: `changed` when that differs from the file. */
export function renderDocs(root: string, tables: readonly DocTable[] = DOC_TABLES): { file: string; text: string; changed: boolean }[] {
  const files = [...new Set(tables.map((t) => t.file))];
  return files.map((file) => {
    const before = readFileSync(join(root, file), 'utf8');
    let text = before;
    for (const t of tables.filter((x) => x.file === file)) {
      try {
        text = replaceTable(text, t.name, t.render());
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    }
    return { file, text, changed: text !== before };
  });
}
