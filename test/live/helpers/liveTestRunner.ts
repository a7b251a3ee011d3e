import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import type { RegistryValue } from '../../../src/shared/ports/desktop';
import type { LiveExpect, LiveTestsDoc, SkillLibrary } from '../../../src/shared/skill';
import { killApps } from '../skills/liveCore';
import { launchedProgram, testDesktopPath } from '../../../src/main/services/synthesis/AppIsolation';
import { waitFor } from './desktop';

/**
 * Runs the tests of one `kind: live_tests` file (src/shared/skill/liveTests.ts) against a core on
 * a real desktop: each test starts with the app's processes ended and a fresh folder, runs its
 * steps through `core.runSkill` as a user's command would, then waits for every expectation.
 */
export function defineLiveTests(library: SkillLibrary, doc: LiveTestsDoc, lane: LiveLane): void {
  for (const test of doc.tests) {
    it(
      test.name,
      async () => {
        for (const p of killPatterns(library, doc)) await lane.kill(p);
        for (const path of doc.clean) rmSync(testDesktopPath(path), { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        for (const key of doc.clean_registry) await laneRegistry(lane).deleteKey(key);
        const dir = mkdtempSync(join(tmpdir(), `skilldesk-${doc.app}-`));
        for (const d of test.dirs) mkdirSync(join(dir, d), { recursive: true });
        for (const [path, text] of Object.entries(test.files)) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), typeof text === 'string' ? text : Buffer.from(text.base64, 'base64'));
        }
        if (test.clipboard !== undefined) setClipboard(test.clipboard);
        const saved = Object.fromEntries(Object.keys(doc.env).map((k) => [k, process.env[k]]));
        Object.assign(process.env, doc.env);
        try {
          for (const [i, step] of test.steps.entries()) {
            const args = withDir(step.args, lane.appPath(dir)) as Record<string, unknown>;
            const r = await lane.core(doc.approve).runSkill({ skill: step.run, app: doc.app, args });
            const where = `step ${i + 1} (${step.run} ${JSON.stringify(args)})`;
            if (step.fails) {
              expect(r.status, `${where} was expected to fail`).toBe('failed');
              continue;
            }
            if (r.status !== 'succeeded') {
              await keepFailureScreenshot(lane.core(doc.approve), `${doc.app}-${test.name}-step${i + 1}`);
              // The steps the run took, for the failure's story (CI keeps no journal).
              const story = r.steps.map(
                (s) =>
                  `  ${s.seq} ${s.skillId} ${s.nodeId} ${s.primitive} ${s.outcome} +${s.endedAt - r.steps[0]!.startedAt}ms${s.error ? `: ${s.error}` : ''}`,
              );
              process.stderr.write(`live test: ${where} ${r.status}; its steps:\n${story.join('\n')}\n`);
            }
            expect(r.error?.message, where).toBeUndefined();
            expect(r.status, where).toBe('succeeded');
            if (step.result !== undefined) {
              if (typeof step.result === 'number')
                expect(Math.abs(Number(r.result) - step.result), where).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(step.result)));
              else expect(r.result, where).toBe(step.result);
            }
          }
        } finally {
          for (const [k, v] of Object.entries(saved)) {
            if (v === undefined) delete process.env[k];
            else process.env[k] = v;
          }
        }
        for (const e of test.expect) await expectation(doc, library, dir, e, lane);
      },
      60_000 + 30_000 * test.steps.length,
    );
  }
}

/**
 * The shipped live-tests files of a lane (`SKILLDESK_LIVE_APPS=a,b` keeps those apps' only), and a
 * check that throws while the library has errors (a test run on a broken library proves nothing).
 */
export async function shippedLiveTests(lane: LiveTestsDoc['lane']) {
  const { library, problems } = await loadLibrary({ builtinDir: resolve(__dirname, '../../../skills') });
  const only = process.env.SKILLDESK_LIVE_APPS?.split(',').filter(Boolean);
  const docs = library.liveTests.filter((d) => d.lane === lane && (!only || only.includes(d.app)));
  const requireValidLibrary = () => {
    if (problems.some((p) => p.severity === 'error'))
      throw new Error(
        `the skill library has errors; run \`skilldesk skills validate\`:\n${problems.map((p) => `${p.file}: ${p.message}`).join('\n')}`,
      );
  };
  return { library, docs, requireValidLibrary };
}

/**
 * Copies the failed step's screenshot (the executor takes one when a step fails) next to the test
 * reports, so a failure on CI can be seen: test-results/live-failures/<app>-<test>-step<n>.png.
 */
/** The desktop as the failed step left it (a step refused before it ran has no screenshot of its own). */
async function keepFailureScreenshot(core: Core, name: string): Promise<void> {
  const shot = await (await core.desktop()).screen.capture().catch(() => undefined);
  if (!shot) return;
  const dir = resolve(__dirname, '../../../test-results/live-failures');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
  writeFileSync(file, shot.png);
  process.stderr.write(`live test: the desktop when the step failed is ${file}\n`);
}

/** Where the tests run: the core to run skills with, how to end an app, and how the app names a test folder. */
export interface LiveLane {
  /** With `approve`, a core whose stand-in user allows once whatever the policy asks about. */
  core(approve: boolean): Core;
  kill(pattern: string): void | Promise<void>;
  /** The test folder as the app sees it (a Windows path for Windows programs). */
  appPath(posixPath: string): string;
  /** The Windows lane's registry: values read as skills read them, and the tests' own keys deleted. */
  registry?: {
    read(key: string, name: string): Promise<RegistryValue | undefined>;
    deleteKey(key: string): Promise<void>;
  };
}

/** The test desktop: apps are Linux processes on this display. */
export function desktopLane(core: (approve: boolean) => Core): LiveLane {
  return { core, kill: killApps, appPath: (p) => p };
}

/** What ends the app before a test: the file's `kill`, else its launch command (the program, for `wine prog.exe`). */
export function killPatterns(library: SkillLibrary, doc: LiveTestsDoc): string[] {
  return doc.kill ?? launchedProgram(library, doc.app);
}

function withDir(value: unknown, dir: string): unknown {
  if (typeof value === 'string') return value.replaceAll('${dir}', dir);
  if (Array.isArray(value)) return value.map((v) => withDir(v, dir));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDir(v, dir)]));
  return value;
}

/** Waits (up to 10 s: a file can land just after the app says it saved) until the expectation holds, then asserts it. */
async function expectation(doc: LiveTestsDoc, library: SkillLibrary, dir: string, e: LiveExpect, lane: LiveLane): Promise<void> {
  const check = async (): Promise<string | undefined> => {
    try {
      if ('registry' in e) return await registryFailure(lane, e.registry);
      return failure(doc, library, dir, e);
    } catch (err) {
      return (err as Error).message;
    }
  };
  let last: string | undefined;
  try {
    await waitFor(JSON.stringify(e), async () => ((last = await check()) === undefined ? true : undefined), 10_000);
  } catch {
    expect.fail(`${JSON.stringify(e)}: ${last}`);
  }
}

/** Why `actual` is not the text wanted, or undefined when it is. */
function text(actual: string, want: { equals?: string; contains?: string; matches?: string }): string | undefined {
  if (want.equals !== undefined && actual !== want.equals) return `is ${JSON.stringify(actual)}, expected ${JSON.stringify(want.equals)}`;
  if (want.contains !== undefined && !actual.includes(want.contains))
    return `is ${JSON.stringify(actual)}, expected it to contain ${JSON.stringify(want.contains)}`;
  if (want.matches !== undefined && !new RegExp(want.matches).test(actual))
    return `is ${JSON.stringify(actual)}, expected it to match /${want.matches}/`;
  return undefined;
}

function laneRegistry(lane: LiveLane): NonNullable<LiveLane['registry']> {
  if (!lane.registry) throw new Error('this lane has no Windows registry (registry expectations run in the Windows lane)');
  return lane.registry;
}

/** Why a registry expectation does not hold, read through the lane's desktop as skills read it. */
async function registryFailure(lane: LiveLane, e: Extract<LiveExpect, { registry: unknown }>['registry']): Promise<string | undefined> {
  const { key, name, absent, ...want } = e;
  const value = await laneRegistry(lane).read(key, name);
  const what = `registry ${key} ${name ? `\`${name}\`` : '(Default)'}`;
  if (absent) return value === undefined ? undefined : `${what} is still there: ${JSON.stringify(value.data)}`;
  if (value === undefined) return `${what} is not there`;
  const wrong = text(value.data, want);
  return wrong && `${what} ${wrong}`;
}

/** Why the expectation does not hold, or undefined when it does. */
function failure(doc: LiveTestsDoc, library: SkillLibrary, dir: string, e: Exclude<LiveExpect, { registry: unknown }>): string | undefined {
  if ('file' in e) {
    const path = join(dir, e.file);
    if (!existsSync(path)) return `${e.file} does not exist; the folder has: ${readdirSync(dir).join(', ') || '(nothing)'}`;
    return text(readFileSync(path, 'utf8'), e);
  }
  if ('exists' in e) return existsSync(join(dir, e.exists)) ? undefined : `${e.exists} does not exist`;
  if ('absent' in e) return existsSync(join(dir, e.absent)) ? `${e.absent} still exists` : undefined;
  if ('dir' in e) {
    const got = readdirSync(join(dir, e.dir)).sort();
    const want = [...e.entries].sort();
    return JSON.stringify(got) === JSON.stringify(want)
      ? undefined
      : `${e.dir} has ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
  }
  if ('archive' in e) {
    const path = join(dir, e.archive);
    const listing = /\.zip$/i.test(path)
      ? execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' })
      : execFileSync('tar', ['-tf', path], { encoding: 'utf8' });
    const got = listing.split('\n').filter(Boolean).sort();
    const want = [...e.entries].sort();
    return JSON.stringify(got) === JSON.stringify(want)
      ? undefined
      : `${e.archive} holds ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
  }
  if ('gsettings' in e) {
    const { schema, key, ...want } = e.gsettings;
    return text(execFileSync('gsettings', ['get', schema, key], { encoding: 'utf8' }).trim(), want);
  }
  if ('clipboard' in e) return text(execFileSync('xclip', ['-o', '-selection', 'clipboard'], { encoding: 'utf8' }), e.clipboard);
  // A window of the app (its WM_CLASS, as the app profile names it) with a matching title.
  const classPattern = library.apps.get(doc.app)?.windows?.class;
  const rows = execFileSync('wmctrl', ['-lx'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const titles = rows
    .map((row) => row.split(/\s+/))
    .filter((cols) => {
      // wmctrl shows WM_CLASS as `instance.Class`.
      const wmClass = cols[2] ?? '';
      const parts = [wmClass, wmClass.slice(0, wmClass.indexOf('.')), wmClass.slice(wmClass.lastIndexOf('.') + 1)];
      return !classPattern || parts.some((p) => new RegExp(classPattern, 'i').test(p));
    })
    .map((cols) => cols.slice(4).join(' '));
  return titles.some((t) => new RegExp(e.window).test(t))
    ? undefined
    : `no window of ${doc.app} titled /${e.window}/; its windows: ${JSON.stringify(titles)}`;
}

function setClipboard(text: string): void {
  execFileSync('xclip', ['-i', '-selection', 'clipboard'], { input: text, stdio: ['pipe', 'ignore', 'ignore'] });
}
