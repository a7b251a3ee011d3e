import type { NutModule } from './nut';
import type { Clipboard } from '../../../shared/ports/desktop';

/** The clipboard through nut.js (clipboardy), for Windows and macOS; Unicode-safe there. */
export class NutClipboard implements Clipboard {
  constructor(private readonly nut: NutModule) {}

  readText(): Promise<string> {
    return this.nut.clipboard.getContent();
  }

  async writeText(text: string): Promise<void> {
    await this.nut.clipboard.setContent(text);
  }
}
