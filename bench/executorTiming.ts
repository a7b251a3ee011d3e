/**
 * What the executor benchmarks share: a library with a synthetic skill of N key presses per app,
 * a run of it with the time spent inside the input driver subtracted, and small helpers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphExecutor } from '../src/main/services/executor';
import { loadLibrary } from '../src/main/services/library/YamlLibraryLoader';
import { SqliteRunJournal, openStore } from '../src/main/services/store';
import type { Desktop, InputDriver, WindowInfo } from '../src/shared/ports/desktop';
import { LibraryDocSchema, SkillLibrary, type SourcedDoc } from '../src/shared/skill';

const allow = { check: async () => ({ effect: 'allow' as const }) };

/** Wraps the input driver so the time spent inside it can be subtracted. */
export function timedInput(input: InputDriver): { input: InputDriver; spentMs: () => number } {
  let spent = 0;
  const wrap =
    <A extends unknown[]>(f: (...a: A) => Promise<void>) =>
    async (...a: A) => {
      const t = performance.now();
      try {
        await f(...a);
      } finally {
        spent += performance.now() - t;
      }
    };
  return {
    spentMs: () => spent,
    input: {
      pressKey: wrap((k) => input.pressKey(k)),
      hotkey: wrap((k) => input.hotkey(k)),
      typeText: wrap((t) => input.typeText(t)),
      click: wrap((p, b, c) => input.click(p, b, c)),
      drag: wrap((a, b) => input.drag(a, b)),
      scroll: wrap((p, x, y) => input.scroll(p, x, y)),
    },
  };
}

/** The shipped library plus, per app, `<app>.bench_keys`: focus, then `presses` Shift presses (no waits). */
export async function benchLibrary(apps: readonly string[], presses: number): Promise<SkillLibrary> {
  const base = await loadLibrary({ builtinDir: 'skills' });
  const docs: SourcedDoc[] = [...base.library.interfaces.values(), ...base.library.apps.values()].map((d) => ({
    doc: d,
    source: d.source,
  }));
  for (const app of apps) {
    const nodes: Record<string, unknown> = { focus: { action: 'focus_window', next: 'k0' }, done: { terminal: 'success' } };
    for (let i = 0; i < presses; i++) nodes[`k${i}`] = { action: 'key', key: 'Shift', next: i + 1 < presses ? `k${i + 1}` : 'done' };
    const doc = LibraryDocSchema.parse({
      kind: 'skill',
      id: `${app}.bench_keys`,
      app,
      description: 'press Shift many times',
      intents: ['bench'],
      graph: { start: 'focus', nodes },
    });
    docs.push({ doc, source: { file: 'bench', origin: 'builtin' } });
  }
  return new SkillLibrary(docs);
}

/** Runs `<app>.bench_keys` with the real SQLite journal: wall time minus driver time, per primitive. */
export async function overhead(library: SkillLibrary, desktop: Desktop, app: string, dryRun = false) {
  const timed = timedInput(desktop.input);
  const store = openStore({ dataDir: mkdtempSync(join(tmpdir(), 'skilldesk-bench-')) });
  const exec = new GraphExecutor({
    library,
    desktop: { ...desktop, input: timed.input },
    mediator: allow,
    journal: new SqliteRunJournal(store.db),
  });
  const t = performance.now();
  const r = await exec.run({ skill: `${app}.bench_keys`, dryRun });
  const total = performance.now() - t;
  store.close();
  if (r.status !== 'succeeded') throw new Error(`bench run on ${app} failed: ${r.error?.message}`);
  return {
    primitives: r.steps.length,
    totalMs: round(total),
    driverMs: round(timed.spentMs()),
    overheadPerPrimitiveMs: round((total - timed.spentMs()) / r.steps.length),
  };
}

/** The first window matching `match`, polled for up to 30 s. */
export async function waitForWindow(desktop: Desktop, match: (w: WindowInfo) => boolean): Promise<WindowInfo> {
  for (let i = 0; i < 150; i++) {
    const w = (await desktop.windows.list()).find(match);
    if (w) return w;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('window did not appear within 30 s');
}

export function round(n: number): number {
  return Math.round(n * 100) / 100;
}
