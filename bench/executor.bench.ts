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
import { createDesktop, createRecordingDesktop } from '../src/main/services/desktop';
import { windowBelongsToApp } from '../src/main/services/executor';
import type { Desktop } from '../src/shared/ports/desktop';
import type { SkillLibrary } from '../src/shared/skill';
import { benchLibrary, overhead, round, waitForWindow } from './executorTiming';

const PRIMITIVES = Number(process.env.BENCH_PRIMITIVES ?? 200);

/** Types `text` into a fresh editor window and reads it back through the clipboard. */
async function typingSpeed(desktop: Desktop, library: SkillLibrary, app: 'mousepad' | 'wine-notepad', text: string) {
  const profile = library.apps.get(app)!;
  if (!profile.launch || !profile.windows) throw new Error(`${app} is not a desktop app`);
  killApp(app);
  spawn(profile.launch.command, profile.launch.args, { detached: true, stdio: 'ignore' }).unref();
  const w = await waitForWindow(desktop, (x) => windowBelongsToApp(x, profile.windows!, true));
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

async function main() {
  if (!process.env.DISPLAY) throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first');
  const library = await benchLibrary(['mousepad'], PRIMITIVES);
  const desktop = await createDesktop();
  killApp('mousepad');
  spawn('mousepad', [], { detached: true, stdio: 'ignore' }).unref();
  await waitForWindow(desktop, (w) => windowBelongsToApp(w, library.apps.get('mousepad')!.windows, true));
  const live = await overhead(library, desktop, 'mousepad');
  const dry = await overhead(library, createRecordingDesktop().desktop, 'mousepad', true);
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
