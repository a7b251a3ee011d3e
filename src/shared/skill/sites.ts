import { z } from 'zod';
import { SkillDeskError, describeValue } from '../errors';

/**
 * Websites as apps: an app profile with `platforms: [web]` names the site's origin, and its skills
 * write URLs relative to it (`/search?q=${query|url_encode}`). The origin is what `${site}` means
 * in permission constraints (`urls: ['${site}/']`): SkillDesk binds it from the app profile (or
 * the environment variable the profile names), never from a skill's arguments, so a skill cannot
 * point its own scope at another host. Pure: the environment is passed in.
 */

/** An origin: `http(s)://host[:port]`, with no path (a trailing `/` is tolerated). */
const ORIGIN = /^https?:\/\/[^\s/?#@\\]+\/?$/i;

export const WebProfileSchema = z
  .object({
    /**
     * The site's origin; relative URLs in its skills resolve against it.
     * @example 'https://shop.example.com'
     */
    base_url: z.string().regex(ORIGIN, 'expected an origin such as `https://shop.example.com` (scheme, host, port; no path)'),
    /**
     * An environment variable that, when set, replaces `base_url` (a test server on a port the OS
     * chose, a staging copy of the site). Set by whoever starts SkillDesk, never by a skill.
     * @example SKILLDESK_SITE_SHOP_A
     */
    base_url_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/, 'expected an environment variable name in capitals, e.g. `SKILLDESK_SITE_SHOP`')
      .optional(),
  })
  .strict();
export type WebProfile = z.infer<typeof WebProfileSchema>;

/** The slot permission constraints name the site's origin with. */
export const SITE_SLOT = '${site}';

/**
 * The origin of a site (`http://127.0.0.1:8101`, no trailing slash): the environment variable's
 * value when the profile names one and it is set, else `base_url`. Throws when the variable holds
 * something other than an origin (a path would widen or shift what `${site}/` admits).
 */
export function siteOrigin(web: WebProfile, env: Readonly<Record<string, string | undefined>>): string {
  const fromEnv = web.base_url_env ? env[web.base_url_env] : undefined;
  const raw = fromEnv !== undefined && fromEnv !== '' ? fromEnv : web.base_url;
  if (!ORIGIN.test(raw))
    throw new SkillDeskError(
      'site.bad_base_url',
      `Expected \`${web.base_url_env}\` to be an origin such as \`http://127.0.0.1:8101\` (scheme, host, port; no path), got ${describeValue(raw)}`,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SkillDeskError('site.bad_base_url', `\`${raw}\` is not a URL`);
  }
  return url.origin;
}

/**
 * An absolute URL for a skill's `url`: absolute `http(s)` URLs stay as they are; a URL starting
 * with `/` is resolved against the site's origin (`base`, which may also be the `${site}` slot
 * when manifests are derived). Anything else (a bare word, `//host`, `javascript:`) is refused:
 * what a relative URL means must not depend on the page the browser happens to show.
 */
export function resolveSiteUrl(url: string, base: string | undefined): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/') && !url.startsWith('//')) {
    if (base === undefined)
      throw new SkillDeskError(
        'site.no_base_url',
        `\`${url}\` is relative, and the app has no site to resolve it against (give its profile \`web: { base_url }\`, or write an absolute URL)`,
      );
    return base === SITE_SLOT ? `${base}${url}` : new URL(url, base).href;
  }
  throw new SkillDeskError(
    'site.bad_url',
    `Expected an http(s) URL or a path starting with \`/\` (resolved against the site), got ${describeValue(url)}`,
  );
}
