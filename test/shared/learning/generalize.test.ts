import { describe, expect, it } from 'vitest';
import { missingMethods } from '../../../src/shared/learning/blueprint';
import { generalize, urlPattern } from '../../../src/shared/learning/generalize';
import { signatureOf } from '../../../src/shared/learning/signature';
import { locatorFor, webSteps, type Trajectory } from '../../../src/shared/learning/trajectory';
import type { RecordedWebEvent } from '../../../src/shared/ports/browser';
import { LibraryDocSchema, renderTemplate, SkillLibrary } from '../../../src/shared/skill';

const O = 'http://127.0.0.1:8101';
const at = (n: number) => ({ at: n, title: 'Acme' });
const box = { role: 'searchbox', name: 'Search products', label: 'Search products', selector: '#q' };

describe('src/shared/learning (trajectories and generalization)', () => {
  it("turns a browser demonstration's events into steps: its own navigations, fields (last value), keys; an action's navigation is its effect", () => {
    const events: RecordedWebEvent[] = [
      { ...at(0), url: `${O}/`, type: 'navigate' },
      { ...at(100), url: `${O}/`, type: 'fill', target: box, value: 'mu' },
      { ...at(200), url: `${O}/`, type: 'fill', target: box, value: 'mug' },
      { ...at(300), url: `${O}/`, type: 'press', key: 'Enter', target: box },
      { ...at(350), url: `${O}/`, type: 'fill', target: box, value: 'mug' }, // the change event after Enter: no new step
      { ...at(900), url: `${O}/search?q=mug`, type: 'navigate' },
      {
        ...at(5000),
        url: `${O}/search?q=mug`,
        type: 'click',
        target: { role: 'link', name: 'Ridge Mug', selector: 'a', count: 2, index: 1 },
      },
    ];
    const steps = webSteps(events);
    expect(steps.map((s) => s.primitive)).toEqual([
      { action: 'web_navigate', url: `${O}/` },
      { action: 'web_fill', locator: { label: 'Search products', exact: true }, text: 'mug' },
      { action: 'web_press', key: 'Enter', locator: { label: 'Search products', exact: true } },
      { action: 'web_click', locator: { role: 'link', name: 'Ridge Mug', exact: true, nth: 1 } },
    ]);
    expect(steps[2]!.after).toEqual({ url: `${O}/search?q=mug`, title: 'Acme' });
    expect(locatorFor({ selector: 'div > span' })).toEqual({ selector: 'div > span' });
    expect(locatorFor({ role: 'textbox', name: 'Find in the bazaar', placeholder: 'What?', selector: 'input' })).toEqual({
      role: 'textbox',
      name: 'Find in the bazaar',
      exact: true,
    });
  });

  it('makes the arguments slots (URL-encoded in URLs), waits for the pages actions lead to, and leaves changing tokens open', () => {
    const t: Trajectory = {
      kind: 'trajectory',
      app: 'shop-a',
      source: 'browser',
      args: { query: 'water bottle', quantity: 2 },
      recordedAt: 0,
      steps: [
        { primitive: { action: 'web_navigate', url: `${O}/` }, at: 0, after: { url: `${O}/` } },
        { primitive: { action: 'web_fill', locator: { label: 'Search products' }, text: 'water bottle' }, at: 1, before: { url: `${O}/` } },
        {
          primitive: { action: 'web_press', key: 'Enter', locator: { label: 'Search products' } },
          at: 2,
          before: { url: `${O}/` },
          after: { url: `${O}/search?q=water+bottle` },
        },
        { primitive: { action: 'web_fill', locator: { label: 'Quantity' }, text: '2' }, at: 3, before: { url: `${O}/product/7` } },
        {
          primitive: { action: 'web_click', locator: { role: 'button', name: 'Add to cart' } },
          at: 4,
          before: { url: `${O}/product/7` },
          after: { url: `${O}/cart` },
        },
      ],
    };
    const g = generalize(t, { origin: O });
    expect(g.unused).toEqual([]);
    expect(g.steps).toEqual([
      { action: 'web_navigate', url: '/' },
      { action: 'web_fill', locator: { label: 'Search products' }, text: '${query}' },
      { action: 'web_press', key: 'Enter', locator: { label: 'Search products' } },
      { action: 'web_wait', url: '/search\\?q=${query|url_regex}$' },
      { action: 'web_fill', locator: { label: 'Quantity' }, text: '${quantity}' },
      { action: 'web_click', locator: { role: 'button', name: 'Add to cart' } },
      { action: 'web_wait', url: '/cart$' },
    ]);
    // Resolved with the values: what the wait matches, however the site encoded the space.
    const wait = new RegExp(String(renderTemplate('/search\\?q=${query|url_regex}$', { query: 'water bottle' })));
    expect(wait.test(`${O}/search?q=water%20bottle`)).toBe(true);
    expect(wait.test(`${O}/search?q=water+bottle`)).toBe(true);
    expect(wait.test(`${O}/search?q=water_bottle`)).toBe(false);
    expect(urlPattern(`${O}/item?sku=B-042`, O, []).pattern).toBe('/item\\?sku=[^/?&#]+$');
    const back = urlPattern(`${O}/order/A-12345`, O, [], true);
    expect(back).toEqual({ pattern: '/order/([^/?&#]+)$', dynamic: true });
  });

  it('reads what a method returns from the last page (a token of its URL), and names arguments the demonstration never used', () => {
    const t: Trajectory = {
      kind: 'trajectory',
      app: 'shop-b',
      source: 'browser',
      args: { full_name: 'Ada', email: 'ada@example.com', shipping: 'standard' },
      recordedAt: 0,
      steps: [
        { primitive: { action: 'web_fill', locator: { label: 'Your name' }, text: 'Ada' }, at: 0 },
        {
          primitive: { action: 'web_click', locator: { role: 'button', name: 'Confirm and pay' } },
          at: 1,
          before: { url: `${O}/checkout/payment` },
          after: { url: `${O}/thank-you?ref=BB-KQXZ` },
        },
      ],
    };
    const g = generalize(t, { returns: true, specs: { shipping: { type: 'enum', values: ['standard', 'express'], default: 'standard' } } });
    expect(g.returns).toBe('url');
    expect(g.steps.slice(-2)).toEqual([
      { action: 'web_wait', url: '/thank-you\\?ref=[^/?&#]+$' },
      { action: 'web_read', source: 'url', extract: '/thank-you\\?ref=([^/?&#]+)$', into: 'result' },
    ]);
    // email never typed; shipping left at its default needs no trace.
    expect(g.unused).toEqual(['email']);
  });

  it('gives a method the interface lacks a signature from the values, and lists what an app does not implement yet', () => {
    const m = signatureOf({ interface: 'ShoppingSite', method: 'apply_coupon', args: { code: 'SAVE10' } });
    expect(m).toMatchObject({
      kind: 'method',
      name: 'apply_coupon',
      intents: ['apply coupon ${code}'],
      args: { code: { type: 'string', examples: ['SAVE10'] } },
    });
    const doc = (d: unknown) => ({ doc: LibraryDocSchema.parse(d), source: { file: 'x.yaml', origin: 'builtin' as const } });
    const method = (description: string) => ({ description, intents: [description], args: {} });
    const lib = new SkillLibrary([
      doc({ kind: 'interface', id: 'Shop', description: 's', methods: { search: method('search'), pay: method('pay') } }),
      doc({ kind: 'app', id: 'site', name: 'Site', platforms: ['web'], web: { base_url: O }, implements: ['Shop'] }),
      doc(m.interface === 'ShoppingSite' ? { ...m, interface: 'Shop' } : m),
    ]);
    expect(lib.errors).toEqual([]);
    expect(missingMethods(lib, 'site').map((x) => x.method)).toEqual(['search', 'pay', 'apply_coupon']);
  });
});
