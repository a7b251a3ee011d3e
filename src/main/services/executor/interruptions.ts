import type { Desktop, WindowInfo } from '../../../shared/ports/desktop';
import type { Grounder } from '../../../shared/ports/grounding';
import type { AppDoc, Primitive } from '../../../shared/skill';
import { windowBelongsToApp } from './appWindows';
import type { FrameApp } from './PrimitiveRunner';

export type Interruption = AppDoc['interruptions'][number];

/**
 * The app's windows that may be one of its known interruptions (by title), with the interruption;
 * one that only counts while another is open (`while_open`) comes first, as the dialog in front.
 */
export async function interruptionCandidates(
  desktop: Desktop,
  app: FrameApp,
): Promise<{ interruption: Interruption; window: WindowInfo }[]> {
  if (app.profile.interruptions.length === 0) return [];
  const wins = (await desktop.windows.list()).filter((w) => windowBelongsToApp(w, app.profile.windows));
  const shown = new Map(
    app.profile.interruptions.map((i) => {
      const re = new RegExp(i.title, 'u');
      return [i.id, wins.filter((w) => re.test(w.title))] as const;
    }),
  );
  const isOpen = (id: string) => (shown.get(id)?.length ?? 0) > 0;
  return app.profile.interruptions
    .filter((i) => i.while_open === undefined || isOpen(i.while_open))
    .sort((a, b) => Number(b.while_open !== undefined) - Number(a.while_open !== undefined))
    .flatMap((interruption) => shown.get(interruption.id)!.map((window) => ({ interruption, window })));
}

/** The steps that answer an interruption: focus its window, then its keys, each an ordinary primitive. */
export function answerSteps(interruption: Interruption): Primitive[] {
  return [
    { action: 'focus_window', title: interruption.title },
    ...interruption.keys.map((keys): Primitive => (keys.length === 1 ? { action: 'key', key: keys[0]! } : { action: 'hotkey', keys })),
  ];
}

/** Letters and digits only, lower case: how a text is compared with what OCR read, wrapped over lines or not. */
const letters = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * Whether a window shows `text`: read whole (a question wraps over lines, "...did not end" /
 * "normally"), else found as a label on one line.
 */
export async function windowShows(grounder: Grounder | undefined, desktop: Desktop, window: WindowInfo, text: string): Promise<boolean> {
  if (!grounder) return false;
  const recapture = () => desktop.screen.capture(window.bounds);
  const screenshot = await recapture();
  const read = await grounder.readText?.({ screenshot, recapture, window }).catch(() => '');
  if (read && letters(read).includes(letters(text))) return true;
  const hit = await grounder.locate({ kind: 'text', text }, { screenshot, window }).catch(() => undefined);
  return hit?.found === true;
}

/** A known interruption came up while a step waited: the executor answers it and runs the step again. */
export class InterruptionShown extends Error {
  constructor(readonly window: WindowInfo) {
    super(`"${window.title}" came up`);
  }
}
