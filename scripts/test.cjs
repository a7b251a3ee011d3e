#!/usr/bin/env node
// `npm test`: the whole suite. Unit tests first (plain Node), then the test desktop is started
// (Xvfb + openbox + a Wine prefix, scripts/test-desktop.sh) for the live tests that drive real
// applications, then the end-to-end UI tests in Chromium. The desktop is stopped at the end.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const only = process.argv.slice(2); // e.g. `npm test -- unit`

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function startDesktop() {
  const r = spawnSync('bash', [join(root, 'scripts', 'test-desktop.sh'), 'start'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error('the test desktop did not start (scripts/test-desktop.sh start)');
  const env = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^export ([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
  }
  if (!env.DISPLAY) throw new Error('scripts/test-desktop.sh start printed no `export DISPLAY=...`');
  return env;
}

const projects = only.length ? only : ['unit', 'live', 'e2e'];
let failed = 0;
if (projects.includes('unit')) failed += run(process.execPath, [vitest, 'run', '--project', 'unit']) !== 0 ? 1 : 0;
const desktopProjects = projects.filter((p) => p !== 'unit');
if (desktopProjects.length) {
  let env;
  try {
    env = startDesktop();
    for (const p of desktopProjects) {
      const extra = p === 'e2e' ? ['--passWithNoTests'] : [];
      failed += run(process.execPath, [vitest, 'run', '--project', p, ...extra], env) !== 0 ? 1 : 0;
    }
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    failed += 1;
  } finally {
    spawnSync('bash', [join(root, 'scripts', 'test-desktop.sh'), 'stop'], { cwd: root, stdio: 'inherit' });
  }
}
process.exit(failed ? 1 : 0);
