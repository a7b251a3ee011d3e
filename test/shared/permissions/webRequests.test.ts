import { describe, expect, it } from 'vitest';
import { decide } from '../../../src/shared/permissions/PolicyEngine';
import type { PolicyState } from '../../../src/shared/permissions/policy';
import { requestNeed, sameOrigin } from '../../../src/shared/permissions/webRequests';
import type { PageRequest } from '../../../src/shared/ports/browser';

const page = 'http://127.0.0.1:8101/product/7';
const req = (r: Partial<PageRequest>): PageRequest => ({
  url: page,
  method: 'GET',
  navigation: false,
  mainFrame: false,
  documentUrl: page,
  ...r,
});

describe('src/shared/permissions/webRequests', () => {
  it('needs web.post for anything that sends a body, whatever its frame or kind', () => {
    expect(requestNeed(req({ url: 'http://127.0.0.1:8101/cart/add', method: 'POST', navigation: true, mainFrame: true }))).toMatchObject({
      capability: 'web.post',
      target: { kind: 'url', url: 'http://127.0.0.1:8101/cart/add' },
      detail: 'a POST request the page sent',
    });
    expect(requestNeed(req({ method: 'put' }))?.capability).toBe('web.post');
    expect(requestNeed(req({ url: 'ws://127.0.0.1:8101/live', method: 'WEBSOCKET' }))?.detail).toBe('a WebSocket the page opened');
  });

  it('needs web.navigate for a top-level navigation, a redirect the browser followed included', () => {
    expect(requestNeed(req({ url: 'https://elsewhere.example/', navigation: true, mainFrame: true }))).toMatchObject({
      capability: 'web.navigate',
      target: { kind: 'url', url: 'https://elsewhere.example/' },
    });
    expect(requestNeed(req({ navigation: true, mainFrame: true, redirect: true }))?.detail).toMatch(/redirect the browser followed/);
  });

  it("lets the page load its own origin's resources, and needs web.fetch for another origin's", () => {
    expect(requestNeed(req({ url: 'http://127.0.0.1:8101/style.css' }))).toBeUndefined();
    expect(requestNeed(req({ url: 'data:image/png;base64,AAAA' }))).toBeUndefined();
    expect(requestNeed(req({ url: 'http://127.0.0.1:8102/pixel.gif' }))).toMatchObject({ capability: 'web.fetch' });
    expect(requestNeed(req({ url: 'https://cdn.example/lib.js' }))?.capability).toBe('web.fetch');
    // An iframe of another origin is a fetch too, not a navigation of the tab.
    expect(requestNeed(req({ url: 'https://ads.example/', navigation: true, mainFrame: false }))?.detail).toMatch(
      /^a frame from another origin/,
    );
  });

  it('compares origins by scheme, host and port', () => {
    expect(sameOrigin('http://127.0.0.1:8101/a', 'http://127.0.0.1:8101/b?c')).toBe(true);
    expect(sameOrigin('http://127.0.0.1:8101/a', 'http://127.0.0.1:8102/a')).toBe(false);
    expect(sameOrigin('https://a.example/', 'http://a.example/')).toBe(false);
    expect(sameOrigin('not a url', 'not a url')).toBe(false);
  });

  it("binds `${site}` to the app's website only: an argument named `site` cannot widen a scope", () => {
    const state: PolicyState = {
      skills: {
        'shop.checkout': {
          app: 'shop',
          trust: 'builtin',
          permissions: [{ capability: 'web.post', effect: 'allow', constraints: { urls: ['${site}/checkout'] } }],
        },
      },
      workspace: { version: 1, entries: [], trust: {}, folders: {} },
      grants: [],
      usage: {},
      env: { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 },
    };
    const post = (url: string, extra: object) =>
      decide({ skill: 'shop.checkout', capability: 'web.post', target: { kind: 'url', url }, time: 0, app: 'shop', ...extra }, state)
        .effect;
    expect(post('http://127.0.0.1:8101/checkout', { site: 'http://127.0.0.1:8101' })).toBe('allow');
    expect(post('http://127.0.0.1:8101/cart/add', { site: 'http://127.0.0.1:8101' })).toBe('deny');
    expect(post('https://evil.example/checkout', { site: 'http://127.0.0.1:8101', args: { site: 'https://evil.example' } })).toBe('deny');
    // Not a website: `${site}` binds nothing, whatever the arguments say.
    expect(post('https://evil.example/checkout', { args: { site: 'https://evil.example' } })).toBe('deny');
  });
});
