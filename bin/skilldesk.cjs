#!/usr/bin/env node
// Entry of the `skilldesk` command. Runs the built CLI (out/main/cli.js); in a source checkout
// whose sources are newer than the build, runs the TypeScript sources through tsx instead, so
// the command never runs stale code.
'use strict';
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..');
const built = join(root, 'out', 'main', 'cli.js');
const source = join(root, 'src', 'main', 'cli', 'index.ts');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const haveSource = existsSync(source);
const buildIsFresh = existsSync(built) && (!haveSource || statSync(built).mtimeMs >= newestMtime(join(root, 'src')));
if (buildIsFresh) {
  require(built)
    .main(process.argv.slice(2))
    // Exit once stdout and stderr are flushed: a large output into a pipe would be cut short.
    .then((code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code))));
} else if (haveSource) {
  const tsx = require.resolve('tsx/cli', { paths: [root] });
  const r = spawnSync(process.execPath, [tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} else {
  process.stderr.write('skilldesk: the CLI is not built; run `npm run build` in ' + root + '\n');
  process.exit(1);
}
