import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPathCanonicalizer, foldsCaseAt } from '../../src/main/services/permissions';
import type { ScopeEnv } from '../../src/shared/permissions';
import type { Primitive } from '../../src/shared/skill';
import { engineRead, fakePathFs, harness, libraryOf, skillDoc } from './permissionHarness';

/**
 * Issue 10, item 6: path scopes escape. Each test reproduces one way the issue names and checks
 * that the decision is made on the file the path really names.
 */

const base = realpathSync(mkdtempSync(join(tmpdir(), 'skilldesk-canonical-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const READ: Primitive = { action: 'read', source: 'file', path: '${path}', into: 'result' };
const SAVE: Primitive = { action: 'type_text', text: '${path}' };
const PATH_ARG = { path: { type: 'path' } };
const posix: ScopeEnv = { folders: { home: '/home/u', documents: '/home/u/Documents' }, pathStyle: 'posix', utcOffsetMinutes: 0 };
const keyboard = { capability: 'input.keyboard', effect: 'allow' };

describe('src/main/services/permissions/canonicalPaths (issue 10: path scopes escape)', () => {
  it('judges a symlink inside the scope by its target: a link to /etc/shadow is outside `notes/**`', async () => {
    mkdirSync(join(base, 'notes'));
    symlinkSync('/etc/shadow', join(base, 'notes', 'today.txt'));
    const lib = libraryOf(
      skillDoc('ed.peek', [{ capability: 'file.read', effect: 'allow', constraints: { paths: [`${base}/notes/**`] } }], [READ], PATH_ARG),
    );
    const h = harness({ library: lib, env: posix });
    const d = await h.step('ed.peek', READ, { path: join(base, 'notes', 'today.txt') });
    expect(d).toMatchObject({ effect: 'deny', code: 'permission.denied' });
    expect(d.effect === 'deny' && d.reason).toContain('/etc/shadow is outside');
    // /etc/shadow is a credential path: the audit row shows its digest, never the path (nor does its reason).
    const row = h.audit.records.at(-1)!;
    expect(row).toMatchObject({ capability: 'file.read', target: expect.stringMatching(/^sha256:[0-9a-f]{16}$/), decision: 'deny' });
    expect(JSON.stringify(row)).not.toContain('/etc/shadow');
  });

  it('runs the credential check on the target of a link: reading it asks for secrets.read on /etc/shadow', async () => {
    mkdirSync(join(base, 'docs'));
    symlinkSync('/etc/shadow', join(base, 'docs', 'report.txt'));
    const lib = libraryOf(
      skillDoc(
        'ed.peek',
        [
          { capability: 'file.read', effect: 'allow' },
          { capability: 'secrets.read', effect: 'confirm' },
        ],
        [READ],
        PATH_ARG,
      ),
    );
    const h = harness({ library: lib, env: posix, answers: ['deny'] });
    const d = await h.step('ed.peek', READ, { path: join(base, 'docs', 'report.txt') });
    expect(h.prompter.asked).toEqual([expect.objectContaining({ capability: 'secrets.read', target: '/etc/shadow' })]);
    expect(d).toMatchObject({ effect: 'deny', code: 'permission.not_confirmed' });
  });

  it('follows `..` after a link from where the link leads, as the kernel does, not from the link', async () => {
    mkdirSync(join(base, 'inside', 'sub'), { recursive: true });
    mkdirSync(join(base, 'outside', 'deep'), { recursive: true });
    symlinkSync('../../outside/deep', join(base, 'inside', 'sub', 'jump'));
    const scope = { capability: 'file.read', effect: 'allow', constraints: { paths: [`${base}/inside/**`] } };
    const h = harness({ library: libraryOf(skillDoc('ed.peek', [scope], [READ], PATH_ARG)), env: posix });
    // Lexically `inside/sub/jump/../x` is `inside/sub/x`; the kernel opens `outside/x`.
    const d = await h.step('ed.peek', READ, { path: join(base, 'inside', 'sub', 'jump') + '/../x' });
    expect(d.effect === 'deny' && d.reason).toContain(`${base}/outside/x is outside`);
    expect((await h.step('ed.peek', READ, { path: join(base, 'inside', 'sub', 'y') })).effect).toBe('allow');
  });

  it('judges a write through a dangling link by where it would create the file', async () => {
    mkdirSync(join(base, 'work'));
    symlinkSync(join(base, 'planted.sh'), join(base, 'work', 'out.txt'));
    const lib = libraryOf(
      skillDoc(
        'ed.save',
        [keyboard, { capability: 'file.write', effect: 'allow', constraints: { paths: [`${base}/work/**`] } }],
        [SAVE],
        PATH_ARG,
      ),
    );
    const h = harness({ library: lib, env: posix });
    const d = await h.step('ed.save', SAVE, { path: join(base, 'work', 'out.txt') });
    expect(d.effect === 'deny' && d.reason).toContain(`${base}/planted.sh is outside`);
  });

  it('never expands a folder token in a request: `x/%DOCUMENTS%/../../f` is read where the file system puts it', async () => {
    mkdirSync(join(base, 'x', '%DOCUMENTS%'), { recursive: true });
    const scope = { capability: 'file.read', effect: 'allow', constraints: { paths: [`${base}/x/**`] } };
    const env = { ...posix, folders: { ...posix.folders, documents: `${base}/x/home/u/Documents` } };
    const h = harness({ library: libraryOf(skillDoc('ed.peek', [scope], [READ], PATH_ARG)), env });
    const d = await h.step('ed.peek', READ, { path: `${base}/x/%DOCUMENTS%/../../f` });
    expect(d.effect === 'deny' && d.reason).toContain(`${base}/f is outside`);
    // When the token names no folder, `..` after it leads nowhere the kernel would go: fail closed.
    const missing = await h.step('ed.peek', READ, { path: `${base}/x/%DESKTOP%/../../f` });
    expect(missing).toMatchObject({ effect: 'deny', code: 'permission.path_not_canonical' });
    expect(missing.effect === 'deny' && missing.reason).toMatch(/does not exist/);
    // The pure engine agrees: the token is a name, so `../..` climbs out of x.
    const read = engineRead([{ capability: 'file.read', effect: 'allow', constraints: { paths: ['/tmp/x/**'] } }], {
      ...posix,
      folders: { documents: '/home/u/Documents' },
    });
    expect(read('/tmp/x/%DOCUMENTS%/../../f')).toBe('deny');
  });

  it('fails closed when a folder on the way cannot be examined, or links loop', () => {
    const canon = createPathCanonicalizer({
      style: 'posix',
      fs: fakePathFs({ exists: ['/srv'], errors: { '/srv/locked': 'EACCES' }, links: { '/a': '/b', '/b': '/a' } }),
    });
    expect(canon('/srv/locked/secret')).toEqual({ ok: false, reason: expect.stringMatching(/cannot be examined \(EACCES\)/) });
    expect(canon('/a/x')).toEqual({ ok: false, reason: expect.stringMatching(/more than 40 symbolic links/) });
    expect(canon('relative/notes.txt')).toEqual({ ok: false, reason: expect.stringMatching(/not an absolute path/) });
    expect(canon('~/notes.txt')).toEqual({ ok: false, reason: expect.stringMatching(/not an absolute path/) });
    // Only script analysis writes the home folder as `~` (as the shell expands it).
    expect(canon('~/notes.txt', { home: '/srv' })).toEqual({ ok: true, path: '/srv/notes.txt' });
  });

  describe('Windows forms', () => {
    const win: ScopeEnv = { folders: { home: 'C:\\Users\\u' }, pathStyle: 'win32', utcOffsetMinutes: 0 };
    const manifest = [
      { capability: 'file.read', effect: 'allow', constraints: { paths: ['C:\\Users\\u\\**'] } },
      { capability: 'file.read', effect: 'deny', constraints: { paths: ['C:\\Users\\u\\secret.txt', 'C:\\Users\\u\\Private'] } },
    ];
    const fs = fakePathFs({
      exists: ['C:\\', 'C:\\Users', 'C:\\Users\\u', 'C:\\Users\\u\\secret.txt', 'C:\\Users\\u\\Private', 'C:\\Users\\u\\notes.txt'],
      // GetFinalPathNameByHandle answers the long name for an 8.3 alias (and the namespace prefix).
      real: { 'C:\\Users\\u\\SECRET~1.TXT': '\\\\?\\C:\\Users\\u\\secret.txt', 'C:\\Users\\u\\PRIVAT~1': 'C:\\Users\\u\\Private' },
    });
    const h = harness({
      library: libraryOf(skillDoc('ed.peek', manifest, [READ], PATH_ARG)),
      env: win,
      canonicalizePath: createPathCanonicalizer({ style: 'win32', fs }),
    });

    it.each([
      ['a trailing dot', 'C:\\Users\\u\\secret.txt.'],
      ['trailing spaces', 'C:\\Users\\u\\secret.txt   '],
      ['dots and spaces', 'C:\\Users\\u\\secret.txt. .'],
      ['an 8.3 alias', 'C:\\Users\\u\\SECRET~1.TXT'],
      ['an 8.3 alias of the folder', 'C:\\Users\\u\\PRIVAT~1\\plan.docx'],
      ['another case', 'c:\\USERS\\U\\SECRET.TXT'],
      ['forward slashes and dot segments', 'C:/Users/u/tmp/../secret.txt'],
    ])('applies the deny entry to %s', async (_what, path) => {
      expect(await h.step('ed.peek', READ, { path })).toMatchObject({ effect: 'deny', code: 'permission.denied' });
    });

    it.each([
      ['an alternate data stream', 'C:\\Users\\u\\secret.txt::$DATA'],
      ['a directory stream', 'C:\\Users\\u\\Private::$INDEX_ALLOCATION\\plan.docx'],
      ['a named stream', 'C:\\Users\\u\\notes.txt:hidden'],
      ['a namespace path', '\\\\?\\C:\\Users\\u\\secret.txt'],
      ['a device path', '\\\\.\\C:\\Users\\u\\secret.txt'],
      ['an NT object path', '\\??\\C:\\Users\\u\\secret.txt'],
      ['a device name', 'C:\\Users\\u\\CON'],
      ['a device name with an extension', 'C:\\Users\\u\\nul.txt'],
      ['a drive-relative path', 'C:secret.txt'],
    ])('fails closed on %s', async (_what, path) => {
      expect(await h.step('ed.peek', READ, { path })).toMatchObject({ effect: 'deny', code: 'permission.path_not_canonical' });
    });

    it('still allows a plain file inside the scope (the denials above are not blanket)', async () => {
      expect(await h.step('ed.peek', READ, { path: 'C:\\Users\\u\\notes.txt' })).toMatchObject({ effect: 'allow' });
    });

    it('judges trailing dots and streams the same way in the pure engine', () => {
      const read = engineRead(manifest, win);
      expect(read('C:\\Users\\u\\secret.txt .')).toBe('deny');
      expect(read('C:\\Users\\u\\Private::$INDEX_ALLOCATION\\plan.docx')).toBe('deny');
      expect(read('C:\\Users\\u\\notes.txt')).toBe('allow');
    });

    it('fails closed on an 8.3 alias it cannot expand: a Windows path judged from a POSIX machine', () => {
      const canon = createPathCanonicalizer({ style: 'posix', fs: fakePathFs({}) });
      expect(canon('C:\\Users\\u\\SECRET~1.TXT')).toEqual({ ok: false, reason: expect.stringMatching(/8\.3 short name/) });
      expect(canon('C:\\Users\\u\\notes.txt.')).toEqual({ ok: true, path: 'C:\\Users\\u\\notes.txt' });
    });
  });

  describe('case-insensitive file systems (macOS)', () => {
    const manifest = [
      { capability: 'file.read', effect: 'allow', constraints: { paths: ['/Users/u/**'] } },
      { capability: 'file.read', effect: 'deny', constraints: { paths: ['/Users/u/Private'] } },
    ];
    const read = (path: string, caseInsensitive: boolean) =>
      engineRead(manifest, { folders: {}, pathStyle: 'posix', caseInsensitive, utcOffsetMinutes: 0 })(path);

    it('applies a deny entry to another spelling of the same folder where the file system folds case', () => {
      expect(read('/users/U/private/plan.txt', true)).toBe('deny');
      expect(read('/Users/u/PRIVATE/plan.txt', true)).toBe('deny');
      // Decomposed and composed accents name one file on macOS too.
      expect(read('/Users/u/Private/cafe\u0301.txt', true)).toBe('deny');
    });

    it('keeps case where the file system does: there `PRIVATE` is another folder', () => {
      expect(read('/Users/u/PRIVATE/plan.txt', false)).toBe('allow');
      expect(read('/Users/u/Private/plan.txt', false)).toBe('deny');
    });

    it('tells a case-folding volume by finding the same folder under swapped case', () => {
      const inode = (m: Record<string, number>) => (p: string) => {
        if (m[p] === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        return { ino: m[p], dev: 1 };
      };
      expect(foldsCaseAt('/Users/u', inode({ '/Users/u': 7, '/uSERS/U': 7 }))).toBe(true);
      expect(foldsCaseAt('/Users/u', inode({ '/Users/u': 7 }))).toBe(false);
      expect(foldsCaseAt(base)).toBe(false); // this Linux machine's tmp folder
    });
  });
});
