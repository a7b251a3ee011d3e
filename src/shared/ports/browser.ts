/**
 * The port through which web skills drive a browser page. Pure types: the adapter is
 * `src/main/services/browser/PlaywrightBrowser.ts` (system Chromium, or a Chromium SkillDesk
 * started, over CDP on 127.0.0.1), dry runs use a recording page, tests use fakes.
 *
 * Every request a page sends goes through a `RequestGuard` before it leaves the browser: that is
 * where web skills are mediated on their real effect (a form POST, a navigation to another host).
 */

/**
 * How a step finds one element, after Playwright's user-facing locators: by ARIA role and
 * accessible name, by the text of its label, by its text, by its placeholder, by `data-testid`,
 * or by a CSS selector (the last resort: markup changes more often than what a user reads).
 * `nth` picks one of several matches (0 the first, -1 the last); without it a locator matching
 * several elements is an error, never a guess.
 * @example { role: button, name: 'Place order' }
 * @example { label: Email, exact: true }
 */
export type Locator = (
  | {
      /** An ARIA role: `button`, `link`, `textbox`, `checkbox`, `heading`, `row`... */
      role: string;
      /** The accessible name (case-insensitive substring unless `exact`). */
      name?: string;
    }
  | { label: string }
  | { text: string }
  | { placeholder: string }
  | { test_id: string }
  | { selector: string }
) & {
  /** Names, labels, texts and placeholders match whole and case-sensitively. @default false */
  exact?: boolean;
  /** Which of several matches: 0 the first, -1 the last. @default the only one */
  nth?: number;
};

/** What a wait on an element waits for. */
export type ElementState = 'visible' | 'hidden' | 'attached' | 'detached';

/**
 * What a read of the page returns: an element's text (what a person reads, a form field's value
 * included), an input's value, an attribute; or, with no element, the page's URL or title.
 */
export type PageRead =
  | { source: 'text' | 'value'; locator: Locator }
  | { source: 'attribute'; locator: Locator; attribute: string }
  | { source: 'url' | 'title' };

/** Bounds of one page operation. */
export interface PageOptions {
  /** @default 10000 */
  timeoutMs?: number;
}

/** One browser tab, as skills drive it. Every locator must match exactly one element (or name `nth`). */
export interface BrowserPage {
  /** Opens an absolute URL and waits until the page has loaded. */
  navigate(url: string, o?: PageOptions): Promise<void>;
  click(locator: Locator, o?: PageOptions): Promise<void>;
  /** Replaces the content of a text field (input, textarea, contenteditable). */
  fill(locator: Locator, text: string, o?: PageOptions): Promise<void>;
  /** Presses a key or chord (`Enter`, `Control+a`, SkillDesk key names), in the element when given, else in the focused one. */
  press(key: string, locator?: Locator, o?: PageOptions): Promise<void>;
  /** Chooses the option of a `<select>` whose value or label is `value`. */
  select(locator: Locator, value: string, o?: PageOptions): Promise<void>;
  /** Checks or unchecks a checkbox or radio button (target state: nothing happens when it is already so). */
  check(locator: Locator, checked: boolean, o?: PageOptions): Promise<void>;
  /** Waits until the page's URL matches. */
  waitForUrl(pattern: RegExp, o?: PageOptions): Promise<void>;
  waitFor(locator: Locator, state: ElementState, o?: PageOptions): Promise<void>;
  read(what: PageRead, o?: PageOptions): Promise<string>;
  /** The URL the page shows now. */
  url(): string;
  /** A PNG of the viewport (failure screenshots). */
  screenshot(): Promise<Uint8Array>;
}

/** A request a page is about to send. */
export interface PageRequest {
  url: string;
  /** `GET`, `POST`... (upper case). */
  method: string;
  /** It loads a document into a frame (a link followed, a form submitted, a redirect committed). */
  navigation: boolean;
  /** It is for the tab's top-level document (not an iframe's, not a subresource). */
  mainFrame: boolean;
  /** URL of the document that sends it (the page a form or script is on); `about:blank` before the first load. */
  documentUrl: string;
  /**
   * A redirect the browser followed on its own, judged when the page commits to it: the request
   * has been made by then, so a denial leaves the page at once.
   */
  redirect?: boolean;
}

export type RequestVerdict = { allow: true } | { allow: false; reason: string };

/** Judges a request before it leaves the browser; a request it denies is aborted. */
export type RequestGuard = (request: PageRequest) => Promise<RequestVerdict>;

/** An element a person acted on, as the page describes it (for a locator the recorder chooses). */
export interface RecordedTarget {
  /** ARIA role (explicit, or implied by the tag: `button`, `link`, `textbox`, `checkbox`...). */
  role?: string;
  /** Accessible name: aria-label, the label of a field, a button's or link's text. */
  name?: string;
  /** The text of a form field's `<label>`. */
  label?: string;
  placeholder?: string;
  testId?: string;
  /** A CSS path that finds it (the last resort). */
  selector: string;
  /** When several elements share its role and name: how many, and which one it is (0-based). */
  count?: number;
  index?: number;
}

/** What a person did in the page during a demonstration (DOM events, in order). */
export type RecordedWebEvent = { at: number; url: string; title: string } & (
  | { type: 'navigate' }
  | { type: 'click'; target: RecordedTarget }
  | { type: 'fill'; target: RecordedTarget; value: string }
  | { type: 'select'; target: RecordedTarget; value: string }
  | { type: 'check'; target: RecordedTarget; checked: boolean }
  | { type: 'press'; key: string; target?: RecordedTarget }
);

/** A cookie as browsers hold it (what keeps a person signed in and a cart filled on a site). */
export interface BrowserCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/** One browser for a core: created on the first web step, closed with the core. */
export interface BrowserSession {
  /** Whether a person can see its window: false for a browser launched headless. @default true */
  readonly visible?: boolean;
  /** The cookies it holds, to carry into the browser that replaces it. */
  cookies?(): Promise<BrowserCookie[]>;
  /** The page skills drive (opened on first use, kept across runs). */
  page(): Promise<BrowserPage>;
  /**
   * Judges every request the browser's pages send from now on; `undefined` aborts them all
   * (no step is running, so nobody asked for them).
   */
  setRequestGuard(guard: RequestGuard | undefined): void;
  /**
   * Records what a person does in the page (clicks, fields filled, keys, navigations), each with
   * the element's role, name and label, until the returned function is called. Only browsers
   * that can watch their pages offer it.
   */
  record?(listener: (event: RecordedWebEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
