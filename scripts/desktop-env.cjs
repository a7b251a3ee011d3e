// Shared by `npm test` and `npm run bench`: brings the test desktop up and down.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const script = join(__dirname, 'test-desktop.sh');

/** Starts the test desktop (scripts/test-desktop.sh start) and returns the environment it prints as `export NAME=value` lines. */
function startDesktop({ echo = false } = {}) {
  const r = spawnSync('bash', [script, 'start'], { cwd: join(__dirname, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (echo) process.stdout.write(r.stdout);
  if (r.status !== 0) throw new Error('the test desktop did not start (scripts/test-desktop.sh start)');
  const env = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^export ([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
  }
  if (!env.DISPLAY) throw new Error('scripts/test-desktop.sh start printed no `export DISPLAY=...`');
  return env;
}

/** Stops what startDesktop started (and nothing else). */
function stopDesktop() {
  spawnSync('bash', [script, 'stop'], { cwd: join(__dirname, '..'), stdio: 'inherit' });
}

module.exports = { startDesktop, stopDesktop };
