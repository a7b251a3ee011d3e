import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { iterateAudit } from '../../src/main/services/store';
import type { RunResult } from '../../src/shared/run';

/**
 * Shop A's skills, run dry: no browser is opened, every step is mediated under the skill's own
 * manifest (nobody answers a prompt here, so nothing may need one), and the primitive sequence is
 * the reviewed one below.
 */

const SITE = 'http://127.0.0.1:8101';
const CHECKOUT = {
  full_name: 'Grace Hopper',
  email: 'grace@example.com',
  street: '1 Navy Way',
  city: 'Arlington',
  region: 'CO',
  postal_code: '80302',
};
let core: Core;
let dataDir: string;
const saved = process.env.SKILLDESK_SITE_SHOP_A;

beforeAll(async () => {
  // The profile's own origin is what relative URLs resolve against.
  delete process.env.SKILLDESK_SITE_SHOP_A;
  dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-dry-web-'));
  core = await createNodeCore({
    dataDir,
    interactive: false,
    overrides: {
      createBrowser: () => Promise.reject(new Error('a dry run opened the browser')),
    },
  });
});
afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (saved !== undefined) process.env.SKILLDESK_SITE_SHOP_A = saved;
});

/** One line per step: indented by depth, skill#node, the action and its resolved fields. */
function steps(r: RunResult): string[] {
  return r.steps.map((s) => {
    const { action, ...fields } = s.resolved as { action: string };
    return `${'  '.repeat(s.depth)}${s.skillId}#${s.nodeId} ${action} ${JSON.stringify(fields)}`;
  });
}

async function dry(skill: string, args: Record<string, unknown> = {}): Promise<RunResult> {
  const r = await core.runSkill({ skill, app: 'shop-a', args, dryRun: true });
  expect(r.error).toBeUndefined();
  expect(r.status).toBe('succeeded');
  return r;
}

const SEARCH = [
  'shop-a.search_product#open web_navigate {"url":"/search?q=travel%20mug"}',
  'shop-a.search_product#shown web_wait {"url":"/search\\\\?q=","locator":{"role":"heading","name":"Search results for"}}',
];
const OPEN = [
  'shop-a.open_product#open web_click {"locator":{"role":"link","name":"Ridge Insulated Travel Mug","exact":true},"expect":{"url":"/product/[^/]+$","locator":{"role":"heading","name":"Ridge Insulated Travel Mug","exact":true}}}',
];
// A dry run's page shows nothing: the product's name reads as empty.
const ADD = [
  'shop-a.add_to_cart#product web_read {"locator":{"selector":"main h1"},"into":"product"}',
  'shop-a.add_to_cart#quantity web_fill {"locator":{"label":"Quantity","exact":true},"text":"2"}',
  'shop-a.add_to_cart#add web_click {"locator":{"role":"button","name":"Add to cart","exact":true}}',
  'shop-a.add_to_cart#added web_wait {"url":"/cart$","locator":{"role":"spinbutton","name":"Quantity for ","exact":true}}',
];
const indent = (lines: string[]) => lines.map((l) => `  ${l}`);

describe('skills: shop A, dry run', () => {
  it('searches by opening the search address, with the query encoded, mediated on the site', async () => {
    const r = await dry('ShoppingSite.search_product', { query: 'travel mug' });
    expect(steps(r)).toEqual(SEARCH);
    const audited = [...iterateAudit(core.db!, { runId: r.runId })].map((a) => `${a.nodeId} ${a.capability} ${a.target} ${a.decision}`);
    expect(audited).toEqual([`open web.navigate ${SITE}/search?q=travel%20mug allow`, `shown web.navigate ${SITE}/ allow`]);
  });

  it('opens a product, adds to the cart and reads the cart', async () => {
    expect(steps(await dry('ShoppingSite.open_product', { name: 'Ridge Insulated Travel Mug' }))).toEqual(OPEN);
    expect(steps(await dry('ShoppingSite.add_to_cart', { quantity: 2 }))).toEqual(ADD);
    expect(steps(await dry('ShoppingSite.view_cart'))).toEqual([
      'shop-a.view_cart#open web_navigate {"url":"/cart"}',
      'shop-a.view_cart#shown web_wait {"locator":{"role":"heading","name":"Your cart","exact":true}}',
      'shop-a.view_cart#lines web_wait {"locator":{"selector":"main table tbody"},"timeoutMs":2000}',
      'shop-a.view_cart#read web_read {"locator":{"selector":"main table tbody"},"into":"result"}',
    ]);
  });

  it('checks out with the shipping speed asked for, and ends on the confirmation', async () => {
    const form = [
      'shop-a.checkout#open web_navigate {"url":"/checkout"}',
      'shop-a.checkout#form web_wait {"locator":{"role":"heading","name":"Shipping address","exact":true}}',
      'shop-a.checkout#name web_fill {"locator":{"label":"Full name","exact":true},"text":"Grace Hopper"}',
      'shop-a.checkout#email web_fill {"locator":{"label":"Email","exact":true},"text":"grace@example.com"}',
      'shop-a.checkout#street web_fill {"locator":{"label":"Street address","exact":true},"text":"1 Navy Way"}',
      'shop-a.checkout#city web_fill {"locator":{"label":"City","exact":true},"text":"Arlington"}',
      'shop-a.checkout#state web_select {"locator":{"label":"State","exact":true},"value":"CO"}',
      'shop-a.checkout#zip web_fill {"locator":{"label":"ZIP code","exact":true},"text":"80302"}',
    ];
    const placed = [
      'shop-a.checkout#place web_click {"locator":{"role":"button","name":"Place order","exact":true}}',
      'shop-a.checkout#placed web_wait {"url":"/order/[^/?#]+$","locator":{"role":"heading","name":"Thank you for your order","exact":true}}',
      'shop-a.checkout#number web_read {"locator":{"test_id":"order-number"},"into":"result"}',
    ];
    expect(steps(await dry('ShoppingSite.checkout', { ...CHECKOUT, shipping: 'express' }))).toEqual([
      ...form,
      'shop-a.checkout#express web_check {"locator":{"role":"radio","name":"Express"},"checked":true}',
      ...placed,
    ]);
    expect(steps(await dry('ShoppingSite.checkout', CHECKOUT))).toEqual([
      ...form,
      'shop-a.checkout#standard web_check {"locator":{"role":"radio","name":"Standard"},"checked":true}',
      ...placed,
    ]);
  });

  it("runs the composites written once on ShoppingSite through shop A's methods", async () => {
    const find = await dry('ShoppingSite.find_and_add_to_cart', { query: 'travel mug', name: 'Ridge Insulated Travel Mug', quantity: 2 });
    expect(steps(find)).toEqual([
      'ShoppingSite.find_and_add_to_cart#search call {"skill":"ShoppingSite.search_product","args":{"query":"travel mug"}}',
      ...indent(SEARCH),
      'ShoppingSite.find_and_add_to_cart#open call {"skill":"ShoppingSite.open_product","args":{"name":"Ridge Insulated Travel Mug"}}',
      ...indent(OPEN),
      'ShoppingSite.find_and_add_to_cart#add call {"skill":"ShoppingSite.add_to_cart","args":{"quantity":2}}',
      ...indent(ADD),
    ]);
    const purchase = await dry('ShoppingSite.purchase_item', {
      query: 'travel mug',
      name: 'Ridge Insulated Travel Mug',
      quantity: 2,
      ...CHECKOUT,
    });
    const lines = steps(purchase);
    expect(lines[0]).toBe(
      'ShoppingSite.purchase_item#add call {"skill":"ShoppingSite.find_and_add_to_cart","args":{"query":"travel mug","name":"Ridge Insulated Travel Mug","quantity":2}}',
    );
    expect(lines.slice(1, 11)).toEqual(indent(steps(find)));
    expect(lines[11]).toMatch(
      /^ShoppingSite\.purchase_item#pay call \{"skill":"ShoppingSite\.checkout","args":\{"full_name":"Grace Hopper",.*"shipping":"standard"\},"into":"result"\}$/,
    );
    expect(lines.slice(12).map((l) => l.trim().split(' ')[0])).toEqual([
      'shop-a.checkout#open',
      'shop-a.checkout#form',
      'shop-a.checkout#name',
      'shop-a.checkout#email',
      'shop-a.checkout#street',
      'shop-a.checkout#city',
      'shop-a.checkout#state',
      'shop-a.checkout#zip',
      'shop-a.checkout#standard',
      'shop-a.checkout#place',
      'shop-a.checkout#placed',
      'shop-a.checkout#number',
    ]);
  });
});
