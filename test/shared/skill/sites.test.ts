import { describe, expect, it } from 'vitest';
import { AppDocSchema, SITE_SLOT, renderTemplate, resolveSiteUrl, siteOrigin } from '../../../src/shared/skill';

describe('src/shared/skill/sites', () => {
  const web = { base_url: 'http://127.0.0.1:8101', base_url_env: 'SKILLDESK_SITE_SHOP_A' };

  it('takes the origin from the profile, or from its environment variable when that is set', () => {
    expect(siteOrigin(web, {})).toBe('http://127.0.0.1:8101');
    expect(siteOrigin(web, { SKILLDESK_SITE_SHOP_A: '' })).toBe('http://127.0.0.1:8101');
    expect(siteOrigin(web, { SKILLDESK_SITE_SHOP_A: 'http://127.0.0.1:40123/' })).toBe('http://127.0.0.1:40123');
    expect(siteOrigin({ base_url: 'https://Shop.Example.com/' }, { OTHER: 'http://x' })).toBe('https://shop.example.com');
  });

  it('refuses an environment value that is not an origin (a path would shift what `${site}/` admits)', () => {
    expect(() => siteOrigin(web, { SKILLDESK_SITE_SHOP_A: 'http://127.0.0.1:40123/shop' })).toThrow(
      /Expected `SKILLDESK_SITE_SHOP_A` to be an origin.*got `http:\/\/127\.0\.0\.1:40123\/shop`/,
    );
    expect(() => siteOrigin(web, { SKILLDESK_SITE_SHOP_A: 'file:///etc' })).toThrow(/an origin/);
  });

  it('resolves paths against the site, keeps absolute URLs, and refuses what would depend on the page shown', () => {
    expect(resolveSiteUrl('/search?q=mug', 'http://127.0.0.1:8101')).toBe('http://127.0.0.1:8101/search?q=mug');
    expect(resolveSiteUrl('/a/../cart', 'http://127.0.0.1:8101')).toBe('http://127.0.0.1:8101/cart');
    expect(resolveSiteUrl('/search?q=mug', SITE_SLOT)).toBe('${site}/search?q=mug');
    expect(resolveSiteUrl('https://other.example/x', 'http://127.0.0.1:8101')).toBe('https://other.example/x');
    expect(() => resolveSiteUrl('//evil.example/x', 'http://127.0.0.1:8101')).toThrow(/an http\(s\) URL or a path/);
    expect(() => resolveSiteUrl('javascript:alert(1)', 'http://127.0.0.1:8101')).toThrow(/an http\(s\) URL or a path/);
    expect(() => resolveSiteUrl('cart', 'http://127.0.0.1:8101')).toThrow(/an http\(s\) URL or a path/);
    expect(() => resolveSiteUrl('/cart', undefined)).toThrow(/relative, and the app has no site/);
  });

  it('encodes a template value as one URL component (`url_encode`)', () => {
    expect(renderTemplate('/search?q=${q|url_encode}', { q: 'a b&c=d/é#' })).toBe('/search?q=a%20b%26c%3Dd%2F%C3%A9%23');
  });

  it('makes a website `platforms: [web]` with an origin, no launch and no windows', () => {
    const site = { kind: 'app', id: 'shop', name: 'Shop', platforms: ['web'], web: { base_url: 'http://127.0.0.1:1' } };
    expect(AppDocSchema.safeParse(site).success).toBe(true);
    const messages = (doc: object) => AppDocSchema.safeParse(doc).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(messages({ ...site, web: undefined })).toEqual(['web: a website needs `web: { base_url }` (its origin)']);
    expect(messages({ ...site, launch: { command: 'chromium' } })).toEqual([
      "launch: a website has no `launch`: SkillDesk's browser shows it",
    ]);
    expect(messages({ ...site, platforms: ['web', 'linux'] })).toEqual([
      expect.stringMatching(/^platforms: a website is `platforms: \[web\]` alone/),
    ]);
    expect(messages({ ...site, web: { base_url: 'http://127.0.0.1:1/shop' } })).toEqual([
      expect.stringMatching(/^web.base_url: expected an origin/),
    ]);
    expect(messages({ kind: 'app', id: 'ed', name: 'Ed', platforms: ['linux'], windows: { class: '^ed$' } })).toEqual([
      'launch: a desktop app needs `launch`',
    ]);
  });
});
