import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeProcessRunner } from '../../../../src/main/services/desktop/NodeProcessRunner';

describe('src/main/services/desktop/NodeProcessRunner', () => {
  let dir: string;
  const runner = new NodeProcessRunner({ env: { SKILLDESK_TEST_VAR: 'from-runner' } });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skilldesk-runner-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('passes arguments to bash scripts as $1, $2 and returns exit code and output', async () => {
    const r = await runner.runScript({
      interpreter: 'bash',
      script: 'echo "[$1][$2]"; echo oops >&2; exit 3',
      args: ['a b', "c'd"],
      timeoutMs: 5000,
    });
    expect(r).toEqual({ exitCode: 3, stdout: "[a b][c'd]\n", stderr: 'oops\n' });
  });

  it('runs python and node scripts with their arguments', async () => {
    const py = await runner.runScript({
      interpreter: 'python',
      script: 'import sys; print("|".join(sys.argv[1:]))',
      args: ['x', 'é'],
      timeoutMs: 10_000,
    });
    const js = await runner.runScript({
      interpreter: 'node',
      script: 'console.log(process.argv.slice(1).join("|"))',
      args: ['x', 'é'],
      timeoutMs: 10_000,
    });
    expect(py.stdout).toBe('x|é\n');
    expect(js.stdout).toBe('x|é\n');
  });

  it('merges the runner and request environment', async () => {
    const r = await runner.runScript({
      interpreter: 'sh',
      script: 'echo "$SKILLDESK_TEST_VAR/$EXTRA"',
      args: [],
      timeoutMs: 5000,
      env: { EXTRA: 'req' },
    });
    expect(r.stdout).toBe('from-runner/req\n');
  });

  it('kills the whole process group when the timeout passes', async () => {
    const marker = join(dir, 'late');
    const started = Date.now();
    await expect(
      runner.runScript({ interpreter: 'sh', script: `(sleep 1; touch ${marker}) & sleep 5`, args: [], timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'script.timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
    await sleep(1300);
    // The background child was killed with its group: it never wrote the marker.
    expect(existsSync(marker)).toBe(false);
  });

  it('stops a script when its AbortSignal fires', async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    await expect(
      runner.runScript({ interpreter: 'bash', script: 'sleep 5', args: [], timeoutMs: 10_000, signal: ctl.signal }),
    ).rejects.toMatchObject({ code: 'script.aborted' });
  });

  it('rejects a non-positive timeout before starting anything', async () => {
    await expect(runner.runScript({ interpreter: 'sh', script: 'true', args: [], timeoutMs: -3 })).rejects.toThrow(
      'Expected `timeoutMs` to be a positive number, got `-3` (number)',
    );
  });

  it('launches a detached program with env and cwd and returns its pid', async () => {
    const { pid } = await runner.launch({ command: 'sh', args: ['-c', 'echo "$SKILLDESK_TEST_VAR $PWD" > out.txt'], cwd: dir });
    expect(pid).toBeGreaterThan(0);
    const out = join(dir, 'out.txt');
    for (let i = 0; i < 100 && !existsSync(out); i++) await sleep(20);
    expect((await readFile(out, 'utf8')).trim()).toBe(`from-runner ${dir}`);
  });

  it('fails with process.not_found for a missing program', async () => {
    await expect(runner.launch({ command: 'skilldesk-no-such-program', args: [] })).rejects.toMatchObject({ code: 'process.not_found' });
  });
});
