import { describe, expect, it } from 'vitest';
import { constraintsWithin, manifestWithin } from '../../../src/shared/permissions/coverage';
import { hostInDomain, urlAllowed } from '../../../src/shared/permissions/hosts';
import { normalizePath, pathInScope, resolvePathScope, type ScopeEnv } from '../../../src/shared/permissions/scopes';

const posix: ScopeEnv = {
  folders: { home: '/home/u', documents: '/home/u/Documents', workspace: '/work/ws' },
  pathStyle: 'posix',
  utcOffsetMinutes: 0,
};
const win: ScopeEnv = { folders: { home: 'C:\\Users\\U', documents: 'C:\\Users\\U\\Documents' }, pathStyle: 'win32', utcOffsetMinutes: 0 };

describe('src/shared/permissions/scopes', () => {
  it('normalizes dot segments without climbing above the root, and Windows paths case-insensitively', () => {
    expect(normalizePath('/a/./b//c/../d/', 'posix')).toBe('/a/b/d');
    expect(normalizePath('/../../etc/passwd', 'posix')).toBe('/etc/passwd');
    expect(normalizePath('C:\\Users\\U\\..\\V\\File.TXT', 'win32')).toBe('c:/users/v/file.txt');
  });

  it('matches folders, their contents, globs and argument bindings; never a sibling with the same prefix', () => {
    const docs = resolvePathScope('%DOCUMENTS%', {}, posix)!;
    expect(pathInScope('/home/u/Documents/a/b.txt', docs, posix)).toBe(true);
    expect(pathInScope('/home/u/Documents-old/x', docs, posix)).toBe(false);
    // A request path is literal: `~` there is a file name (only scopes expand folders).
    expect(pathInScope('~/Documents/x', docs, posix)).toBe(false);
    const glob = resolvePathScope('~/*.txt', {}, posix)!;
    expect(pathInScope('/home/u/a.txt', glob, posix)).toBe(true);
    expect(pathInScope('/home/u/sub/a.txt', glob, posix)).toBe(false);
    expect(pathInScope('/work/ws/deep/er/f', resolvePathScope('/work/ws/**', {}, posix)!, posix)).toBe(true);
    expect(resolvePathScope('${path}', { path: '/tmp/a' }, posix)).toBe('/tmp/a');
    expect(resolvePathScope('${path}', {}, posix)).toBeUndefined();
    expect(resolvePathScope('relative/dir', {}, posix)).toBeUndefined();
    expect(pathInScope('relative.txt', '/tmp', posix)).toBe(false);
    expect(pathInScope('c:\\users\\u\\documents\\r.docx', resolvePathScope('%DOCUMENTS%', {}, win)!, win)).toBe(true);
  });

  it('allows hosts by exact domain or wildcard, and URLs by prefix', () => {
    expect(hostInDomain('api.example.com', '*.example.com')).toBe(true);
    expect(hostInDomain('example.com', '*.example.com')).toBe(true);
    expect(hostInDomain('evilexample.com', '*.example.com')).toBe(false);
    expect(hostInDomain('api.example.com', 'example.com')).toBe(false);
    expect(urlAllowed('https://user@api.example.com:8443/x', ['api.example.com'], undefined)).toBe(true);
    expect(urlAllowed('https://api.example.com.evil.net/', ['api.example.com'], undefined)).toBe(false);
    expect(urlAllowed('https://a.example.com/v1/items', undefined, ['https://a.example.com/v1/'])).toBe(true);
  });
});

describe('src/shared/permissions/coverage', () => {
  it('holds narrower constraints within wider ones and not the reverse', () => {
    expect(constraintsWithin({ paths: ['/home/u/Documents/r'] }, { paths: ['~/Documents'] }, posix)).toBe(true);
    expect(constraintsWithin({ paths: ['~/Documents'] }, { paths: ['/home/u/Documents/r'] }, posix)).toBe(false);
    expect(constraintsWithin({}, { paths: ['/tmp'] }, posix)).toBe(false);
    expect(constraintsWithin({ apps: ['ed'] }, { apps: ['ed', 'xterm'] }, posix)).toBe(true);
    expect(constraintsWithin({ domains: ['api.example.com'] }, { domains: ['*.example.com'] }, posix)).toBe(true);
    expect(constraintsWithin({ domains: ['*.example.com'] }, { domains: ['api.example.com'] }, posix)).toBe(false);
    expect(constraintsWithin({ rate_limit: { count: 1, per_seconds: 60 } }, { rate_limit: { count: 5, per_seconds: 60 } }, posix)).toBe(
      true,
    );
    expect(constraintsWithin({}, { rate_limit: { count: 5, per_seconds: 60 } }, posix)).toBe(false);
  });

  it("requires allow entries of a callee to be covered by allow entries of the caller, and respects the caller's denies", () => {
    const caller = {
      manifest: [
        { capability: 'file.*', effect: 'confirm' as const },
        { capability: 'web.post', effect: 'deny' as const },
      ],
      values: {},
    };
    expect(manifestWithin({ manifest: [{ capability: 'file.read', effect: 'confirm' }], values: {} }, caller, posix)).toEqual([]);
    expect(manifestWithin({ manifest: [{ capability: 'file.read', effect: 'allow' }], values: {} }, caller, posix)[0]).toMatch(
      /not within any allow entry/,
    );
    expect(manifestWithin({ manifest: [{ capability: 'web.post', effect: 'confirm' }], values: {} }, caller, posix)[0]).toMatch(
      /not within/,
    );
    const wide = {
      manifest: [
        { capability: '*', effect: 'allow' as const },
        { capability: 'secrets.read', effect: 'deny' as const },
      ],
      values: {},
    };
    expect(manifestWithin({ manifest: [{ capability: 'secrets.*', effect: 'allow' }], values: {} }, wide, posix)[0]).toMatch(
      /escape the caller's deny secrets\.read/,
    );
  });
});
