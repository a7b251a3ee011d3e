#!/usr/bin/env node
// `npm test`: the whole suite. Unit tests first (plain Node), then the test desktop is started
// (Xvfb + openbox + a Wine prefix, scripts/test-desktop.sh) for the live tests that drive real
// applications, then the end-to-end UI tests in Chromium. The desktop is stopped at the end.
'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { startDesktop, stopDesktop } = require('./desktop-env.cjs');

const root = join(__dirname, '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const only = process.argv.slice(2); // e.g. `npm test -- unit`

const totals = { passed: 0, failed: 0, skipped: 0 };

/** Runs one vitest project; its counts are added to the closing line (read from vitest's JSON report). */
function runProject(project, env) {
  const report = join(root, 'test-results', `vitest-${project}.json`);
  rmSync(report, { force: true });
  const args = [vitest, 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  try {
    const counts = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += counts.numPassedTests;
    totals.failed += counts.numFailedTests;
    totals.skipped += counts.numPendingTests + counts.numTodoTests;
    if (counts.numTotalTests === 0) {
      process.stderr.write(`test: the ${project} project ran no test\n`);
      return 1;
    }
  } catch {
    process.stderr.write(`test: the ${project} project left no report (${report})\n`);
    return 1;
  }
  return r.status ?? 1;
}

const projects = only.length ? only : ['unit', 'live', 'windows', 'e2e'];
let failed = 0;
if (projects.includes('unit')) failed += runProject('unit') !== 0 ? 1 : 0;
const desktopProjects = projects.filter((p) => p !== 'unit');
if (desktopProjects.length) {
  let env;
  try {
    env = startDesktop({ echo: true });
    for (const p of desktopProjects) failed += runProject(p, env) !== 0 ? 1 : 0;
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    failed += 1;
  } finally {
    stopDesktop();
  }
}
// One closing line over all projects, in the plain form CI reads.
process.stdout.write(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(failed ? 1 : 0);
