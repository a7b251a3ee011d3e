import type { Desktop, WindowInfo } from '../../../shared/ports/desktop';
import type { Grounder } from '../../../shared/ports/grounding';
import { windowBelongsToApp } from './appWindows';
import { StepFailure } from './errors';
import { InterruptionShown, windowShows } from './interruptions';
import type { FrameApp, RunWorld } from './PrimitiveRunner';
import type { Clock } from './types';

/**
 * How long a dialog nobody expects may stay before the wait it interrupts fails: long enough for a
 * passing box (a progress note) to close on its own, far shorter than any wait's timeout.
 */
export const STRAY_DIALOG_MS = 1500;

/** How long reading the dialog's text for the error may take; past it the error goes without. */
const READ_TEXT_MS = 8000;

/**
 * Watches a wait for a dialog of its app that nobody expects: one that came up during the run
 * (not there when it began, not focused, waited for or looked at by title since), is not what
 * the wait is for, and is none of the app's known interruptions. Such a dialog (an error box, a
 * question the skill does not know) holds the app, so the wait would only run out: once it has
 * stayed STRAY_DIALOG_MS, the step fails at once, naming the dialog and quoting its text (OCR).
 * The executor adds the screenshot of the failed step.
 */
export class StrayDialogWatch {
  private readonly firstSeen = new Map<string, number>();

  constructor(
    private readonly deps: { desktop: Desktop; grounder?: Grounder | undefined; clock: Clock },
    private readonly app: FrameApp,
    private readonly world: RunWorld,
    /** A window the wait is for (its title matches what it waits on). */
    private readonly expected: (w: WindowInfo) => boolean,
    /** What the step waited for, for the message. */
    private readonly waitingFor: string,
  ) {}

  /**
   * Throws once a stray dialog has stayed long enough: `InterruptionShown` for one of the app's
   * known interruptions (the executor answers it and waits again), else `dialog.unexpected`.
   */
  async check(): Promise<void> {
    const now = this.deps.clock.now();
    const strays = (await this.deps.desktop.windows.list()).filter((w) => this.isStray(w));
    for (const id of [...this.firstSeen.keys()]) if (!strays.some((w) => w.id === id)) this.firstSeen.delete(id);
    for (const w of strays) {
      const since = this.firstSeen.get(w.id) ?? now;
      this.firstSeen.set(w.id, since);
      if (now - since >= STRAY_DIALOG_MS) throw await this.failure(w);
    }
  }

  private isStray(w: WindowInfo): boolean {
    const { world, app } = this;
    if (!w.dialog || world.initialWindowIds.has(w.id) || world.seenWindowIds.has(w.id) || world.lookedAtWindowIds.has(w.id)) return false;
    return windowBelongsToApp(w, app.profile.windows) && !this.expected(w);
  }

  /** One of the app's known interruptions (its answer is in the profile): the executor answers it; anything else fails the wait. */
  private async failure(w: WindowInfo): Promise<Error> {
    if (await this.isInterruption(w)) return new InterruptionShown(w);
    const text = await this.readText(w);
    return new StepFailure(
      'dialog.unexpected',
      `\`${this.app.id}\` shows a dialog this skill does not expect, "${w.title}"${
        text ? `, which reads: ${JSON.stringify(text)}` : ''
      }, while waiting for ${this.waitingFor.charAt(0).toLowerCase()}${this.waitingFor.slice(1)}. Answer or close it, then run the skill again.`,
    );
  }

  /** Whether the dialog is one of the app's interruptions: its title, and its text when the profile gives one. */
  private async isInterruption(w: WindowInfo): Promise<boolean> {
    for (const i of this.app.profile.interruptions) {
      if (!new RegExp(i.title, 'u').test(w.title)) continue;
      if (i.text === undefined || (await windowShows(this.deps.grounder, this.deps.desktop, w, i.text))) return true;
    }
    return false;
  }

  /** The dialog's text, as the grounder reads it (OCR of its window), within READ_TEXT_MS; '' when it cannot. */
  private async readText(w: WindowInfo): Promise<string> {
    const grounder = this.deps.grounder;
    if (!grounder?.readText) return '';
    const read = (async () => {
      const recapture = () => this.deps.desktop.screen.capture(w.bounds);
      const text = await grounder.readText!({ screenshot: await recapture(), recapture, window: w });
      return text
        .replace(/\s*\n\s*/g, ' / ')
        .trim()
        .slice(0, 400);
    })().catch(() => '');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((r) => (timer = setTimeout(() => r(''), READ_TEXT_MS)));
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
