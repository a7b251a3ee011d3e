/**
 * Executor benchmark on the test desktop (DISPLAY must be set):
 *  - overhead per primitive: wall time of a run minus the time spent inside the desktop
 *    drivers, divided by the number of primitives (no deliberate waits in the graph), with the
 *    real SQLite journal; live (mousepad focused) and dry (recording driver);
 *  - exact text entry: characters per second of `type_text` into mousepad and Wine Notepad,
 *    with the text read back and compared.
 * Prints one JSON object. Run: `eval "$(bash scripts/test-desktop.sh start)"; npx tsx bench/executor.bench.ts`
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { createDesktop, createRecordingDesktop } from '../src/main/services/desktop';
import { GraphExecutor, windowBelongsToApp } from '../src/main/services/executor';
import { loadLibrary } from '../src/main/services/library/YamlLibraryLoader';
import { SqliteRunJournal, openStore } from '../src/main/services/store';
import type { Desktop, InputDriver, WindowInfo } from '../src/shared/ports/desktop';
import { LibraryDocSchema, SkillLibrary, type SourcedDoc } from '../src/shared/skill';

const PRIMITIVES = Number(process.env.BENCH_PRIMITIVES ?? 200);
const allow = { check: async () => ({ effect: 'allow' as const }) };

/** Wraps the input driver so the time spent inside it can be subtracted. */
function timedInput(input: InputDriver): { input: InputDriver; spentMs: () => number } {
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

async function syntheticLibrary(): Promise<SkillLibrary> {
  const base = await loadLibrary({ builtinDir: 'skills' });
  const nodes: Record<string, unknown> = { focus: { action: 'focus_window', next: 'k0' }, done: { terminal: 'success' } };
  for (let i = 0; i < PRIMITIVES; i++) nodes[`k${i}`] = { action: 'key', key: 'Shift', next: i + 1 < PRIMITIVES ? `k${i + 1}` : 'done' };
  const doc = LibraryDocSchema.parse(
    parse(
      JSON.stringify({
        kind: 'skill',
        id: 'mousepad.bench_keys',
        app: 'mousepad',
        description: 'press Shift many times',
        intents: ['bench'],
        graph: { start: 'focus', nodes },
      }),
    ),
  );
  const docs: SourcedDoc[] = [...base.library.interfaces.values(), ...base.library.apps.values()].map((d) => ({
    doc: d,
    source: d.source,
  }));
  return new SkillLibrary([...docs, { doc, source: { file: 'bench', origin: 'builtin' } }]);
}

async function overhead(library: SkillLibrary, desktop: Desktop, dryRun: boolean) {
  const timed = timedInput(desktop.input);
  const store = openStore({ dataDir: mkdtempSync(join(tmpdir(), 'skilldesk-bench-')) });
  const exec = new GraphExecutor({
    library,
    desktop: { ...desktop, input: timed.input },
    mediator: allow,
    journal: new SqliteRunJournal(store.db),
  });
  const t = performance.now();
  const r = await exec.run({ skill: 'mousepad.bench_keys', dryRun });
  const total = performance.now() - t;
  store.close();
  if (r.status !== 'succeeded') throw new Error(`bench run failed: ${r.error?.message}`);
  return {
    primitives: r.steps.length,
    totalMs: round(total),
    driverMs: round(timed.spentMs()),
    overheadPerPrimitiveMs: round((total - timed.spentMs()) / r.steps.length),
  };
}

async function waitForWindow(desktop: Desktop, match: (w: WindowInfo) => boolean) {
  for (let i = 0; i < 100; i++) {
    const w = (await desktop.windows.list()).find(match);
    if (w) return w;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('window did not appear');
}

/** Types `text` into a fresh editor window and reads it back through the clipboard. */
async function typingSpeed(desktop: Desktop, library: SkillLibrary, app: 'mousepad' | 'wine-notepad', text: string) {
  const profile = library.apps.get(app)!;
  killApp(app);
  spawn(profile.launch.command, profile.launch.args, { detached: true, stdio: 'ignore' }).unref();
  const w = await waitForWindow(desktop, (x) => windowBelongsToApp(x, profile.windows, true));
  await desktop.windows.focus(w.id);
  const t = performance.now();
  await desktop.input.typeText(text);
  const ms = performance.now() - t;
  await desktop.clipboard.writeText('');
  await desktop.input.hotkey(['Control', 'a']);
  await desktop.input.hotkey(['Control', 'c']);
  await new Promise((r) => setTimeout(r, 300));
  const back = (await desktop.clipboard.readText()).replaceAll('\r\n', '\n');
  killApp(app);
  if (back !== text && process.env.BENCH_DEBUG) console.error(JSON.stringify({ app, back, text }));
  return { app, chars: text.length, ms: round(ms), charsPerSecond: round((text.length / ms) * 1000), exact: back === text };
}

/** `pkill -f` with a bracketed pattern, so the shell running it does not match itself. */
function killApp(app: 'mousepad' | 'wine-notepad'): void {
  execFileSync('sh', ['-c', `pkill -9 -f '${app === 'mousepad' ? '[m]ousepad' : '[n]otepad.exe'}' || true`]);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

async function main() {
  if (!process.env.DISPLAY) throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first');
  const library = await syntheticLibrary();
  const desktop = await createDesktop();
  killApp('mousepad');
  spawn('mousepad', [], { detached: true, stdio: 'ignore' }).unref();
  await waitForWindow(desktop, (w) => windowBelongsToApp(w, library.apps.get('mousepad')!.windows, true));
  const live = await overhead(library, desktop, false);
  const dry = await overhead(library, createRecordingDesktop().desktop, true);
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
  const text = `${ascii}\n\t${ascii}\n${'The quick brown fox, A_B>C:D! jumps; '.repeat(4)}`;
  const typing = [await typingSpeed(desktop, library, 'mousepad', text), await typingSpeed(desktop, library, 'wine-notepad', text)];
  console.log(JSON.stringify({ benchmark: 'executor', date: new Date().toISOString(), overhead: { live, dry }, typing }, null, 2));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
