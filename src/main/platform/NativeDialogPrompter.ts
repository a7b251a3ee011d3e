import { BrowserWindow, dialog } from 'electron';
import type { PromptOutcome, PromptQuestion } from '../bridge/PromptBroker';

/**
 * Asks permission questions with a native dialog (Electron). A dialog cannot be closed from
 * code, so on timeout or abort the answer is `timeout`/`deny` and the late click is ignored.
 */
export class NativeDialogPrompter {
  constructor(private readonly window: () => BrowserWindow | undefined, private readonly timeoutMs = 120_000) {}

  ask(q: PromptQuestion, signal?: AbortSignal): Promise<PromptOutcome> {
    const win = this.window();
    const options: Electron.MessageBoxOptions = {
      type: 'warning',
      title: 'SkillDesk: allow this step?',
      message: `${q.skillId} wants ${q.capability}${q.target ? ` on ${q.target}` : ''}`,
      detail: `${q.reason}\n\nPolicy: ${q.policySource}${q.nodeId ? `\nStep: ${q.nodeId}` : ''}\n\nA session grant never widens what the skill declares.`,
      buttons: ['Allow once', 'Allow for this session', 'Deny'],
      defaultId: 2,
      cancelId: 2,
      noLink: true,
    };
    const shown = win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options);
    return new Promise<PromptOutcome>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
      signal?.addEventListener('abort', () => resolve('deny'), { once: true });
      void shown.then((r) => {
        clearTimeout(timer);
        resolve(r.response === 0 ? 'allow_once' : r.response === 1 ? 'allow_session' : 'deny');
      });
    });
  }
}
