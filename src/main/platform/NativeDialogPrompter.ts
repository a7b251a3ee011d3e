import { type BrowserWindow, dialog } from 'electron';
import { formatPromptText } from '../../shared/permissions/promptText';
import type { PermissionPrompt, PermissionPrompter, PromptResult } from '../../shared/ports/prompter';

/**
 * Asks permission questions with a native dialog (Electron). A message box cannot be closed
 * from code, so on timeout or abort the result is a deny and a late click is ignored.
 */
export class NativeDialogPrompter implements PermissionPrompter {
  constructor(private readonly window: () => BrowserWindow | undefined) {}

  ask(p: PermissionPrompt, signal?: AbortSignal): Promise<PromptResult> {
    if (signal?.aborted) return Promise.resolve({ answer: 'deny', by: 'cancelled' });
    const win = this.window();
    const text = formatPromptText(p);
    const options: Electron.MessageBoxOptions = {
      type: 'warning',
      title: 'SkillDesk: allow this step?',
      // The message is one line; the detail shows the whole target, escaped, and labels the skill's own text.
      message: text.headline,
      detail: text.body,
      buttons: ['Allow once', 'Allow for this session', 'Deny'],
      defaultId: 2,
      cancelId: 2,
      noLink: true,
    };
    const shown = win && !win.isDestroyed() ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options);
    return new Promise<PromptResult>((resolve) => {
      const timer = setTimeout(() => resolve({ answer: 'deny', by: 'timeout' }), p.timeoutMs);
      signal?.addEventListener('abort', () => resolve({ answer: 'deny', by: 'cancelled' }), { once: true });
      void shown.then((r) => {
        clearTimeout(timer);
        resolve({ answer: r.response === 0 ? 'allow_once' : r.response === 1 ? 'allow_session' : 'deny', by: 'user' });
      });
    });
  }
}
