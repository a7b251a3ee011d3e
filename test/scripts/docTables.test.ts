import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilityTable, DOC_TABLES, renderDocs, replaceTable } from '../../scripts/docTables';
import { CAPABILITIES, CAPABILITY_NAMES } from '../../src/shared/permissions/taxonomy';
import { INTERPRETERS } from '../../src/shared/skill/interpreters';

const root = join(__dirname, '..', '..');

describe('scripts/docTables', () => {
  it('finds every generated table in docs/ identical to what the code generates (npm run docs:tables fixes it)', () => {
    expect(
      renderDocs(root)
        .filter((d) => d.changed)
        .map((d) => d.file),
    ).toEqual([]);
  });

  it('writes one row per capability with its level and description', () => {
    const rows = capabilityTable().split('\n').slice(2);
    expect(rows).toHaveLength(CAPABILITY_NAMES.length);
    expect(rows[0]).toBe(`| Files | \`file.read\` | normal | paths | ${CAPABILITIES['file.read'].description} |`);
    expect(rows[1]).toMatch(/^\| \| `file.write` \| dangerous \| paths \| /);
  });

  it('reports a doc as changed when its table differs from the taxonomy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-tables-'));
    mkdirSync(join(dir, 'docs'));
    const doc = readFileSync(join(root, 'docs/permissions.md'), 'utf8');
    writeFileSync(join(dir, 'docs/permissions.md'), doc.replace('| Create or overwrite a file. |', '| Write a file |'));
    const [stale] = renderDocs(
      dir,
      DOC_TABLES.filter((t) => t.file === 'docs/permissions.md'),
    );
    expect(stale).toMatchObject({ file: 'docs/permissions.md', changed: true });
    expect(stale!.text).toBe(doc);
  });

  it('replaces only what lies between the markers, and names the markers when they are missing', () => {
    expect(replaceTable('a\n<!-- generated:t -->\nold\n<!-- /generated:t -->\nb', 't', 'new')).toBe(
      'a\n<!-- generated:t -->\nnew\n<!-- /generated:t -->\nb',
    );
    expect(() => replaceTable('no markers', 't', 'new')).toThrow('Expected the markers `<!-- generated:t -->` and `<!-- /generated:t -->`');
  });

  it("lists the interpreters run_script accepts in docs/skills.md's primitive table", () => {
    const row = readFileSync(join(root, 'docs/skills.md'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('| `run_script` |'));
    expect(/`interpreter` \(([^)]*)\)/.exec(row ?? '')?.[1]).toBe(INTERPRETERS.join(', '));
  });
});
