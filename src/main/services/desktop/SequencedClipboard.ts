import type { Clipboard } from '../../../shared/ports/desktop';
import type { CopyAware } from './copies';

/** Options of SequencedClipboard. */
export interface SequencedClipboardOptions {
  /** Longest a read waits for a copy to land, counted from the shortcut (after long typing the app may still be taking keys). @default 5000 */
  copyTimeoutMs?: number;
  /** @default 10 */
  pollMs?: number;
}

/**
 * A clipboard whose contents carry a sequence number that changes on every change (Windows'
 * GetClipboardSequenceNumber): after a copy shortcut, the next read waits until the number moves,
 * so it returns what was just copied rather than what was there before. A copy with nothing to
 * copy changes nothing; the read then goes ahead once the copy has had its time.
 */
export class SequencedClipboard implements Clipboard, CopyAware {
  private copy: { sequence: number; at: number } | undefined;

  constructor(
    private readonly inner: Clipboard,
    private readonly sequence: () => number,
    private readonly o: SequencedClipboardOptions = {},
  ) {}

  async expectCopy(): Promise<void> {
    this.copy = { sequence: this.sequence(), at: Date.now() };
  }

  async readText(): Promise<string> {
    const copy = this.copy;
    this.copy = undefined;
    if (copy) {
      const deadline = copy.at + (this.o.copyTimeoutMs ?? 5000);
      while (this.sequence() === copy.sequence && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, this.o.pollMs ?? 10));
      }
    }
    return this.inner.readText();
  }

  async writeText(text: string): Promise<void> {
    this.copy = undefined;
    await this.inner.writeText(text);
  }
}
