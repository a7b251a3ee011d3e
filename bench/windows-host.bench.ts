/**
 * The Windows desktop host, measured next to the local desktop (DISPLAY must be set; the host
 * runs under Wine through scripts/windows-lane.cjs):
 *  - round trip of one cheap call (`windows.active`) through the host: p50 / p95;
 *  - executor overhead per primitive: a run of N key presses, wall time minus the time inside
 *    the input driver, divided by N, through the host (Windows Notepad) and locally (X11,
 *    Wine Notepad's window), with the real SQLite journal;
 *  - exact text entry: characters per second of typing printable ASCII, Latin-1, tabs and
 *    newlines into Notepad through the host (Windows SendInput) and locally (X11 XTEST), with
 *    the text read back through the clipboard and compared.
 * Prints one JSON object. Run: `npm run bench -- windows-host`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { createDesktop } from '../src/main/services/desktop';
import { connectDesktopHost } from '../src/main/services/desktopHost';
import { GraphExecutor } from '../src/main/services/executor';
import { loadLibrary } from '../src/main/services/library/YamlLibraryLoader';
import { SqliteRunJournal, openStore } from '../src/main/services/store';
import type { Desktop, InputDriver, WindowInfo } from '../src/shared/ports/desktop';
import { LibraryDocSchema, SkillLibrary, type SourcedDoc } from '../src/shared/skill';

const PRIMITIVES = Number(process.env.BENCH_PRIMITIVES ?? 200);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const allow = { check: async () => ({ effect: 'allow' as const }) };
const lane = createRequire(__filename)('../scripts/windows-lane.cjs') as {
  start(env?: NodeJS.ProcessEnv): { url: string; token: string };
  stop(): boolean;
};

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

/** The shipped library plus one skill per Notepad of N Shift presses (no waits in the graph). */
async function benchLibrary(): Promise<SkillLibrary> {
  const base = await loadLibrary({ builtinDir: 'skills' });
  const docs: SourcedDoc[] = [...base.library.interfaces.values(), ...base.library.apps.values()].map((d) => ({
    doc: d,
    source: d.source,
  }));
  for (const app of ['notepad', 'wine-notepad']) {
    const nodes: Record<string, unknown> = { focus: { action: 'focus_window', next: 'k0' }, done: { terminal: 'success' } };
    for (let i = 0; i < PRIMITIVES; i++) nodes[`k${i}`] = { action: 'key', key: 'Shift', next: i + 1 < PRIMITIVES ? `k${i + 1}` : 'done' };
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

async function overhead(library: SkillLibrary, desktop: Desktop, app: string) {
  const timed = timedInput(desktop.input);
  const store = openStore({ dataDir: mkdtempSync(join(tmpdir(), 'skilldesk-bench-')) });
  const exec = new GraphExecutor({
    library,
    desktop: { ...desktop, input: timed.input },
    mediator: allow,
    journal: new SqliteRunJournal(store.db),
  });
  const t = performance.now();
  const r = await exec.run({ skill: `${app}.bench_keys` });
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

async function waitForWindow(desktop: Desktop, match: (w: WindowInfo) => boolean): Promise<WindowInfo> {
  for (let i = 0; i < 150; i++) {
    const w = (await desktop.windows.list()).find(match);
    if (w) return w;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('window did not appear');
}

/**
 * Types `text` into Notepad and reads it back through the clipboard. `sendMs` is how long the
 * driver took to send it; `charsPerSecond` counts until the copy of the typed text came back,
 * because on Windows keys are queued (SendInput returns before the app has taken them).
 */
async function typingSpeed(desktop: Desktop, window: WindowInfo, text: string) {
  await desktop.windows.focus(window.id);
  await desktop.input.hotkey(['Control', 'a']);
  await desktop.input.pressKey('Delete');
  const t = performance.now();
  await desktop.input.typeText(text);
  const sendMs = performance.now() - t;
  await desktop.input.hotkey(['Control', 'a']);
  await desktop.input.hotkey(['Control', 'c']);
  const back = (await desktop.clipboard.readText()).replaceAll('\r\n', '\n');
  const ms = performance.now() - t;
  return {
    chars: text.length,
    sendMs: round(sendMs),
    untilReadBackMs: round(ms),
    charsPerSecond: round((text.length / ms) * 1000),
    exact: back === text,
  };
}

async function roundTrips(desktop: Desktop) {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await desktop.windows.active();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
  return { calls: CALLS, p50Ms: at(0.5), p95Ms: at(0.95) };
}

function killNotepads(): void {
  execFileSync('sh', ['-c', "pkill -9 -f '[n]otepad.exe' || true"]);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

async function main() {
  if (!process.env.DISPLAY) throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first');
  const library = await benchLibrary();
  const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
  const latin1 = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0xa0 + i)).join('');
  const text = `${ascii}\n\t${latin1}\n${'The quick brown fox, A_B>C:D! jumps; '.repeat(4)}`;
  killNotepads();
  const host = lane.start(process.env);
  try {
    const remote = await connectDesktopHost(host);
    await remote.processes.launch({ command: 'notepad.exe', args: [] });
    const winNotepad = await waitForWindow(remote, (w) => w.processName === 'notepad.exe');
    const viaHost = {
      hello: remote.hello,
      roundTrip: await roundTrips(remote),
      overhead: await overhead(library, remote, 'notepad'),
      typing: await typingSpeed(remote, winNotepad, text),
    };
    await remote.close();
    killNotepads();

    const local = await createDesktop();
    spawn('wine', ['notepad.exe'], { detached: true, stdio: 'ignore' }).unref();
    const x11Notepad = await waitForWindow(local, (w) => /Notepad$/.test(w.title));
    const locally = {
      roundTrip: await roundTrips(local),
      overhead: await overhead(library, local, 'wine-notepad'),
      typing: await typingSpeed(local, x11Notepad, text),
    };
    await local.close();
    killNotepads();
    console.log(
      JSON.stringify(
        {
          benchmark: 'windows-host',
          date: new Date().toISOString(),
          node: process.version,
          load_average_1m: round(loadavg()[0]!),
          primitives: PRIMITIVES,
          viaHost,
          locally,
        },
        null,
        2,
      ),
    );
  } finally {
    lane.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  lane.stop();
  process.exit(1);
});
