/**
 * `npm run docs:tables`: rewrites the generated tables in docs/ from the code (scripts/docTables.ts).
 * `-- --check` writes nothing and exits 1 when a doc is stale.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderDocs } from './docTables';

const root = join(__dirname, '..');
const check = process.argv.includes('--check');
const stale = renderDocs(root).filter((d) => d.changed);
for (const d of stale) {
  if (check) process.stderr.write(`${d.file}: a generated table is out of date; run \`npm run docs:tables\`\n`);
  else writeFileSync(join(root, d.file), d.text);
}
if (!check) process.stdout.write(stale.length ? `rewrote ${stale.map((d) => d.file).join(', ')}\n` : 'docs are up to date\n');
process.exitCode = check && stale.length ? 1 : 0;
