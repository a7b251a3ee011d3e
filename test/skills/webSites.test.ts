import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { iterateAudit } from '../../src/main/services/store';
import type { PermissionPrompt } from '../../src/shared/ports/prompter';
import { startSite, type DevHubState, type RunningSite, type ShopState } from '../fixtures/sites/server';
import { requireChromium } from '../helpers/chromium';

/**
 * Web skills for real: the core's `runSkill` drives the system Chromium (headless, no display)
 * against the loopback test sites, and each test checks what the site recorded (`state()`), not
 * what the page said. Fails, never skips, without Chromium.
 */

const SITE_ENV = { 'shop-a': 'SKILLDESK_SITE_SHOP_A', 'shop-b': 'SKILLDESK_SITE_SHOP_B', devhub: 'SKILLDESK_SITE_DEVHUB' } as const;
let sites: Record<keyof typeof SITE_ENV, RunningSite>;
const saved: Record<string, string | undefined> = {};
const cores: { core: Core; dataDir: string }[] = [];
const asked: PermissionPrompt[] = [];

beforeAll(async () => {
  const [shopA, shopB, devhub] = await Promise.all([startSite('shop-a'), startSite('shop-b'), startSite('devhub')]);
  sites = { 'shop-a': shopA, 'shop-b': shopB, devhub };
  // The app profiles name these variables: the sites are wherever the OS put them.
  for (const [site, name] of Object.entries(SITE_ENV)) {
    saved[name] = process.env[name];
    process.env[name] = sites[site as keyof typeof SITE_ENV].url;
  }
});
afterAll(async () => {
  await Promise.all(cores.map(async ({ core, dataDir }) => (await core.close(), rmSync(dataDir, { recursive: true, force: true }))));
  await Promise.all(Object.values(sites ?? {}).map((s) => s.close()));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A core with a fresh data folder whose stand-in user allows once whatever the policy asks (each question kept). */
async function newCore(userSkills: Record<string, string> = {}): Promise<Core> {
  const executablePath = requireChromium();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-web-'));
  mkdirSync(join(dataDir, 'skills'));
  for (const [file, text] of Object.entries(userSkills)) writeFileSync(join(dataDir, 'skills', file), text);
  const core = await createNodeCore({
    dataDir,
    interactive: false,
    browser: { executablePath },
    prompter: { ask: async (prompt) => (asked.push(prompt), { answer: 'allow_once', by: 'user' }) },
  });
  cores.push({ core, dataDir });
  return core;
}

let core: Core;
const shop = (name: 'shop-a' | 'shop-b') => sites[name].state() as ShopState;
const CHECKOUT = {
  full_name: 'Grace Hopper',
  email: 'grace@example.com',
  street: '1 Navy Way',
  city: 'Arlington',
  region: 'CO',
  postal_code: '80302',
  shipping: 'express',
};

describe('skills: websites in a real browser', () => {
  beforeAll(async () => {
    core = await newCore();
  });

  it('buys a product on shop A with ShoppingSite.purchase_item, asking before the order is placed', { timeout: 120_000 }, async () => {
    sites['shop-a'].reset();
    asked.length = 0;
    const mug = shop('shop-a').products.find((p) => p.kind === 'mug')!;
    const r = await core.runSkill({
      skill: 'ShoppingSite.purchase_item',
      app: 'shop-a',
      args: { query: 'mug', name: mug.name, quantity: 2, ...CHECKOUT },
    });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('succeeded');
    const [order, ...more] = shop('shop-a').orders;
    expect(more).toEqual([]);
    expect(r.result).toBe(order!.number);
    expect(order).toMatchObject({
      lines: [{ productId: mug.id, name: mug.name, quantity: 2 }],
      shipping: 1499,
      fields: {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        address: '1 Navy Way',
        city: 'Arlington',
        state: 'CO',
        zip: '80302',
        shipping: 'express',
      },
    });
    // Placing the order is the one thing the user was asked about.
    expect(asked.map((p) => `${p.skill.id} ${p.capability} ${p.target}`)).toEqual([
      `shop-a.checkout web.post ${sites['shop-a'].url}/checkout`,
    ]);
    expect(shop('shop-a').cart).toEqual([]);
  });

  it('reads the cart back as lines with their quantities (ShoppingSite.view_cart)', { timeout: 120_000 }, async () => {
    sites['shop-a'].reset();
    const [a, b] = shop('shop-a').products.filter((p) => p.kind === 'mug');
    for (const [p, quantity] of [
      [a!, 1],
      [b!, 3],
    ] as const) {
      const r = await core.runSkill({
        skill: 'ShoppingSite.find_and_add_to_cart',
        app: 'shop-a',
        args: { query: 'mug', name: p.name, quantity },
      });
      expect(r.error).toBeUndefined();
    }
    const r = await core.runSkill({ skill: 'ShoppingSite.view_cart', app: 'shop-a' });
    expect(r.error).toBeUndefined();
    const lines = String(r.result).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${escape(a!.name)}\\t\\$[\\d.]+\\tQuantity for ${escape(a!.name)} 1\\t\\$[\\d.]+$`));
    expect(lines[1]).toMatch(new RegExp(`\\tQuantity for ${escape(b!.name)} 3\\t`));
    expect(shop('shop-a').orders).toEqual([]);
  });

  it('fails the same composite on shop B as not implemented, before anything is opened or sent', { timeout: 120_000 }, async () => {
    sites['shop-b'].reset();
    const before = JSON.stringify(shop('shop-b'));
    const mug = shop('shop-b').products.find((p) => p.kind === 'mug')!;
    const r = await core.runSkill({
      skill: 'ShoppingSite.purchase_item',
      app: 'shop-b',
      args: { query: 'mug', name: mug.name, quantity: 1, ...CHECKOUT },
    });
    expect(r.status).toBe('failed');
    expect(r.error).toMatchObject({ code: 'dispatch.not_implemented', skillId: 'ShoppingSite.find_and_add_to_cart', nodeId: 'search' });
    expect(r.error?.message).toBe('App `shop-b` has no implementation of `ShoppingSite.search_product`; apps that have one: shop-a');
    expect(r.steps.filter((s) => s.primitive.startsWith('web_'))).toEqual([]);
    expect(JSON.stringify(shop('shop-b'))).toBe(before);
  });

  it('files, comments on and closes a DevHub issue (DevPlatform), closing twice changing nothing', { timeout: 120_000 }, async () => {
    sites.devhub.reset();
    const run = async (skill: string, args: Record<string, unknown> = {}) => {
      const r = await core.runSkill({ skill: `DevPlatform.${skill}`, app: 'devhub', args });
      expect(r.error, skill).toBeUndefined();
      return r.result;
    };
    await run('open_project', { project: 'acme/widgets' });
    const number = await run('create_issue', {
      title: 'Tooltips flicker on hover',
      body: 'Seen in the demo.\n\nSteps: hover a button.',
      labels: ['bug', 'good first issue'],
    });
    expect(typeof number).toBe('number');
    await run('comment_on_issue', { issue: number, body: 'I can reproduce this on main.' });
    await run('close_issue', { issue: number });
    await run('close_issue', { issue: number });
    const project = (sites.devhub.state() as DevHubState).projects.find((p) => p.slug === 'acme/widgets')!;
    const issue = project.issues.find((i) => i.number === number);
    expect(issue).toMatchObject({
      title: 'Tooltips flicker on hover',
      body: 'Seen in the demo.\n\nSteps: hover a button.',
      labels: ['bug', 'good first issue'],
      state: 'closed',
      author: 'sam-dev',
      comments: [{ author: 'sam-dev', body: 'I can reproduce this on main.' }],
    });
    expect(project.issues.filter((i) => i.title === 'Tooltips flicker on hover')).toHaveLength(1);
    const closed = String(await run('list_issues', { state: 'closed', label: 'good first issue' }));
    expect(closed).toMatch(
      new RegExp(`^Tooltips flicker on hover bug good first issue\\n#${number} closed · by sam-dev · 1 comment$`, 'm'),
    );
  });

  it(
    'cannot place an order with a checkout whose manifest lacks web.post: the POST is aborted, audited, and no order exists',
    { timeout: 120_000 },
    async () => {
      sites['shop-a'].reset();
      // The shipped checkout, minus its web.post entry, installed in the user's folder (it replaces the built-in one).
      const shipped = readFileSync(join('skills', 'implementations', 'shop-a', 'checkout.yaml'), 'utf8');
      const unposted = shipped.replace(/ {2}# "Place order" posts[\s\S]*?fallback_msg:[^\n]*\n/, '');
      expect(unposted).not.toMatch(/web\.post/);
      const c = await newCore({ 'shop-a.checkout.yaml': unposted });
      const mug = shop('shop-a').products.find((p) => p.kind === 'mug')!;
      const added = await c.runSkill({
        skill: 'ShoppingSite.find_and_add_to_cart',
        app: 'shop-a',
        args: { query: 'mug', name: mug.name, quantity: 1 },
      });
      expect(added.error).toBeUndefined();
      const r = await c.runSkill({ skill: 'ShoppingSite.checkout', app: 'shop-a', args: CHECKOUT });
      expect(r.status).toBe('failed');
      expect(r.error).toMatchObject({ code: 'permission.denied', skillId: 'shop-a.checkout', nodeId: 'place' });
      expect(r.error?.message).toMatch(
        new RegExp(`^web\\.post on ${escape(sites['shop-a'].url)}/checkout was denied, and the request aborted`),
      );
      expect(r.steps.at(-1)).toMatchObject({ nodeId: 'place', outcome: 'denied' });
      expect(shop('shop-a').orders).toEqual([]);
      expect(shop('shop-a').cart).toHaveLength(1);
      const denials = [...iterateAudit(c.db!, { runId: r.runId })].filter((a) => a.decision === 'deny');
      expect(denials).toEqual([
        expect.objectContaining({
          skillId: 'shop-a.checkout',
          nodeId: 'place (request)',
          capability: 'web.post',
          target: `${sites['shop-a'].url}/checkout`,
        }),
      ]);
    },
  );
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
