import { SkillDeskError, assertNever } from '../../../shared/errors';
import { requestNeed } from '../../../shared/permissions/webRequests';
import type { BrowserPage, BrowserSession, PageRead, PageRequest, RequestVerdict } from '../../../shared/ports/browser';
import type { ActionMediator, MediationDecision } from '../../../shared/ports/mediation';
import {
  checkedValue,
  describeLocator,
  isWebAction,
  resolveSiteUrl,
  siteOrigin,
  type ArgValues,
  type Primitive,
  type Skill,
  type WebExpect,
  type WebPrimitiveAction,
} from '../../../shared/skill';
import { RecordingPage } from '../browser/RecordingBrowser';
import { PermissionDenied, RunAborted, StepFailure } from './errors';
import type { FrameApp } from './PrimitiveRunner';

/** A step on the page of SkillDesk's browser. */
export type WebPrimitive = Extract<Primitive, { action: WebPrimitiveAction }>;

/** Whether a primitive is a web step (run here, not on the desktop). */
export function isWebPrimitive(p: Primitive): p is WebPrimitive {
  return isWebAction(p.action);
}

/** The step a web primitive runs for: what its page sends is asked for on its behalf. */
export interface WebStep {
  skill: Skill;
  nodeId: string;
  /** The step's arguments and variables (bind `${arg}` in constraints). */
  args: ArgValues;
  /** The app the step addresses (binds `${app}` and, for a website, `${site}`). */
  app?: string;
  callChain: string[];
  /** The step as it runs (templates resolved). */
  primitive: Primitive;
}

export interface WebPrimitivesOptions {
  /** SkillDesk's browser, opened on the first web step; without it web steps fail, saying so. */
  browser?: () => Promise<BrowserSession>;
  mediator: ActionMediator;
  sessionId: string;
  runId: string;
  /** Dry run: a recording page, nothing opened, nothing sent. */
  dryRun: boolean;
  signal?: AbortSignal;
  /** Where a website's `base_url_env` is read. */
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
}

const DEFAULT_WAIT_MS = 10_000;

/**
 * Runs a run's web steps on the page of SkillDesk's browser, and mediates what that page sends:
 * while a step runs, every request its page makes is judged by the mediator on the step's behalf
 * (`requestNeed`: a form POST needs `web.post`, a navigation `web.navigate`, another origin's
 * resource `web.fetch`). A denied request is aborted in the browser, audited by the mediator, and
 * fails the step with `PermissionDenied`, naming the URL and the capability.
 */
export class WebPrimitives {
  private page?: Promise<BrowserPage>;
  private session?: BrowserSession;
  private step?: WebStep;
  private denial?: PermissionDenied;
  private onDenial?: () => void;

  constructor(private readonly o: WebPrimitivesOptions) {}

  /** The step about to run: what its page sends from now on is asked for on its behalf. */
  enter(step: WebStep): void {
    this.step = step;
  }

  /** The run is over: nothing its page sends from now on is anyone's request (it is aborted). */
  finish(): void {
    this.step = undefined;
    this.session?.setRequestGuard(undefined);
  }

  /** A PNG of the page, for a step's screenshot; undefined when the run has no page. */
  async screenshot(): Promise<Uint8Array | undefined> {
    if (!this.page || this.o.dryRun) return undefined;
    return (await this.page).screenshot();
  }

  /** Runs one web step (templates resolved, the step itself mediated). Returns what `web_read` reads. */
  async run(p: WebPrimitive, app: FrameApp | undefined): Promise<unknown> {
    const page = await this.pageFor(p.action);
    switch (p.action) {
      case 'web_navigate': {
        const url = resolveSiteUrl(p.url, this.siteOf(app));
        await this.guarded(() => page.navigate(url));
        return undefined;
      }
      case 'web_click':
        await this.guarded(() => page.click(p.locator));
        if (p.expect) await this.wait(page, p.expect, `The click on ${describeLocator(p.locator)} had no effect: `);
        return undefined;
      case 'web_fill':
        await this.guarded(() => page.fill(p.locator, p.text));
        return undefined;
      case 'web_press':
        await this.guarded(() => page.press(p.key, p.locator));
        return undefined;
      case 'web_select':
        await this.guarded(() => page.select(p.locator, p.value));
        return undefined;
      case 'web_check': {
        const checked = checkedValue(p.checked);
        if (checked === undefined)
          throw new StepFailure('primitive.bad_checked', `Expected \`checked\` to be true or false, got \`${String(p.checked)}\``);
        await this.guarded(() => page.check(p.locator, checked));
        return undefined;
      }
      case 'web_wait':
        await this.wait(page, p);
        return undefined;
      case 'web_read':
        return this.read(page, p);
      default:
        return assertNever(p, 'web primitive');
    }
  }

  private async read(page: BrowserPage, p: Extract<WebPrimitive, { action: 'web_read' }>): Promise<string> {
    const source = p.source ?? 'text';
    const what: PageRead =
      source === 'url' || source === 'title'
        ? { source }
        : source === 'attribute'
          ? { source, locator: p.locator!, attribute: p.attribute! }
          : { source, locator: p.locator! };
    const value = await this.guarded(() => page.read(what));
    if (!p.extract) return value;
    const m = regex(p.extract, 'extract').exec(value);
    if (m) return m[1] ?? m[0];
    // A dry run's page shows nothing: what a read would find cannot be told.
    if (this.o.dryRun) return '';
    throw new StepFailure(
      'read.no_match',
      `Read ${JSON.stringify(value.slice(0, 80))} (${source}${p.locator ? ` of ${describeLocator(p.locator)}` : ''}), which does not match /${p.extract}/`,
    );
  }

  /** Waits for a URL and/or an element's state, within one bound. */
  private async wait(page: BrowserPage, w: WebExpect, failure = ''): Promise<void> {
    const deadline = this.o.now() + (w.timeoutMs ?? DEFAULT_WAIT_MS);
    const left = () => ({ timeoutMs: Math.max(1, deadline - this.o.now()) });
    try {
      if (w.url !== undefined) {
        const url = regex(w.url, 'url');
        await this.guarded(() => page.waitForUrl(url, left()));
      }
      const locator = w.locator;
      if (locator) await this.guarded(() => page.waitFor(locator, w.state ?? 'visible', left()));
    } catch (err) {
      if (!failure || !(err instanceof SkillDeskError) || err instanceof PermissionDenied || err instanceof RunAborted) throw err;
      throw new StepFailure('effect.missing', `${failure}${err.message}`);
    }
  }

  /** The run's page: a recording one for dry runs, else the browser's (opened, and guarded, on first use). */
  private pageFor(action: string): Promise<BrowserPage> {
    if (this.o.dryRun) return (this.page ??= Promise.resolve(new RecordingPage()));
    const open = this.o.browser;
    if (!open)
      throw new StepFailure(
        'browser.unavailable',
        `\`${action}\` drives a web page, and this SkillDesk has no browser configured (Chromium, launched or attached over CDP: see docs/skills.md, "Websites")`,
      );
    this.page ??= (async () => {
      const session = await open();
      session.setRequestGuard((request) => this.judge(request));
      this.session = session;
      return session.page();
    })();
    // A browser that failed to open is tried again at the next web step.
    this.page.catch(() => (this.page = undefined));
    return this.page;
  }

  /** The origin of the website `app` is, against which relative URLs resolve. */
  private siteOf(app: FrameApp | undefined): string | undefined {
    return app?.profile.web ? siteOrigin(app.profile.web, this.o.env) : undefined;
  }

  /** The request guard: each request the page sends, decided on behalf of the step running now. */
  private async judge(request: PageRequest): Promise<RequestVerdict> {
    const step = this.step;
    if (!step) return { allow: false, reason: 'no skill step is running, so nobody asked for this request' };
    const need = requestNeed(request);
    if (!need) return { allow: true };
    const decision: MediationDecision = this.o.mediator.checkEffect
      ? await this.o.mediator.checkEffect(
          {
            sessionId: this.o.sessionId,
            runId: this.o.runId,
            skill: step.skill,
            ...(step.app && { app: step.app }),
            nodeId: step.nodeId,
            primitive: step.primitive,
            args: step.args,
            callChain: step.callChain,
            need,
          },
          this.o.signal,
        )
      : { effect: 'deny', code: 'permission.unmediated', reason: 'this mediator cannot judge what a web page sends (fail closed)' };
    if (decision.effect === 'allow') return { allow: true };
    this.denial ??= new PermissionDenied(
      decision.code,
      `${need.capability} on ${request.url} was denied, and the request aborted (${need.detail}; step \`${step.nodeId}\` of \`${step.skill.id}\`): ${decision.reason}`,
    );
    this.onDenial?.();
    return { allow: false, reason: decision.reason };
  }

  /**
   * Runs a page operation; a request denied while it runs fails the step with that denial,
   * whatever the operation did (a click that posted a form resolves; its request did not go).
   */
  private async guarded<T>(op: () => Promise<T>): Promise<T> {
    if (this.denial) throw this.denial;
    if (this.o.signal?.aborted) throw new RunAborted();
    const denied = new Promise<undefined>((resolve) => (this.onDenial = () => resolve(undefined)));
    const signal = this.o.signal;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<undefined>((resolve) => {
      onAbort = () => resolve(undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const outcome = await Promise.race([
        op().then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
        denied,
        aborted,
      ]);
      if (this.denial) throw this.denial;
      if (!outcome || signal?.aborted) throw new RunAborted();
      if ('error' in outcome)
        throw outcome.error instanceof SkillDeskError
          ? outcome.error
          : new StepFailure('web.failed', outcome.error instanceof Error ? outcome.error.message : String(outcome.error));
      return outcome.value;
    } finally {
      this.onDenial = undefined;
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }
}

function regex(pattern: string, field: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch (err) {
    throw new StepFailure(
      'primitive.bad_regex',
      `\`${field}\` is not a valid regular expression once resolved (/${pattern}/): ${(err as Error).message}`,
    );
  }
}
