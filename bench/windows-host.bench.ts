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
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { createDesktop } from '../src/main/services/desktop';
import { connectDesktopHost } from '../src/main/services/desktopHost';
import type { Desktop, WindowInfo } from '../src/shared/ports/desktop';
import { benchLibrary, overhead, round, waitForWindow } from './executorTiming';

const PRIMITIVES = Number(process.env.BENCH_PRIMITIVES ?? 200);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const lane = createRequire(__filename)('../scripts/windows-lane.cjs') as {
  start(env?: NodeJS.ProcessEnv): { url: string; token: string };
  stop(): boolean;
};

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

async function main() {
  if (!process.env.DISPLAY) throw new Error('DISPLAY is not set: eval "$(bash scripts/test-desktop.sh start)" first');
  const library = await benchLibrary(['notepad', 'wine-notepad'], PRIMITIVES);
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
