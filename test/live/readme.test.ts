import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../src/main/services/library/YamlLibraryLoader';
import { killPatterns } from './helpers/liveTestRunner';
import { killApps, requireDisplay } from './skills/liveCore';

/**
 * The README's `skilldesk run` examples, run as a new user would: each line as written, by bash,
 * from a cold start (its app ended first, a fresh data folder), and judged by its effect on the
 * world (the file written, the number computed), not only by the exit status.
 */

const root = resolve(__dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const examples = readme
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l.startsWith('npx skilldesk run '));
const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-readme-'));
const written: string[] = [];

afterAll(async () => {
  const { library } = await loadLibrary({ builtinDir: join(root, 'skills') });
  for (const app of new Set(examples.map((l) => /--app (\S+)/.exec(l)?.[1]))) {
    const doc = library.liveTests.find((d) => d.app === app);
    if (doc) for (const p of killPatterns(library, doc)) killApps(p);
  }
  for (const f of written) rmSync(f, { force: true });
});

interface RunJson {
  status: string;
  app: string;
  args: Record<string, unknown>;
  result?: unknown;
  error?: { message: string };
  steps: unknown[];
  dryRun?: boolean;
}

describe('README.md examples (live, cold start)', () => {
  it('has examples to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('%s', async (line) => {
    requireDisplay();
    const app = /--app (\S+)/.exec(line)?.[1];
    const dry = /\s--dry-run(\s|$)/.test(line);
    const { library } = await loadLibrary({ builtinDir: join(root, 'skills') });
    if (!dry) {
      // Cold start: the app is not running, so the skill must bring it up itself.
      const doc = library.liveTests.find((d) => d.app === app);
      expect(doc, `a live app of the README has a live-tests file (its kill patterns): ${app}`).toBeDefined();
      for (const p of killPatterns(library, doc!)) killApps(p);
    }
    const command = `${line.replace(/\s+#.*$/, '')} --json`;
    const { stdout } = await promisify(execFile)('bash', ['-c', command], {
      cwd: root,
      env: { ...process.env, SKILLDESK_DATA_DIR: dataDir },
      maxBuffer: 16 << 20,
      timeout: 240_000,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`\`${command}\` failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const run = JSON.parse(stdout) as RunJson;
    expect(run.error?.message).toBeUndefined();
    expect(run.status).toBe('succeeded');
    expect(run.steps.length).toBeGreaterThan(0);
    if (app) expect(run.app).toBe(app);
    if (dry) return;
    const skill = line.split(/\s+/)[3];
    if (skill === 'TextEditor.write_file') {
      const path = String(run.args.path);
      written.push(path);
      expect(existsSync(path)).toBe(true);
      expect(readFileSync(path, 'utf8')).toBe(String(run.args.text));
    } else if (skill === 'Calculator.evaluate') {
      const expression = String(run.args.expression);
      // The README's expressions use arithmetic and sqrt only: computed here independently.
      expect(expression).toMatch(/^[\d\s.+\-*/()]*(sqrt\([\d\s.+\-*/]*\)[\d\s.+\-*/()]*)*$/);
      const expected = Function(`"use strict"; return (${expression.replace(/sqrt/g, 'Math.sqrt')});`)() as number;
      expect(typeof run.result).toBe('number');
      expect(Math.abs((run.result as number) - expected)).toBeLessThanOrEqual(Math.abs(expected) * 1e-9);
    } else {
      throw new Error(`README example of ${skill}: add how its effect is checked here`);
    }
  });
});
