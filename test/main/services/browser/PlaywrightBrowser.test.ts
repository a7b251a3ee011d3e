import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, loopbackCdpEndpoint, openPlaywrightBrowser, playwrightChord } from '../../../../src/main/services/browser';
import type { BrowserSession, PageRequest, RequestVerdict } from '../../../../src/shared/ports/browser';
import { startSite, type RunningSite, type ShopState } from '../../../fixtures/sites/server';
import { requireChromium } from '../../../helpers/chromium';

let shop: RunningSite;
let devhub: RunningSite;
let session: BrowserSession | undefined;
/** What the guard was asked, and what it answers (allow all but what `deny` matches). */
const asked: PageRequest[] = [];
let deny: (r: PageRequest) => string | undefined = () => undefined;
const guard = async (r: PageRequest): Promise<RequestVerdict> => {
  asked.push(r);
  const reason = deny(r);
  return reason ? { allow: false, reason } : { allow: true };
};

beforeAll(async () => {
  [shop, devhub] = await Promise.all([startSite('shop-a'), startSite('devhub')]);
});
afterAll(async () => {
  await Promise.all([session?.close(), shop?.close(), devhub?.close()]);
});

/** The launched browser, opened inside a test so that a missing Chromium fails it. */
async function browser(): Promise<BrowserSession> {
  session ??= await openPlaywrightBrowser({ executablePath: requireChromium(), timeoutMs: 5000 });
  session.setRequestGuard(guard);
  return session;
}

describe('src/main/services/browser/PlaywrightBrowser', () => {
  it('drives a page by role, label and test id, and reads a form field as what it holds', { timeout: 60_000 }, async () => {
    shop.reset();
    const page = await (await browser()).page();
    await page.navigate(`${shop.url}/product/1`);
    await page.fill({ label: 'Quantity', exact: true }, '3');
    expect(await page.read({ source: 'value', locator: { role: 'spinbutton', name: 'Quantity' } })).toBe('3');
    // A person reads the box's 3 (innerText would not), and no button labels.
    const text = await page.read({ source: 'text', locator: { selector: 'main form' } });
    expect(text).toMatch(/^Quantity 3$/m);
    expect(text).not.toMatch(/Add to cart|Increase/);
    await page.click({ role: 'button', name: 'Add to cart', exact: true });
    await page.waitForUrl(/\/cart$/);
    expect(await page.read({ source: 'title' })).toMatch(/^Cart \(3\)/);
    expect(await page.read({ source: 'text', locator: { selector: 'main table tbody' } })).toMatch(/\t\$\d+\.\d\d\tQuantity for .* 3\t\$/);
    expect((shop.state() as ShopState).cart).toMatchObject([{ productId: '1', quantity: 3 }]);
    await expect(page.waitFor({ role: 'button', name: 'No such button' }, 'visible', { timeoutMs: 300 })).rejects.toThrow(
      /^Button "No such button" was not visible within 300 ms on http:\/\/127\.0\.0\.1:\d+\/cart$/,
    );
  });

  it(
    'asks the guard before every request: a denied POST never reaches the site, a denied navigation is not sent',
    { timeout: 60_000 },
    async () => {
      shop.reset();
      const page = await (await browser()).page();
      await page.navigate(`${shop.url}/product/2`);
      asked.length = 0;
      deny = (r) => (r.method === 'POST' ? 'no web.post' : r.url.startsWith(devhub.url) ? 'not this host' : undefined);
      try {
        await page.click({ role: 'button', name: 'Add to cart', exact: true });
        expect(asked).toEqual([
          { url: `${shop.url}/cart/add`, method: 'POST', navigation: true, mainFrame: true, documentUrl: `${shop.url}/product/2` },
        ]);
        expect((shop.state() as ShopState).cart).toEqual([]);
        // The tab shows why, in place of the page.
        expect(await page.read({ source: 'title' })).toBe('Not opened by SkillDesk');
        await expect(page.navigate(`${devhub.url}/projects`)).rejects.toThrow(
          /^SkillDesk did not open http:\/\/127\.0\.0\.1:\d+\/projects: not this host$/,
        );
        expect(asked.at(-1)).toMatchObject({ url: `${devhub.url}/projects`, navigation: true, mainFrame: true });
      } finally {
        deny = () => undefined;
      }
    },
  );

  it('judges each redirect the browser follows on its own', { timeout: 60_000 }, async () => {
    shop.reset();
    const page = await (await browser()).page();
    await page.navigate(`${shop.url}/product/3`);
    asked.length = 0;
    await page.click({ role: 'button', name: 'Add to cart', exact: true });
    await page.waitForUrl(/\/cart$/);
    await expect
      .poll(() => asked.map((r) => `${r.method} ${r.url.replace(shop.url, '')}${r.redirect ? ' (redirect)' : ''}`))
      .toEqual(['POST /cart/add', 'GET /cart (redirect)']);
  });

  it('aborts every request while no guard is set (no step asked for it)', { timeout: 60_000 }, async () => {
    const s = await browser();
    const page = await s.page();
    s.setRequestGuard(undefined);
    try {
      await expect(page.navigate(`${shop.url}/`)).rejects.toThrow(/did not open .*: no skill step is running/);
    } finally {
      s.setRequestGuard(guard);
    }
  });

  it('starts with the cookies it is given and tells what it holds, hidden', { timeout: 60_000 }, async () => {
    const host = new URL(shop.url).hostname;
    const cookie = {
      name: 'cart',
      value: 'mug*2',
      domain: host,
      path: '/',
      expires: -1,
      httpOnly: false,
      secure: false,
      sameSite: 'Lax' as const,
    };
    const other = await openPlaywrightBrowser({ executablePath: requireChromium(), timeoutMs: 5000, cookies: [cookie] });
    try {
      expect(other.visible).toBe(false);
      expect(await other.cookies!()).toContainEqual(expect.objectContaining({ name: 'cart', value: 'mug*2', domain: host }));
    } finally {
      await other.close();
    }
  });

  it('closes at once after opening without leaving a rejected promise behind', { timeout: 60_000 }, async () => {
    const unhandled: unknown[] = [];
    const note = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', note);
    try {
      const quick = await openPlaywrightBrowser({ executablePath: requireChromium(), timeoutMs: 5000 });
      await quick.close();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled).toEqual([]);
  });

  it('maps SkillDesk key names to Playwright chords', () => {
    expect(playwrightChord('Enter')).toBe('Enter');
    expect(playwrightChord('Control+Shift+Up')).toBe('Control+Shift+ArrowUp');
    expect(playwrightChord('Super+a')).toBe('Meta+a');
  });

  it('attaches only to a DevTools endpoint on the loopback interface', () => {
    expect(loopbackCdpEndpoint('http://127.0.0.1:9222')).toBe('http://127.0.0.1:9222');
    expect(loopbackCdpEndpoint('ws://localhost:9222/devtools/browser/x')).toBe('ws://localhost:9222/devtools/browser/x');
    for (const bad of [
      'http://192.168.1.5:9222',
      'http://example.com:9222',
      'http://127.0.0.1',
      'http://127.0.0.1@evil.com:9222',
      'file:///tmp',
    ])
      expect(() => loopbackCdpEndpoint(bad), bad).toThrow(/loopback interface/);
  });

  it(
    'attaches over CDP to a Chromium started with a loopback debugging port, and leaves it running on close',
    { timeout: 60_000 },
    async () => {
      const profile = mkdtempSync(join(tmpdir(), 'skilldesk-cdp-'));
      let child: ChildProcess | undefined;
      try {
        child = spawn(
          requireChromium(),
          [
            '--headless',
            '--remote-debugging-address=127.0.0.1',
            '--remote-debugging-port=0',
            `--user-data-dir=${profile}`,
            ...CHROMIUM_FLAGS,
            'about:blank',
          ],
          // Its own process group: its renderers and helpers end with it (they write to the profile).
          { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
        );
        const port = await new Promise<string>((resolve, reject) => {
          let err = '';
          child!.stderr!.on('data', (d: Buffer) => {
            err += d.toString();
            const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err);
            if (m) resolve(m[1]!);
          });
          child!.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${err.slice(-500)}`)));
        });
        const attached = await openPlaywrightBrowser({ cdpEndpoint: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
        attached.setRequestGuard(guard);
        const page = await attached.page();
        await page.navigate(`${devhub.url}/projects`);
        expect(await page.read({ source: 'title' })).toBe('Projects – DevHub');
        await attached.close();
        expect(child.exitCode).toBeNull();
        expect(() => process.kill(child!.pid!, 0)).not.toThrow();
      } finally {
        if (child?.pid !== undefined) await endGroup(child.pid);
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      }
    },
  );
});

/** Ends the process group this test started (the Chromium it attached to, and its helpers), and waits until it is gone. */
async function endGroup(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pid, 'SIGTERM');
  for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive()) process.kill(-pid, 'SIGKILL');
}
