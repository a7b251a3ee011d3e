/**
 * Skill reliability on real applications, after the CUA-Skill paper's table: tasks synthesized
 * from the composition graph (roots on every live app, arguments sampled from their feasible
 * domains), executed through the node core (real mediator, SQLite journal) on the test desktop,
 * verified programmatically (the file on disk, the calculator's number, the opened document's
 * window, the text read back from a document opened first), reported per application (tasks, success rate, skills, mean primitives per skill) and
 * per skill (runs that used it, and how many of those it did not fail).
 *
 * The per-skill figures are what the Library screen shows as "reliability".
 * Prints one JSON object. Run: `npm run bench -- reliability` (BENCH_TASKS per skill and app,
 * default 5; BENCH_SEED, default 1).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createNodeCore } from '../src/main/core/createNodeCore';
import type { RunResult } from '../src/main/services/executor';
import { primitiveCount, synthesizeTasks, type Skill, type SkillLibrary, type SynthesizedTask } from '../src/shared/skill';
import { killApps } from '../test/live/skills/liveCore';

const PER_SKILL = Number(process.env.BENCH_TASKS ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 1);
/** The live apps on the test desktop, with the command line that identifies their processes. */
const LIVE_APPS: Record<string, string> = {
  'wine-notepad': '[n]otepad.exe',
  mousepad: '[m]ousepad',
  'gnome-calculator': '[g]nome-calculator',
};

type Outcome = { ok: true } | { ok: false; why: string };

/** How a task's effect is checked, by the interface method its root implements; tasks without one are not run. */
interface Verifier {
  /** Puts the world in the state the task needs (e.g. the file it opens). */
  setup?: (task: SynthesizedTask) => void;
  /** Skills run before the root, after the synthesized opener (e.g. opening the document to read). */
  steps?: (task: SynthesizedTask) => { skill: string; args: Record<string, string> }[];
  check: (task: SynthesizedTask, run: RunResult, activeTitle: string | undefined) => Outcome;
}

const VERIFIERS: Record<string, Verifier> = {
  'TextEditor.write_file': {
    check: (task) => {
      const want = String(task.args.text);
      const expected = task.app === 'wine-notepad' ? want.replaceAll('\n', '\r\n') : want; // Win32 Notepad writes CRLF
      let got: string;
      try {
        got = readFileSync(String(task.args.path), 'latin1');
      } catch {
        return { ok: false, why: 'no file written' };
      }
      return got === expected
        ? { ok: true }
        : { ok: false, why: `file holds ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}` };
    },
  },
  'Calculator.evaluate': {
    check: (task, run) => {
      const expected = evaluateArithmetic(String(task.args.expression));
      const got = run.result;
      if (typeof got !== 'number') return { ok: false, why: `returned ${JSON.stringify(got)}, not a number` };
      return Math.abs(got - expected) <= 1e-6 * Math.max(1, Math.abs(expected))
        ? { ok: true }
        : { ok: false, why: `returned ${got}, expected ${expected}` };
    },
  },
  'TextEditor.get_text': {
    setup: (task) => writeFileSync(fixtureFor(task), `text for ${task.id}: a_b > c`),
    steps: (task) => [{ skill: 'TextEditor.open_file', args: { path: fixtureFor(task) } }],
    check: (task, run) =>
      run.result === `text for ${task.id}: a_b > c`
        ? { ok: true }
        : { ok: false, why: `returned ${JSON.stringify(run.result)}, expected the opened file's text` },
  },
  'Document.open_file': {
    setup: (task) => writeFileSync(String(task.args.path), `opened by the reliability benchmark (${task.id})\n`),
    check: (task, _run, title) =>
      title?.includes(basename(String(task.args.path)))
        ? { ok: true }
        : { ok: false, why: `the focused window is ${JSON.stringify(title)}, not the opened file` },
  },
};

/** Where tasks that read a document get it from (a file named after the task). */
let fixtures: string | undefined;
const fixtureFor = (task: SynthesizedTask) =>
  join((fixtures ??= mkdtempSync(join(tmpdir(), 'skilldesk-bench-fixtures-'))), `${task.id.replace(/[^A-Za-z0-9_-]+/g, '_')}.txt`);

/** `+ - * /`, parentheses and `sqrt(x)`: the Calculator interface's expression domain. */
export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/sqrt|\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (t?: string) => {
    const tok = tokens[i++];
    if (t !== undefined && tok !== t) throw new Error(`expected \`${t}\` in ${JSON.stringify(expression)}, got \`${tok}\``);
    return tok;
  };
  const factor = (): number => {
    const tok = take();
    if (tok === '-') return -factor();
    if (tok === '(') {
      const v = sum();
      take(')');
      return v;
    }
    if (tok === 'sqrt') {
      take('(');
      const v = sum();
      take(')');
      return Math.sqrt(v);
    }
    const n = Number(tok);
    if (!Number.isFinite(n)) throw new Error(`unexpected \`${tok}\` in ${JSON.stringify(expression)}`);
    return n;
  };
  const product = (): number => {
    let v = factor();
    while (peek() === '*' || peek() === '/') v = take() === '*' ? v * factor() : v / factor();
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = take() === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i !== tokens.length) throw new Error(`trailing \`${tokens[i]}\` in ${JSON.stringify(expression)}`);
  return v;
}

const verifierOf = (library: SkillLibrary, skillId: string): Verifier | undefined => {
  const skill = library.skills.get(skillId);
  return VERIFIERS[skill?.implements ?? skillId];
};

/** The skill whose step ended a failed run: the last failed or denied step's skill. */
function failingSkill(run: RunResult): string | undefined {
  return [...run.steps].reverse().find((s) => s.outcome === 'failed' || s.outcome === 'denied')?.skillId;
}

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

async function main() {
  if (!process.env.DISPLAY)
    throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first, or use `npm run bench -- reliability`');
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-bench-reliability-'));
  const files = mkdtempSync(join(tmpdir(), 'skilldesk-bench-files-'));
  const core = await createNodeCore({ dataDir, interactive: false });
  try {
    const { library } = await core.loadLibrary();
    const all = synthesizeTasks(library, { apps: Object.keys(LIVE_APPS), perSkill: PER_SKILL, seed: SEED, tempDir: files });
    const tasks = all.filter((t) => verifierOf(library, t.skill));
    const unverified = [...new Set(all.filter((t) => !verifierOf(library, t.skill)).map((t) => t.skill))].sort();
    const desktop = await core.desktop();
    const results: { id: string; app: string; skills: string[]; ok: boolean; ms: number; why?: string; failingSkill?: string }[] = [];
    for (const task of tasks) {
      const verifier = verifierOf(library, task.skill)!;
      killApps(LIVE_APPS[task.app]!); // every task starts from a desktop without the app
      verifier.setup?.(task);
      const t = performance.now();
      // The chain: the skills that bring the app up, then the root; the first failure ends it.
      const runs: RunResult[] = [];
      const chain = [...task.before, ...(verifier.steps?.(task) ?? []), { skill: task.skill, args: task.args }];
      for (const step of chain) {
        const r = await core.runSkill({ skill: step.skill, app: task.app, args: step.args });
        runs.push(r);
        if (r.status !== 'succeeded') break;
      }
      const ms = performance.now() - t;
      const run = runs.at(-1)!;
      await new Promise((r) => setTimeout(r, 300)); // let the app finish writing / retitling
      const title = (await desktop.windows.active().catch(() => undefined))?.title;
      const finished = run.status === 'succeeded' && runs.length === chain.length;
      const outcome: Outcome = finished ? verifier.check(task, run, title) : { ok: false, why: run.error?.message ?? run.status };
      const culprit = outcome.ok ? undefined : finished ? task.skill : (failingSkill(run) ?? task.skill);
      const used = [...new Set(runs.flatMap((r) => r.steps.map((s) => s.skillId)))];
      results.push({
        id: task.id,
        app: task.app,
        skills: used,
        ok: outcome.ok,
        ms: round(ms, 0),
        ...(!outcome.ok && { why: outcome.why, failingSkill: culprit }),
      });
      process.stderr.write(`${outcome.ok ? 'ok  ' : 'FAIL'} ${task.id} (${Math.round(ms)} ms)${outcome.ok ? '' : `: ${outcome.why}`}\n`);
    }
    for (const app of Object.keys(LIVE_APPS)) killApps(LIVE_APPS[app]!);

    const apps = Object.fromEntries(
      Object.keys(LIVE_APPS).map((app) => {
        const mine = results.filter((r) => r.app === app);
        const own: Skill[] = [...library.skills.values()].filter((s) => s.app === app);
        return [
          app,
          {
            tasks: mine.length,
            succeeded: mine.filter((r) => r.ok).length,
            successRate: mine.length ? round(mine.filter((r) => r.ok).length / mine.length) : null,
            meanTaskMs: mine.length ? round(mine.reduce((n, r) => n + r.ms, 0) / mine.length, 0) : null,
            skills: own.length,
            meanPrimitivesPerSkill: own.length ? round(own.reduce((n, s) => n + primitiveCount(s), 0) / own.length, 2) : null,
          },
        ];
      }),
    );
    const skills: Record<string, { runs: number; succeeded: number; successRate: number }> = {};
    for (const r of results) {
      for (const id of r.skills) {
        const s = (skills[id] ??= { runs: 0, succeeded: 0, successRate: 0 });
        s.runs += 1;
        if (r.ok || r.failingSkill !== id) s.succeeded += 1;
        s.successRate = round(s.succeeded / s.runs);
      }
    }
    const succeeded = results.filter((r) => r.ok).length;
    console.log(
      JSON.stringify(
        {
          benchmark: 'reliability',
          date: new Date().toISOString(),
          seed: SEED,
          tasksPerSkillAndApp: PER_SKILL,
          overall: { tasks: results.length, succeeded, successRate: results.length ? round(succeeded / results.length) : null },
          apps,
          skills: Object.fromEntries(Object.entries(skills).sort(([a], [b]) => a.localeCompare(b))),
          unverifiedRoots: unverified,
          failures: results.filter((r) => !r.ok).map(({ id, why, failingSkill: f }) => ({ id, why, failingSkill: f })),
        },
        null,
        2,
      ),
    );
  } finally {
    core.close();
    rmSync(files, { recursive: true, force: true });
    if (fixtures) rmSync(fixtures, { recursive: true, force: true });
  }
  process.exit(0);
}

if (process.argv[1]?.endsWith('reliability.bench.ts')) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
