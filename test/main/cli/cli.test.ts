import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main/cli';
import type { LibraryCounts, SkillSummary } from '../../../src/shared/ipc';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const dataDir = process.env.TEST_DATA_DIR!;
  const code = await main(['--data-dir', dataDir, ...argv], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('src/main/cli', () => {
  process.env.TEST_DATA_DIR = join(tmpdir(), `skilldesk-cli-${process.pid}-${Date.now()}`);

  it('lists skills as a table and as JSON, filtered by app and domain', async () => {
    const table = await cli('skills', 'list', '--app', 'wine-notepad');
    expect(table.code).toBe(0);
    expect(table.out).toContain('wine-notepad.save_as');
    expect(table.out).toContain('TextEditor.write_file');
    expect(table.out).not.toContain('mousepad.save_as');
    const json = JSON.parse((await cli('skills', 'list', '--domain', 'Calculator', '--json')).out) as {
      counts: LibraryCounts;
      skills: SkillSummary[];
    };
    expect(json.skills.map((s) => s.id)).toContain('Calculator.evaluate');
    // The interface's methods and composites, and the implementations of them (on any calculator app).
    expect(json.skills.filter((s) => !s.id.startsWith('Calculator.') && !String(s.implements ?? '').startsWith('Calculator.'))).toEqual([]);
    // Grouped by interface and method, each implementation with how it is verified.
    expect(table.out).toMatch(/^Document\.save_as +wine-notepad +wine-notepad\.save_as +live \(test desktop\): \d+ tests?$/m);
    const notepad = JSON.parse((await cli('skills', 'list', '--app', 'wine-notepad', '--json')).out) as { skills: SkillSummary[] };
    expect(notepad.skills.find((s) => s.id === 'wine-notepad.save_as')?.verification).toBe('live_desktop');
    expect(json.counts.liveDesktop.apps).toBeGreaterThanOrEqual(2);
    const mousepad = json.counts.byApp.find((a) => a.app === 'mousepad');
    expect(mousepad?.liveImplementations).toBeGreaterThanOrEqual(12);
    expect(mousepad!.liveTests).toBeGreaterThan(0);
  });

  it('shows a skill resolved for an app', async () => {
    const r = await cli('skills', 'show', 'TextEditor.save_as', '--app', 'mousepad');
    expect(r.code).toBe(0);
    expect(r.out).toContain('mousepad.save_as');
    expect(r.out).toContain('file.write');
  });

  it('shows the composition graph as text, JSON and DOT, and refuses an unknown app', async () => {
    const text = await cli('skills', 'graph', '--app', 'wine-notepad');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^\d+ skills, \d+ calls, \d+ may-follow edges \(\d+ across apps\)$/m);
    expect(text.out).toContain('TextEditor.write_file@wine-notepad -> wine-notepad.save_as');
    expect(text.out).toMatch(/^ {2}wine-notepad\.select_all@wine-notepad -> wine-notepad\.copy@wine-notepad {2}\[selection_present\]$/m);
    const json = JSON.parse((await cli('skills', 'graph', '--app', 'wine-notepad', '--json')).out) as {
      mayFollow: { from: { skill: string; app: string }; to: { skill: string; app: string }; bind: Record<string, string> }[];
    };
    // A file another app saved opens in Wine Notepad, its path flowing into open_file.
    expect(json.mayFollow.find((e) => e.from.skill === 'mousepad.save_as' && e.to.skill === 'wine-notepad.open_file')?.bind).toEqual({
      path: '${path}',
    });
    const dot = await cli('skills', 'graph', '--app', 'wine-notepad', '--dot');
    expect(dot.out.startsWith('digraph composition {')).toBe(true);
    expect(dot.out).toContain('"mousepad.save_as@mousepad" -> "wine-notepad.open_file@wine-notepad" [style=dashed, color=blue');
    const bad = await cli('skills', 'graph', '--app', 'nope');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('No app `nope`');
  });

  it('synthesizes the same tasks for the same seed, keeps them, and finds a kept task to replay', async () => {
    const args = [
      'synthesize',
      '--count',
      '4',
      '--seed',
      '9',
      '--app',
      'mousepad',
      '--app',
      'xterm',
      '--dir',
      '/tmp/skilldesk-cli-tasks',
      '--json',
    ];
    const first = JSON.parse((await cli(...args)).out) as {
      tasks: { id: string; apps: string[]; check: unknown[] }[];
      space: { walks: string };
    };
    expect(first.tasks.map((t) => t.id)).toEqual(['s9-0000', 's9-0001', 's9-0002', 's9-0003']);
    expect(new Set(first.tasks.map((t) => t.apps[0]))).toEqual(new Set(['mousepad', 'xterm']));
    expect(BigInt(first.space.walks)).toBeGreaterThan(0n);
    expect(JSON.parse((await cli(...args)).out)).toEqual(first);
    const kept = JSON.parse(await readFile(join(process.env.TEST_DATA_DIR!, 'tasks', 's9-0001.json'), 'utf8')) as unknown;
    expect(kept).toEqual(first.tasks[1]);
    const text = await cli('synthesize', '--count', '2', '--seed', '9', '--app', 'mousepad');
    expect(text.out).toMatch(/skill sequences of 2 to 8 steps/);
    expect((await cli('synthesize', '--count', '-1')).err).toMatch(/Expected `--count` to be an integer >= 0, got `-1`/);
    expect((await cli('synthesize', '--app', 'nope')).err).toMatch(/No app `nope`/);
    const missing = await cli('synthesize', '--replay', 'nonsense');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/a task id looks like s1-0042/);
  });

  it('validates the shipped library with exit 0 and a broken copy with file:line: field', async () => {
    expect((await cli('skills', 'validate')).code).toBe(0);
    const dir = await mkdtemp(join(tmpdir(), 'skilldesk-broken-'));
    await cp('skills', dir, { recursive: true });
    const file = join(dir, 'implementations/wine-notepad/paste.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('keys: [Control, v]', 'keys: Control+v'));
    const r = await cli('skills', 'validate', dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/implementations\/wine-notepad\/paste\.yaml:\d+: error: graph\.nodes\.act\.keys: /);
  });

  it('dry-runs a composite, records it, and shows its trajectory from the store', async () => {
    const r = await cli(
      'run',
      'TextEditor.write_file',
      '--app',
      'wine-notepad',
      '--arg',
      'path=/tmp/dry.txt',
      '--arg',
      'text=hello',
      '--dry-run',
      '--json',
    );
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as {
      runId: string;
      status: string;
      steps: { primitive: string; resolved: Record<string, unknown> }[];
    };
    expect(result.status).toBe('succeeded');
    expect(result.steps.filter((s) => s.primitive === 'type_text').map((s) => s.resolved.text)).toEqual(['hello', 'Z:\\tmp\\dry.txt']);
    const list = await cli('runs', 'list');
    expect(list.out).toContain(result.runId);
    expect(list.out).toContain('succeeded (dry)');
    const show = await cli('runs', 'show', result.runId.slice(0, 8));
    expect(show.code).toBe(0);
    expect(show.out).toContain('wine-notepad.save_as#name type_text {"text":"Z:\\\\tmp\\\\dry.txt"}');
  });

  it('rejects an argument outside its domain with a clear error and exit 1', async () => {
    const r = await cli('run', 'TextEditor.save_as', '--app', 'mousepad', '--arg', 'path=relative.txt', '--dry-run');
    expect(r.code).toBe(1);
    expect(r.out).toContain('Expected `path` to be an absolute POSIX path, got `relative.txt` (string)');
  });

  it('answers usage errors with exit 2 and help on every command', async () => {
    expect((await cli('run', 'X.y', '--arg', 'novalue', '--dry-run')).code).toBe(2);
    for (const cmd of [['skills', 'list'], ['skills', 'validate'], ['run'], ['runs', 'show']]) {
      const r = await cli(...cmd, '--help');
      expect(r.code).toBe(0);
      expect(r.out).toContain('Usage: skilldesk');
    }
  });
});

describe('src/main/cli (manifests)', () => {
  it('rejects an under-declared skill on load and names the missing capability', async () => {
    process.env.TEST_DATA_DIR ??= join(tmpdir(), `skilldesk-cli-${process.pid}`);
    const dir = await mkdtemp(join(tmpdir(), 'skilldesk-underdeclared-'));
    await cp('skills', dir, { recursive: true });
    const file = join(dir, 'implementations/mousepad/save_as.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace("  - { capability: file.write, effect: allow, constraints: { paths: ['${path}'] } }\n", ''));
    const r = await cli('skills', 'validate', dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/implementations\/mousepad\/save_as\.yaml:\d+: error: permissions: .*file\.write/);
  });
});

describe('bin/skilldesk.cjs', () => {
  it('hands over a large JSON output to a pipe whole before exiting', () => {
    const r = spawnSync(process.execPath, ['bin/skilldesk.cjs', 'skills', 'list', '--json'], {
      encoding: 'utf8',
      env: { ...process.env, SKILLDESK_DATA_DIR: join(tmpdir(), `skilldesk-cli-pipe-${process.pid}`) },
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65536);
    expect((JSON.parse(r.stdout) as { skills: unknown[] }).skills.length).toBeGreaterThan(100);
  }, 120_000);
});
