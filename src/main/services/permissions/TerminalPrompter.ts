import { createInterface } from 'node:readline';
import { formatPromptText } from '../../../shared/permissions/promptText';
import type { PermissionPrompt, PermissionPrompter, PromptResult } from '../../../shared/ports/prompter';

/**
 * The CLI's prompter: asks on the terminal (readline) when stdin and stdout are TTYs. Without
 * a TTY (CI, pipes) or without an answer before the timeout, the answer is deny.
 */
export class TerminalPrompter implements PermissionPrompter {
  constructor(
    private readonly io: { input: NodeJS.ReadableStream & { isTTY?: boolean }; output: NodeJS.WritableStream & { isTTY?: boolean } } = {
      input: process.stdin,
      output: process.stderr,
    },
  ) {}

  async ask(prompt: PermissionPrompt, signal?: AbortSignal): Promise<PromptResult> {
    if (!this.io.input.isTTY || !this.io.output.isTTY) return { answer: 'deny', by: 'no_user' };
    if (signal?.aborted) return { answer: 'deny', by: 'cancelled' };
    const rl = createInterface({ input: this.io.input, output: this.io.output, terminal: true });
    this.io.output.write(`${formatPrompt(prompt)}\n`);
    return new Promise<PromptResult>((resolve) => {
      let done = false;
      const finish = (r: PromptResult) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        rl.close();
        resolve(r);
      };
      const timer = setTimeout(() => {
        this.io.output.write('\n(no answer: denied)\n');
        finish({ answer: 'deny', by: 'timeout' });
      }, prompt.timeoutMs);
      const onAbort = () => finish({ answer: 'deny', by: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.on('close', () => finish({ answer: 'deny', by: 'cancelled' }));
      const askLine = () =>
        rl.question('[o]nce / [s]ession / [d]eny (default deny): ', (line) => {
          const a = parseAnswer(line);
          if (a) finish({ answer: a, by: 'user' });
          else askLine();
        });
      askLine();
    });
  }
}

/** `o`/`once`, `s`/`session`, `d`/`deny`/empty; undefined for anything else (ask again). */
export function parseAnswer(line: string): PromptResult['answer'] | undefined {
  const a = line.trim().toLowerCase();
  if (a === 'o' || a === 'once' || a === 'allow once') return 'allow_once';
  if (a === 's' || a === 'session' || a === 'allow session') return 'allow_session';
  if (a === '' || a === 'd' || a === 'deny' || a === 'n' || a === 'no') return 'deny';
  return undefined;
}

/**
 * The text shown for a prompt: who asks for what, the whole target (escaped, never cut), the
 * skill's own message under its label, and which entry asked (`formatPromptText`).
 */
export function formatPrompt(p: PermissionPrompt): string {
  const { headline, body } = formatPromptText(p);
  return [`Permission needed: ${headline}`, ...body.split('\n').map((l) => `  ${l}`)].join('\n');
}
