import { describe, expect, it } from 'vitest';
import type { NeedContext } from '../../../src/shared/permissions/needs';
import {
  PrimitiveSchema,
  WEB_PRIMITIVES,
  describeLocator,
  descriptorOf,
  primitiveInto,
  splitChord,
  type Primitive,
} from '../../../src/shared/skill';

const ctx = (site?: string): NeedContext => ({
  appTarget: { kind: 'app', app: 'shop' },
  analyseScript: () => ({ ok: true, capabilities: [], errors: [] }),
  isSecretPath: () => false,
  ...(site !== undefined && { site }),
});
const needs = (p: Primitive, site?: string) => {
  const n = descriptorOf(p).needs(p, ctx(site));
  return (Array.isArray(n) ? n : n.needs).map((x) => ({ capability: x.capability, target: x.target }));
};
const issues = (p: unknown) => PrimitiveSchema.safeParse(p).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('src/shared/skill/webPrimitives', () => {
  it('takes exactly one way of finding an element, with `name` only on a role and `exact` only on text matches', () => {
    expect(issues({ action: 'web_click', locator: { role: 'button', name: 'Pay', nth: -1 } })).toEqual([]);
    expect(issues({ action: 'web_click', locator: { label: 'Email', text: 'Email' } })).toEqual([
      'locator: expected exactly one of `role`, `label`, `text`, `placeholder`, `test_id`, `selector`, got `label` and `text`',
    ]);
    expect(issues({ action: 'web_click', locator: {} })).toEqual([expect.stringMatching(/got none$/)]);
    expect(issues({ action: 'web_click', locator: { text: 'Pay', name: 'x' } })).toEqual(['locator.name: `name` goes with `role`']);
    expect(issues({ action: 'web_click', locator: { selector: 'main h1', exact: true } })).toEqual([
      'locator.exact: `exact` applies to `role` names, `label`, `text` and `placeholder`',
    ]);
    expect(issues({ action: 'web_click', locator: { role: 'Button' } })).toEqual([
      expect.stringMatching(/^locator.role: expected an ARIA role/),
    ]);
  });

  it('checks waits, reads and keys when the file loads', () => {
    expect(issues({ action: 'web_wait', timeoutMs: 10 })).toEqual([': give `url`, `locator` or both']);
    expect(issues({ action: 'web_wait', url: '([' })).toEqual([expect.stringMatching(/^url: invalid regular expression/)]);
    expect(issues({ action: 'web_wait', url: '/${id}(' })).toEqual([]);
    expect(issues({ action: 'web_read', source: 'url', into: 'here', extract: '/issues/(\\d+)$' })).toEqual([]);
    expect(issues({ action: 'web_read', into: 'x' })).toEqual([': give a `locator`, or `source: url` or `source: title`']);
    expect(issues({ action: 'web_read', source: 'value', into: 'x' })).toEqual([
      'locator: `source: value` reads an element: give its `locator`',
    ]);
    expect(issues({ action: 'web_read', source: 'attribute', locator: { selector: 'a' }, into: 'x' })).toEqual([
      'attribute: `attribute` goes with `source: attribute`, and it needs one',
    ]);
    expect(issues({ action: 'web_press', key: 'Control+a' })).toEqual([]);
    expect(issues({ action: 'web_press', key: 'Contol+a' })).toEqual([expect.stringMatching(/did you mean `Control`\?/)]);
    expect(splitChord('Control++')).toEqual(['Control', '+']);
    expect(issues({ action: 'web_check', locator: { label: 'Agree' }, checked: '${agree}' })).toEqual([]);
    expect(issues({ action: 'web_check', locator: { label: 'Agree' }, checked: 'yes' })).toHaveLength(1);
  });

  it('needs web.navigate on the URL a navigation opens, resolved against the site', () => {
    expect(needs({ action: 'web_navigate', url: '/search?q=mug' }, 'http://127.0.0.1:8101')).toEqual([
      { capability: 'web.navigate', target: { kind: 'url', url: 'http://127.0.0.1:8101/search?q=mug' } },
    ]);
    expect(needs({ action: 'web_navigate', url: 'https://elsewhere.example/' }, 'http://127.0.0.1:8101')).toEqual([
      { capability: 'web.navigate', target: { kind: 'url', url: 'https://elsewhere.example/' } },
    ]);
    // A relative URL with no site to stand on is a target nobody can allow.
    expect(needs({ action: 'web_navigate', url: '/cart' })).toEqual([
      { capability: 'web.navigate', target: { kind: 'unknown', hint: expect.stringMatching(/no site/) } },
    ]);
  });

  it('needs web.navigate on the site for a step on its page; what the page sends is decided per request', () => {
    expect(needs({ action: 'web_click', locator: { role: 'button', name: 'Place order' } }, '${site}')).toEqual([
      { capability: 'web.navigate', target: { kind: 'url', url: '${site}/' } },
    ]);
    for (const d of Object.values(WEB_PRIMITIVES)) {
      expect(d.group).toBe('web');
      expect(d.requests).toEqual(['web.navigate', 'web.post', 'web.fetch']);
    }
    expect(primitiveInto({ action: 'web_read', source: 'title', into: 'title' })).toBe('title');
  });

  it('names locators the way errors show them', () => {
    expect(describeLocator({ role: 'button', name: 'Pay', nth: 1 })).toBe('button "Pay" #1');
    expect(describeLocator({ label: 'Email' })).toBe('the field labelled "Email"');
    expect(describeLocator({ test_id: 'order-number' })).toBe('data-testid="order-number"');
  });
});
