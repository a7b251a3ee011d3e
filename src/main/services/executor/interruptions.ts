import type { Desktop, WindowInfo } from '../../../shared/ports/desktop';
import type { AppDoc, Primitive } from '../../../shared/skill';
import { windowBelongsToApp } from './appWindows';
import type { FrameApp } from './PrimitiveRunner';

export type Interruption = AppDoc['interruptions'][number];

/** The app's windows that may be one of its known interruptions (by title), with the interruption. */
export async function interruptionCandidates(
  desktop: Desktop,
  app: FrameApp,
): Promise<{ interruption: Interruption; window: WindowInfo }[]> {
  if (app.profile.interruptions.length === 0) return [];
  const wins = (await desktop.windows.list()).filter((w) => windowBelongsToApp(w, app.profile.windows));
  return app.profile.interruptions.flatMap((interruption) => {
    const re = new RegExp(interruption.title, 'u');
    return wins.filter((w) => re.test(w.title)).map((window) => ({ interruption, window }));
  });
}

/** The steps that answer an interruption: focus its window, then its keys, each an ordinary primitive. */
export function answerSteps(interruption: Interruption): Primitive[] {
  return [
    { action: 'focus_window', title: interruption.title },
    ...interruption.keys.map((keys): Primitive => (keys.length === 1 ? { action: 'key', key: keys[0]! } : { action: 'hotkey', keys })),
  ];
}
