/**
 * Shortcuts into Wine programs: how often Alt+F4 on a modified Wine Notepad leaves its menu bar in
 * menu mode (which then swallows every click on the save-changes box), with the shortcut's key
 * events sent at once and paced as the driver sends them to Wine windows (WINE_PACE.chordDelayMs).
 * Menu mode is seen on the screen: the "File" menu title is highlighted.
 *
 * Prints one JSON object. Run: `npm run bench -- wine-shortcuts` (BENCH_TRIALS per variant, default 30).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeCore } from '../src/main/core/createNodeCore';
import { createDesktop } from '../src/main/services/desktop';
import { defaultPace } from '../src/main/services/desktop/x11/XTestKeyboard';
import { decodePng } from '../src/main/services/image';
import { killApps } from '../test/live/skills/liveCore';

const TRIALS = Number(process.env.BENCH_TRIALS ?? 30);

/** Whether the first menu title of the window is drawn highlighted (blue), as in menu mode. */
function menuTitleHighlighted(shot: { width: number; data: Uint8Array }, bounds: { x: number; y: number }): boolean {
  const x = bounds.x + 15;
  const y = bounds.y + 10;
  let blue = 0;
  for (let dy = -3; dy <= 3; dy++) {
    for (let dx = -8; dx <= 8; dx++) {
      const o = ((y + dy) * shot.width + x + dx) * 3;
      if (shot.data[o + 2]! > 200 && shot.data[o]! < 100) blue++;
    }
  }
  return blue > 20;
}

async function trial(variant: 'at_once' | 'paced', core: Awaited<ReturnType<typeof createNodeCore>>) {
  const desktop = await createDesktop(variant === 'paced' ? {} : { paceFor: (c) => ({ ...defaultPace(c), chordDelayMs: 0 }) });
  let menuMode = 0;
  let missing = 0;
  try {
    for (let i = 0; i < TRIALS; i++) {
      killApps('[n]otepad.exe');
      if ((await core.runSkill({ skill: 'TextEditor.new_document', app: 'wine-notepad' })).status !== 'succeeded')
        throw new Error('Wine Notepad did not start');
      await core.runSkill({ skill: 'TextEditor.type_text', app: 'wine-notepad', args: { text: 'x' } });
      await desktop.input.hotkey(['Alt', 'F4']);
      await new Promise((r) => setTimeout(r, 1500));
      const main = (await desktop.windows.list()).find((w) => w.title === 'Untitled - Notepad');
      if (!main) {
        missing++;
        continue;
      }
      if (menuTitleHighlighted(decodePng((await desktop.screen.capture()).png), main.bounds)) menuMode++;
    }
  } finally {
    await desktop.close();
  }
  return { variant, trials: TRIALS, menuMode, rate: Math.round((menuMode / TRIALS) * 1000) / 1000, noWindow: missing };
}

async function main() {
  if (!process.env.DISPLAY) throw new Error('DISPLAY is not set: use `npm run bench -- wine-shortcuts`');
  const core = await createNodeCore({ dataDir: mkdtempSync(join(tmpdir(), 'skilldesk-bench-shortcuts-')), interactive: false });
  try {
    const variants = [await trial('at_once', core), await trial('paced', core)];
    console.log(
      JSON.stringify(
        {
          benchmark: 'wine-shortcuts',
          date: new Date().toISOString(),
          shortcut: 'Alt+F4 on modified Wine Notepad',
          chordDelayMs: defaultPace('notepad.exe.Notepad.exe').chordDelayMs,
          variants,
        },
        null,
        2,
      ),
    );
  } finally {
    killApps('[n]otepad.exe');
    core.close();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
