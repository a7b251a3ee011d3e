import { describe, expect, it } from 'vitest';
import { decide, type Manifest, type PolicyState } from '../../src/shared/permissions';
import { resolveSiteUrl } from '../../src/shared/skill/sites';
import { engineRead } from './permissionHarness';

// A manifest scopes what a skill may touch with its arguments in the scope: `/srv/data/${name}`,
// or for a web skill what it opens to paths of its site, with the skill's arguments in
// `${site}/shop/${slug}` (what induction derives from a demonstration's navigation). The target
// and the scope are built from the same value, so a value that climbed out of the folder or path
// written before it (`../`, encoded dots, a backslash) moved the scope along with the target.
const SITE = 'http://127.0.0.1:8101';

function navigate(scope: string, path: string, value: string) {
  const permissions: Manifest = [{ capability: 'web.navigate', effect: 'allow', constraints: { urls: [scope] } }];
  const state: PolicyState = {
    skills: { 'shop-a.open': { permissions, trust: 'community' } },
    workspace: { version: 1, entries: [], trust: {}, folders: {} },
    grants: [],
    usage: {},
    env: { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 },
  };
  const url = resolveSiteUrl(path.replace('${slug}', value), SITE);
  const args = { slug: value };
  return {
    url,
    effect: decide({ skill: 'shop-a.open', capability: 'web.navigate', target: { kind: 'url', url }, args, site: SITE, time: 0 }, state)
      .effect,
  };
}

describe('attack: an argument climbs out of the site path its URL scope was written for', () => {
  it.each(['ok', 'red shoes', 'a/b', '..%2Fstill-here'])('opens /shop/%s', (value) => {
    expect(navigate('${site}/shop/${slug}', '/shop/${slug}', value).effect).toBe('allow');
  });

  it.each(['../admin', '%2e%2e/admin', '.%2E/admin', '..\\admin', './../../admin'])(
    'does not open /shop/%s, which is outside /shop/',
    (value) => {
      const { url, effect } = navigate('${site}/shop/${slug}', '/shop/${slug}', value);
      expect(url).not.toMatch(/\/shop\//);
      expect(effect).not.toBe('allow');
    },
  );

  it.each(['\\evil.example', '\t/evil.example', '\\\\evil.example'])('does not leave the site for %j in the first segment', (value) => {
    const { url, effect } = navigate('${site}/${slug}', '/${slug}', value);
    expect(new URL(url).host).not.toBe('127.0.0.1:8101');
    expect(effect).not.toBe('allow');
  });

  it('keeps a whole-URL argument scope (`${url}`) as the URL the skill was given', () => {
    const permissions: Manifest = [{ capability: 'web.navigate', effect: 'allow', constraints: { urls: ['${url}'] } }];
    const state: PolicyState = {
      skills: { s: { permissions, trust: 'builtin' } },
      workspace: { version: 1, entries: [], trust: {}, folders: {} },
      grants: [],
      usage: {},
      env: { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 },
    };
    const ask = (url: string, given: string) =>
      decide({ skill: 's', capability: 'web.navigate', target: { kind: 'url', url }, args: { url: given }, time: 0 }, state).effect;
    expect(ask('https://example.org/a', 'https://example.org/a')).toBe('allow');
    expect(ask('https://evil.example/', 'https://example.org/a')).not.toBe('allow');
  });
});

describe('attack: an argument climbs out of the folder its path scope was written for', () => {
  const posix = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
  const win = { folders: { home: 'C:\\Users\\u' }, pathStyle: 'win32' as const, utcOffsetMinutes: 0 };
  const read = (scope: string, env: typeof posix | typeof win) =>
    engineRead([{ capability: 'file.read', effect: 'allow', constraints: { paths: [scope] } }], env);

  it('reads what the argument names inside the folder', () => {
    expect(read('/srv/data/${name}', posix)('/srv/data/a/b.txt', { name: 'a/b.txt' })).toBe('allow');
    expect(read('/tmp/report-${n}.txt', posix)('/tmp/report-7.txt', { n: '7' })).toBe('allow');
    expect(read('~/notes/${name}', posix)('/home/u/notes/x', { name: 'x' })).toBe('allow');
    expect(read('C:\\data\\${name}', win)('C:\\data\\x.txt', { name: 'x.txt' })).toBe('allow');
    // A whole path given as the argument is its own scope.
    expect(read('${path}', posix)('/etc/hosts', { path: '/etc/hosts' })).toBe('allow');
  });

  it.each([
    ['/srv/data/${name}', '/etc/passwd', '../../etc/passwd'],
    ['/srv/data/${name}', '/srv/other', '../other'],
    ['/tmp/report-${n}.txt', '/etc/x.txt', '../etc/x'],
    ['~/notes/${name}', '/home/u/.ssh/id_rsa', '../.ssh/id_rsa'],
  ])('does not let %s read %s through %j', (scope, target, name) => {
    expect(read(scope, posix)(target, { name, n: name })).not.toBe('allow');
  });

  it('does not let a Windows scope be left by backslashes or forward slashes', () => {
    expect(read('C:\\data\\${name}', win)('C:\\Windows\\win.ini', { name: '..\\Windows\\win.ini' })).not.toBe('allow');
    expect(read('C:\\data\\${name}', win)('C:\\Windows\\win.ini', { name: '../Windows/win.ini' })).not.toBe('allow');
  });
});
