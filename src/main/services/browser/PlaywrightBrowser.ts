import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator as PwLocator, type Page, type Request, type Route } from 'playwright-core';
import { SkillDeskError } from '../../../shared/errors';
import type {
  BrowserCookie,
  BrowserPage,
  BrowserSession,
  ElementState,
  Locator,
  PageOptions,
  PageRead,
  PageRequest,
  RecordedWebEvent,
  RequestGuard,
} from '../../../shared/ports/browser';
import { describeLocator, splitChord } from '../../../shared/skill/webPrimitives';
import { loopbackCdpEndpoint } from './cdpEndpoint';
import { pageText } from './pageText';
import { RECORDER_BINDING, RECORDER_SCRIPT } from './recorderScript';

/** How SkillDesk gets its browser. */
export interface PlaywrightBrowserOptions {
  /**
   * Attach over the Chrome DevTools Protocol to a Chromium SkillDesk started with
   * `--remote-debugging-port` bound to 127.0.0.1, instead of launching one. Only loopback
   * endpoints are accepted (a debugging port is full control of the browser).
   * @example 'http://127.0.0.1:9222'
   */
  cdpEndpoint?: string;
  /** The Chromium to launch. @default `/usr/bin/chromium` on Linux */
  executablePath?: string;
  /** @default true */
  headless?: boolean;
  /** Default bound of each page operation. @default 10000 */
  timeoutMs?: number;
  /** Cookies to start with (those of the browser this one replaces). */
  cookies?: readonly BrowserCookie[];
}

/** The flags SkillDesk launches Chromium with: no background traffic of its own, nothing a profile would carry over. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

const DEFAULT_TIMEOUT_MS = 10_000;

/** The system Chromium of this platform, where SkillDesk looks when no path is configured. */
export function defaultChromiumPath(platform: NodeJS.Platform = process.platform): string | undefined {
  return platform === 'linux' ? '/usr/bin/chromium' : undefined;
}

/**
 * Opens SkillDesk's browser: attaches to `cdpEndpoint` when given, else launches the system
 * Chromium with a fresh profile folder (removed on close).
 */
export async function openPlaywrightBrowser(o: PlaywrightBrowserOptions = {}): Promise<BrowserSession> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (o.cdpEndpoint !== undefined) {
    const endpoint = loopbackCdpEndpoint(o.cdpEndpoint);
    const browser = await chromium.connectOverCDP(endpoint).catch((err: unknown) => {
      throw new SkillDeskError('browser.attach_failed', `Could not attach to the browser at ${endpoint}: ${firstLine(err)}`);
    });
    const context = browser.contexts()[0] ?? (await browser.newContext());
    // Disconnecting leaves the browser running: SkillDesk started it, and whoever did closes it.
    return new PlaywrightSession(context, timeoutMs, () => browser.close(), true);
  }
  const executablePath = o.executablePath ?? defaultChromiumPath();
  if (!executablePath || !existsSync(executablePath))
    throw new SkillDeskError(
      'browser.not_found',
      `Chromium not found${executablePath ? ` at ${executablePath}` : ''}: web skills need it (on Debian: \`apt-get install chromium\`), or give its path (\`executablePath\`), or attach to one started with --remote-debugging-port (\`cdpEndpoint\`)`,
    );
  const profile = await mkdtemp(join(tmpdir(), 'skilldesk-browser-'));
  const headless = o.headless ?? true;
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless,
      args: [...CHROMIUM_FLAGS],
      // Every request must reach the guard: a service worker would answer some itself.
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    if (o.cookies?.length) await context.addCookies([...o.cookies]);
    return new PlaywrightSession(
      context,
      timeoutMs,
      async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      },
      !headless,
    );
  } catch (err) {
    await rm(profile, { recursive: true, force: true });
    throw err instanceof SkillDeskError
      ? err
      : new SkillDeskError('browser.launch_failed', `Could not start ${executablePath}: ${firstLine(err)}`);
  }
}

/** One browser context: every request its pages send passes the guard first. */
class PlaywrightSession implements BrowserSession {
  private guard: RequestGuard | undefined;
  private recorderInstalled = false;
  private recordListener: ((event: RecordedWebEvent) => void) | undefined;
  private pagePromise?: Promise<PlaywrightPage>;
  private readonly routed: Promise<void>;

  constructor(
    private readonly context: BrowserContext,
    private readonly timeoutMs: number,
    private readonly release: () => Promise<void>,
    readonly visible: boolean,
  ) {
    this.routed = Promise.all([
      context.route('**/*', (route) => this.judge(route)),
      // A WebSocket sends data as it likes: it is judged as a post to its URL.
      context.routeWebSocket(/.*/, async (ws) => {
        const verdict = await this.ask({ url: ws.url(), method: 'WEBSOCKET', navigation: false, mainFrame: false, documentUrl: '' });
        if (verdict.allow) ws.connectToServer();
        else await ws.close({ code: 1008, reason: 'refused by SkillDesk' });
      }),
    ]).then(() => undefined);
    // Chromium follows redirects itself, past the route: each hop is judged when it is issued.
    context.on('request', (request) => void this.judgeRedirect(request));
    // A session closed before its routes are in place (opened and closed at once) rejects them:
    // the page that waits for them gets the error; nobody else has to.
    this.routed.catch(() => undefined);
  }

  setRequestGuard(guard: RequestGuard | undefined): void {
    this.guard = guard;
  }

  page(): Promise<PlaywrightPage> {
    this.pagePromise ??= (async () => {
      await this.routed;
      const page = this.context.pages()[0] ?? (await this.context.newPage());
      page.setDefaultTimeout(this.timeoutMs);
      page.setDefaultNavigationTimeout(this.timeoutMs);
      return new PlaywrightPage(page, this.timeoutMs);
    })();
    return this.pagePromise;
  }

  async record(listener: (event: RecordedWebEvent) => void): Promise<() => Promise<void>> {
    let on = true;
    this.recordListener = (e) => {
      if (on) listener(e);
    };
    if (!this.recorderInstalled) {
      this.recorderInstalled = true;
      // The binding and the script stay for the context's life; a stopped recording ignores them.
      await this.context.exposeBinding(RECORDER_BINDING, (_source, event: RecordedWebEvent) => this.recordListener?.(event));
      await this.context.addInitScript(RECORDER_SCRIPT);
      const page = await this.page();
      await page.raw.evaluate(RECORDER_SCRIPT).catch(() => undefined);
      // A new document in the tab that no event of the page explains: a navigation of the person's own (the address bar).
      page.raw.on('framenavigated', (frame) => {
        if (frame !== page.raw.mainFrame()) return;
        // The recording under way when the page changed: a navigation before `record` started
        // (the page a demonstration starts on) is not one of its steps, however late its title comes.
        const listener = this.recordListener;
        const at = Date.now();
        const url = frame.url();
        void frame
          .title()
          .catch(() => '')
          .then((title) => listener?.({ at, url, title, type: 'navigate' }));
      });
    }
    return async () => {
      on = false;
    };
  }

  async cookies(): Promise<BrowserCookie[]> {
    return this.context.cookies();
  }

  async close(): Promise<void> {
    this.guard = undefined;
    await this.release();
  }

  private ask(request: PageRequest) {
    const guard = this.guard;
    return guard ? guard(request).catch((err: unknown) => ({ allow: false as const, reason: firstLine(err) })) : NOBODY_ASKED;
  }

  private async judge(route: Route): Promise<void> {
    const request = describeRequest(route.request());
    const verdict = await this.ask(request);
    if (verdict.allow) return route.continue();
    // A refused page is answered here, never sent: the tab says why (an aborted navigation would
    // show Chromium's error page, whose late arrival cuts the next navigation short).
    if (request.navigation && request.mainFrame)
      return route.fulfill({
        status: 403,
        contentType: 'text/html; charset=utf-8',
        headers: { [BLOCKED_HEADER]: encodeURIComponent(verdict.reason) },
        body: blockedPage(request.url, verdict.reason),
      });
    return route.abort('blockedbyclient');
  }

  private async judgeRedirect(request: Request): Promise<void> {
    if (!request.redirectedFrom()) return;
    const verdict = await this.ask({ ...describeRequest(request), redirect: true });
    if (verdict.allow) return;
    // Too late to stop the request; not too late to stop showing what it brings.
    const frame = request.frame();
    if (request.isNavigationRequest() && frame === frame.page().mainFrame())
      await frame
        .page()
        .goto('about:blank')
        .catch(() => undefined);
  }
}

/** Marks the page SkillDesk shows in place of a navigation it refused (the reason, URI-encoded). */
const BLOCKED_HEADER = 'x-skilldesk-blocked';

function blockedPage(url: string, reason: string): string {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Not opened by SkillDesk</title></head><body style="font:15px system-ui;margin:40px"><h1>SkillDesk did not send this request</h1><p><code>${escape(url)}</code></p><p>${escape(reason)}</p></body></html>`;
}

const NOBODY_ASKED = Promise.resolve({ allow: false as const, reason: 'no skill step is running, so nobody asked for this request' });

function describeRequest(request: Request): PageRequest {
  let frameUrl = '';
  let mainFrame = false;
  try {
    const frame = request.frame();
    frameUrl = frame.url();
    mainFrame = frame === frame.page().mainFrame();
  } catch {
    // A service-worker request has no frame (they are blocked, but judge it as a resource).
  }
  return { url: request.url(), method: request.method(), navigation: request.isNavigationRequest(), mainFrame, documentUrl: frameUrl };
}

/** One tab, driven through Playwright's user-facing locators. */
class PlaywrightPage implements BrowserPage {
  constructor(
    private readonly page: Page,
    private readonly timeoutMs: number,
  ) {}

  /** The Playwright page itself, for the recorder of this module. */
  get raw(): Page {
    return this.page;
  }

  async navigate(url: string, o: PageOptions = {}): Promise<void> {
    const response = await this.act(`open ${url}`, () => this.page.goto(url, { waitUntil: 'load', timeout: this.timeout(o) }));
    const blocked = response?.headers()[BLOCKED_HEADER];
    if (blocked !== undefined) throw new SkillDeskError('web.blocked', `SkillDesk did not open ${url}: ${decodeURIComponent(blocked)}`);
  }

  async click(l: Locator, o: PageOptions = {}): Promise<void> {
    await this.act(`click ${describeLocator(l)}`, () => this.locate(l).click({ timeout: this.timeout(o) }));
  }

  async fill(l: Locator, text: string, o: PageOptions = {}): Promise<void> {
    await this.act(`fill ${describeLocator(l)}`, () => this.locate(l).fill(text, { timeout: this.timeout(o) }));
  }

  async press(key: string, l?: Locator, o: PageOptions = {}): Promise<void> {
    const chord = playwrightChord(key);
    if (l) await this.act(`press ${key} in ${describeLocator(l)}`, () => this.locate(l).press(chord, { timeout: this.timeout(o) }));
    else await this.act(`press ${key}`, () => this.page.keyboard.press(chord));
  }

  async select(l: Locator, value: string, o: PageOptions = {}): Promise<void> {
    await this.act(`choose "${value}" in ${describeLocator(l)}`, async () => {
      const select = this.locate(l);
      // The option's value first, else its label (a person picks by what the list shows).
      const values = await select.evaluate(
        (el, v) => Array.from((el as unknown as { options: { value: string }[] }).options, (x) => x.value).includes(v),
        value,
        {
          timeout: this.timeout(o),
        },
      );
      await select.selectOption(values ? { value } : { label: value }, { timeout: this.timeout(o) });
    });
  }

  async check(l: Locator, checked: boolean, o: PageOptions = {}): Promise<void> {
    await this.act(`${checked ? 'check' : 'uncheck'} ${describeLocator(l)}`, () =>
      this.locate(l).setChecked(checked, { timeout: this.timeout(o) }),
    );
  }

  async waitForUrl(pattern: RegExp, o: PageOptions = {}): Promise<void> {
    const timeout = this.timeout(o);
    await this.page.waitForURL(pattern, { timeout, waitUntil: 'load' }).catch((err: unknown) => {
      throw new SkillDeskError(
        isTimeout(err) ? 'web.timeout' : 'web.failed',
        isTimeout(err)
          ? `The page did not reach a URL matching ${String(pattern)} within ${timeout} ms; it shows ${this.page.url()}`
          : `Waiting for a URL matching ${String(pattern)}: ${firstLine(err)}`,
      );
    });
  }

  async waitFor(l: Locator, state: ElementState, o: PageOptions = {}): Promise<void> {
    const timeout = this.timeout(o);
    await this.locate(l)
      .waitFor({ state, timeout })
      .catch((err: unknown) => {
        throw new SkillDeskError(
          isTimeout(err) ? 'web.timeout' : 'web.failed',
          isTimeout(err)
            ? `${capitalise(describeLocator(l))} was not ${state} within ${timeout} ms on ${this.page.url()}`
            : `Waiting for ${describeLocator(l)} to be ${state}: ${firstLine(err)}`,
        );
      });
  }

  async read(what: PageRead, o: PageOptions = {}): Promise<string> {
    const timeout = this.timeout(o);
    switch (what.source) {
      case 'url':
        return this.page.url();
      case 'title':
        return this.page.title();
      case 'text':
        return this.act(`read the text of ${describeLocator(what.locator)}`, () =>
          this.locate(what.locator).evaluate(pageText, undefined, { timeout }),
        );
      case 'value':
        return this.act(`read the value of ${describeLocator(what.locator)}`, () => this.locate(what.locator).inputValue({ timeout }));
      case 'attribute':
        return this.act(
          `read ${what.attribute} of ${describeLocator(what.locator)}`,
          async () => (await this.locate(what.locator).getAttribute(what.attribute, { timeout })) ?? '',
        );
    }
  }

  url(): string {
    return this.page.url();
  }

  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array(await this.page.screenshot({ timeout: this.timeoutMs }));
  }

  private timeout(o: PageOptions): number {
    return o.timeoutMs ?? this.timeoutMs;
  }

  private locate(l: Locator): PwLocator {
    const exact = l.exact === undefined ? {} : { exact: l.exact };
    let found: PwLocator;
    if ('role' in l)
      found = this.page.getByRole(l.role as Parameters<Page['getByRole']>[0], { ...(l.name !== undefined && { name: l.name }), ...exact });
    else if ('label' in l) found = this.page.getByLabel(l.label, exact);
    else if ('text' in l) found = this.page.getByText(l.text, exact);
    else if ('placeholder' in l) found = this.page.getByPlaceholder(l.placeholder, exact);
    else if ('test_id' in l) found = this.page.getByTestId(l.test_id);
    else found = this.page.locator(l.selector);
    return l.nth === undefined ? found : found.nth(l.nth);
  }

  /** Runs a Playwright call; its error becomes one line saying what was being done and what it waited for. */
  private async act<T>(what: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      const waited = lastLogLine(err);
      throw new SkillDeskError(
        isTimeout(err) ? 'web.timeout' : 'web.failed',
        `Could not ${what} on ${this.page.url()}: ${firstLine(err)}${waited ? ` (last: ${waited})` : ''}`,
      );
    }
  }
}

/** SkillDesk key names (`Up`, `Super`, `Control+a`) as Playwright's (`ArrowUp`, `Meta`, `Control+a`). */
export function playwrightChord(key: string): string {
  const names: Record<string, string> = {
    Up: 'ArrowUp',
    Down: 'ArrowDown',
    Left: 'ArrowLeft',
    Right: 'ArrowRight',
    Super: 'Meta',
    Menu: 'ContextMenu',
    Space: ' ',
  };
  return splitChord(key)
    .map((k) => names[k] ?? k)
    .join('+');
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/** The first line of an error, without Playwright's `locator.click: ` prefix. */
function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? '').replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '');
}

// Playwright colours its call log for terminals.
// eslint-disable-next-line no-control-regex
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;

/** What Playwright was doing last (its call log), e.g. `waiting for getByRole('button', { name: 'Pay' })`. */
function lastLogLine(err: unknown): string | undefined {
  const log = (err as { log?: unknown }).log;
  if (!Array.isArray(log) || log.length === 0) return undefined;
  return (
    String(log.at(-1))
      .replace(ANSI_COLOURS, '')
      .replace(/^\s*-\s*/, '')
      .trim() || undefined
  );
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
