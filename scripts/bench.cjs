#!/usr/bin/env node
// `npm run bench [-- NAME ...]`: runs the benchmarks under bench/ (all of them by default:
// every bench/*.bench.ts), each in its own process, and writes every figure set to
// bench/results/NAME.json as well as to stdout. Some benchmarks drive real applications:
// when DISPLAY is not set it brings up the test desktop for those and stops it afterwards.
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdirSync, readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { startDesktop, stopDesktop } = require('./desktop-env.cjs');

const root = join(__dirname, '..');
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const available = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
const NEEDS_DESKTOP = new Set(['executor', 'reliability', 'wine-shortcuts', 'windows-host']);

const asked = process.argv.slice(2);
if (asked.includes('--help') || asked.includes('-h')) {
  process.stdout.write(`usage: npm run bench [-- NAME ...]\nbenchmarks: ${available.join(', ')}\nresults: bench/results/NAME.json\n`);
  process.exit(0);
}
const unknown = asked.filter((n) => !available.includes(n));
if (unknown.length) {
  process.stderr.write(`bench: expected one of ${available.join(', ')}, got \`${unknown.join(' ')}\`\n`);
  process.exit(2);
}
const names = asked.length ? asked : available;

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
let desktopEnv;
let failed = 0;
try {
  for (const name of names) {
    if (NEEDS_DESKTOP.has(name) && !process.env.DISPLAY && !desktopEnv) desktopEnv = startDesktop();
    process.stderr.write(`bench: ${name}...\n`);
    const env = { ...process.env, ...(NEEDS_DESKTOP.has(name) ? desktopEnv : {}) };
    const r = spawnSync(process.execPath, [tsx, join('bench', `${name}.bench.ts`)], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) {
      process.stderr.write(`bench: ${name} exited ${r.status ?? r.signal}\n`);
      failed += 1;
      continue;
    }
    writeFileSync(join(root, 'bench', 'results', `${name}.json`), r.stdout);
    process.stdout.write(r.stdout);
  }
} finally {
  if (desktopEnv) stopDesktop();
}
process.exit(failed ? 1 : 0);
