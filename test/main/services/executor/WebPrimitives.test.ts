import { describe, expect, it } from 'vitest';
import { MemoryAuditSink, PolicyMediator } from '../../../../src/main/services/permissions';
import { SkillDeskError } from '../../../../src/shared/errors';
import { PermissionSession, defaultWorkspacePolicy } from '../../../../src/shared/permissions';
import type { BrowserPage, BrowserSession, Locator, PageRequest, RequestGuard } from '../../../../src/shared/ports/browser';
import type { SkillLibrary } from '../../../../src/shared/skill';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop } from '../../../helpers/fakeDesktop';

const ORIGIN = 'http://127.0.0.1:8101';

/**
 * A browser as the adapter behaves: every navigation and every form post asks the guard first,
 * and a refused one is not sent. "Place order" posts to /orders, then the page is at /done.
 */
class FakeBrowser implements BrowserSession {
  guard?: RequestGuard;
  opened = 0;
  readonly sent: string[] = [];
  private url = 'about:blank';
  setRequestGuard(guard: RequestGuard | undefined): void {
    this.guard = guard;
  }
  async close(): Promise<void> {}
  async page(): Promise<BrowserPage> {
    this.opened++;
    const ask = async (r: Omit<PageRequest, 'documentUrl'>) => {
      const verdict = this.guard ? await this.guard({ ...r, documentUrl: this.url }) : { allow: false as const, reason: 'no guard' };
      if (verdict.allow) this.sent.push(`${r.method} ${r.url}`);
      return verdict.allow;
    };
    const idle = async () => {};
    return {
      navigate: async (url) => {
        if (!(await ask({ url, method: 'GET', navigation: true, mainFrame: true })))
          throw new SkillDeskError('web.blocked', `not opened: ${url}`);
        this.url = url;
      },
      click: async (l: Locator) => {
        if (!('role' in l) || l.name !== 'Place order') return;
        const origin = new URL(this.url).origin;
        if (await ask({ url: `${origin}/orders`, method: 'POST', navigation: true, mainFrame: true })) this.url = `${origin}/done`;
      },
      fill: idle,
      press: idle,
      select: idle,
      check: idle,
      waitForUrl: async (pattern) => {
        if (!pattern.test(this.url))
          throw new SkillDeskError('web.timeout', `The page did not reach ${String(pattern)}; it shows ${this.url}`);
      },
      waitFor: idle,
      read: async (what) => (what.source === 'url' ? this.url : 'text'),
      url: () => this.url,
      screenshot: async () => new Uint8Array(),
    };
  }
}

const SHOP = `
kind: app
id: shop
name: Shop
platforms: [web]
web: { base_url: '${ORIGIN}', base_url_env: SHOP_URL }
`;
const ORDER = (id: string, post: string) => `
kind: skill
id: shop.${id}
app: shop
description: Orders what is in the cart.
intents: [place the order]
permissions:
  - { capability: web.navigate, effect: allow, constraints: { urls: ['\${site}/'] } }
${post}
graph:
  start: open
  nodes:
    open: { action: web_navigate, url: /checkout, next: place }
    place: { action: web_click, locator: { role: button, name: Place order }, next: placed }
    placed: { action: web_wait, url: '/done$', next: done }
    done: { terminal: success }
`;
const LEAVE = `
kind: skill
id: shop.leave
app: shop
description: Goes elsewhere.
intents: [go elsewhere]
permissions:
  - { capability: web.navigate, effect: allow, constraints: { urls: ['\${site}/'] } }
graph:
  start: go
  nodes:
    go: { action: web_navigate, url: 'https://elsewhere.example/', next: done }
    done: { terminal: success }
`;

function setup(o: { env?: Record<string, string>; browser?: FakeBrowser | null } = {}) {
  const library: SkillLibrary = libraryOf(
    SHOP,
    ORDER('order', "  - { capability: web.post, effect: allow, constraints: { urls: ['${site}/orders'] } }"),
    ORDER('order_unposted', ''),
    LEAVE,
  );
  const audit = new MemoryAuditSink();
  const env = o.env ?? {};
  const mediator = new PolicyMediator({
    library,
    session: new PermissionSession(defaultWorkspacePolicy(), { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 }),
    prompter: { ask: async () => ({ answer: 'deny', by: 'no_user' }) },
    audit,
    env,
  });
  const browser = o.browser === null ? undefined : (o.browser ?? new FakeBrowser());
  const executor = testExecutor({
    library,
    desktop: fakeDesktop().desktop,
    mediator,
    env,
    ...(browser && { browser: async () => browser }),
  });
  return { executor, audit, browser };
}

describe('src/main/services/executor/WebPrimitives', () => {
  it('runs a web skill on its site, each request its page sends mediated and audited on behalf of the step', async () => {
    const { executor, audit, browser } = setup();
    const r = await executor.run({ skill: 'shop.order' });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(browser!.sent).toEqual([`GET ${ORIGIN}/checkout`, `POST ${ORIGIN}/orders`]);
    expect(audit.records.map((a) => `${a.nodeId} ${a.capability} ${a.target} ${a.decision}`)).toEqual([
      `open web.navigate ${ORIGIN}/checkout allow`,
      `open (request) web.navigate ${ORIGIN}/checkout allow`,
      `place web.navigate ${ORIGIN}/ allow`,
      `place (request) web.post ${ORIGIN}/orders allow`,
      `placed web.navigate ${ORIGIN}/ allow`,
    ]);
    // The run is over: whatever the page sends now is nobody's request (the browser aborts it).
    expect(browser!.guard).toBeUndefined();
  });

  it('aborts a POST the manifest does not allow, audits it, and fails the step as denied', async () => {
    const { executor, audit, browser } = setup();
    const r = await executor.run({ skill: 'shop.order_unposted' });
    expect(r.status).toBe('failed');
    expect(r.error).toMatchObject({ code: 'permission.denied', nodeId: 'place' });
    expect(r.error?.message).toMatch(
      new RegExp(
        `^web\\.post on ${ORIGIN}/orders was denied, and the request aborted \\(a POST request the page sent; step \`place\` of \`shop\\.order_unposted\`\\): no entry allows web\\.post`,
      ),
    );
    expect(r.steps.map((s) => `${s.nodeId} ${s.outcome}`)).toEqual(['open ok', 'place denied']);
    expect(browser!.sent).toEqual([`GET ${ORIGIN}/checkout`]);
    expect(audit.records.filter((a) => a.decision === 'deny')).toEqual([
      expect.objectContaining({
        skillId: 'shop.order_unposted',
        nodeId: 'place (request)',
        capability: 'web.post',
        target: `${ORIGIN}/orders`,
      }),
    ]);
  });

  it('denies a navigation to another host before anything is opened', async () => {
    const { executor, audit, browser } = setup();
    const r = await executor.run({ skill: 'shop.leave' });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('permission.denied');
    expect(r.error?.message).toMatch(/https:\/\/elsewhere\.example\/ is not in the allowlist \$\{site\}\//);
    expect(browser!.opened).toBe(0);
    expect(audit.records).toEqual([
      expect.objectContaining({ capability: 'web.navigate', target: 'https://elsewhere.example/', decision: 'deny' }),
    ]);
  });

  it("resolves the site from the profile's environment variable, and scopes `${site}` to it", async () => {
    const { executor, browser } = setup({ env: { SHOP_URL: 'http://127.0.0.1:40999' } });
    const r = await executor.run({ skill: 'shop.order' });
    expect(r.status).toBe('succeeded');
    expect(browser!.sent).toEqual(['GET http://127.0.0.1:40999/checkout', 'POST http://127.0.0.1:40999/orders']);
  });

  it('fails a web step with no browser configured, saying what is missing', async () => {
    const { executor } = setup({ browser: null });
    const r = await executor.run({ skill: 'shop.order' });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('browser.unavailable');
    expect(r.error?.message).toMatch(/^`web_navigate` drives a web page, and this SkillDesk has no browser configured/);
  });

  it('records web steps in a dry run without opening the browser', async () => {
    const { executor, browser } = setup();
    const r = await executor.run({ skill: 'shop.order', dryRun: true });
    expect(r.status).toBe('succeeded');
    expect(r.steps.map((s) => `${s.nodeId} ${s.primitive}`)).toEqual(['open web_navigate', 'place web_click', 'placed web_wait']);
    expect(browser!.opened).toBe(0);
  });
});
