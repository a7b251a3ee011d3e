import type { BrowserPage, ElementState, Locator, PageRead } from '../../../shared/ports/browser';

/** One recorded page operation: `op` names it (`navigate`, `click`, `fill`...), the rest are its arguments. */
export interface RecordedPageCall {
  op: string;
  [arg: string]: unknown;
}

/**
 * A page that touches nothing and records every operation, for dry runs and tests: navigation
 * moves its URL, every wait holds at once, an element reads as empty text, the title as empty.
 */
export class RecordingPage implements BrowserPage {
  readonly calls: RecordedPageCall[] = [];
  private current = 'about:blank';

  async navigate(url: string): Promise<void> {
    this.calls.push({ op: 'navigate', url });
    this.current = url;
  }
  async click(locator: Locator): Promise<void> {
    this.calls.push({ op: 'click', locator });
  }
  async fill(locator: Locator, text: string): Promise<void> {
    this.calls.push({ op: 'fill', locator, text });
  }
  async press(key: string, locator?: Locator): Promise<void> {
    this.calls.push({ op: 'press', key, ...(locator && { locator }) });
  }
  async select(locator: Locator, value: string): Promise<void> {
    this.calls.push({ op: 'select', locator, value });
  }
  async check(locator: Locator, checked: boolean): Promise<void> {
    this.calls.push({ op: 'check', locator, checked });
  }
  async waitForUrl(pattern: RegExp): Promise<void> {
    this.calls.push({ op: 'wait_url', pattern: pattern.source });
  }
  async waitFor(locator: Locator, state: ElementState): Promise<void> {
    this.calls.push({ op: 'wait', locator, state });
  }
  async read(what: PageRead): Promise<string> {
    this.calls.push({ op: 'read', ...what });
    return what.source === 'url' ? this.current : '';
  }
  url(): string {
    return this.current;
  }
  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array();
  }
}
