import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';
import {
  isShortNameAlias,
  pathStyleFor,
  prepareRequestPath,
  type CanonicalPath,
  type PathStyle,
} from '../../../shared/permissions/canonical';

/**
 * The file-system half of path canonicalisation (the pure half is
 * src/shared/permissions/canonical.ts): every path a decision is about is first turned into the
 * file it really names, so a scope is judged on where a read or write lands, not on how the path
 * was spelt.
 *
 * - POSIX: the path is walked component by component as the kernel walks it; every symbolic link
 *   met is replaced by its target (also a dangling one: writing through it creates the target),
 *   and `..` leaves the directory actually reached. What does not exist yet is appended as written.
 * - Windows: `realpath` of the longest existing prefix. Node's `realpathSync.native` is
 *   GetFinalPathNameByHandleW there, which also turns 8.3 aliases (`DOCUME~1`) into long names
 *   and follows symlinks and junctions; it stands in for GetLongPathName, which Node does not
 *   expose. It can only run on Windows: tests inject a `PathFs` that behaves like one.
 *
 * Where the walk cannot be sure (a folder it may not enter, a link loop, `..` after a component
 * that does not exist) the path fails: the mediator denies the step, saying why.
 */

/** What canonicalisation asks of the file system. Errors carry Node's `code` (`ENOENT`, `EACCES`...). */
export interface PathFs {
  lstat(path: string): { isSymbolicLink(): boolean };
  readlink(path: string): string;
  /** The final path of an existing file. */
  realpath(path: string): string;
}

/** This machine's file system. */
export const nodePathFs: PathFs = {
  lstat: (p) => lstatSync(p),
  readlink: (p) => readlinkSync(p),
  realpath: (p) => realpathSync.native(p),
};

/**
 * Turns a request path into the canonical path decisions are made on.
 * `home` replaces a leading `~` (only for paths in a shell's notation, i.e. from script analysis).
 */
export type PathCanonicalizer = (raw: string, opts?: { home?: string }) => CanonicalPath;

/** Symbolic links followed before the walk gives up (Linux's own limit). */
const MAX_LINKS = 40;

const fail = (reason: string): CanonicalPath => ({ ok: false, reason });

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/**
 * A canonicaliser for a session whose paths are `style`, on the file system `fs` (this machine's
 * by default). A Windows path in a POSIX session (a dry run of a Windows skill, a Windows desktop
 * driven from here) names a file on another machine: it gets the Win32 rules but no file-system
 * step, and an 8.3 alias in it, which only that machine could expand, fails.
 */
export function createPathCanonicalizer(o: { style: PathStyle; fs?: PathFs }): PathCanonicalizer {
  const fs = o.fs ?? nodePathFs;
  return (raw, opts = {}) => {
    const style = pathStyleFor(raw, o.style);
    const prepared = prepareRequestPath(raw, style, opts.home);
    if (!prepared.ok) return prepared;
    if (style === 'posix') return resolvePosix(prepared.path, fs);
    if (o.style === 'win32') return resolveWin32(prepared.path, fs);
    const alias = prepared.path.split('\\').find(isShortNameAlias);
    return alias
      ? fail(
          `\`${raw}\` has the 8.3 short name \`${alias}\`, which only the Windows machine holding it can expand to the name it stands for`,
        )
      : prepared;
  };
}

function resolvePosix(path: string, fs: PathFs): CanonicalPath {
  const pending = path.split('/');
  let cur = '/';
  let missing: string | undefined;
  let links = 0;
  while (pending.length) {
    const seg = pending.shift()!;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (missing) return fail(`\`..\` follows \`${missing}\`, which does not exist, so where \`${path}\` leads cannot be told`);
      cur = posix.dirname(cur);
      continue;
    }
    const next = posix.join(cur, seg);
    if (missing) {
      cur = next;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = fs.lstat(next).isSymbolicLink();
    } catch (err) {
      const code = errCode(err);
      if (code === 'ENOENT') {
        missing = next;
        cur = next;
        continue;
      }
      return fail(`cannot resolve \`${path}\`: \`${next}\` cannot be examined (${code}), so the file it names is not known`);
    }
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) return fail(`cannot resolve \`${path}\`: more than ${MAX_LINKS} symbolic links (a loop?)`);
    let target: string;
    try {
      target = fs.readlink(next);
    } catch (err) {
      return fail(`cannot resolve \`${path}\`: the link \`${next}\` cannot be read (${errCode(err)})`);
    }
    // The link's target replaces it: absolute from the root, relative from the link's folder.
    if (target.startsWith('/')) cur = '/';
    pending.unshift(...target.split('/'));
  }
  return { ok: true, path: cur };
}

function resolveWin32(path: string, fs: PathFs): CanonicalPath {
  const root = /^[A-Z]:\\|^\\\\[^\\]+\\[^\\]+\\/.exec(path)?.[0];
  if (!root) return fail(`\`${path}\` has no drive or share`);
  const parts = path.slice(root.length).split('\\').filter(Boolean);
  for (let k = parts.length; k >= 0; k--) {
    const candidate = root + parts.slice(0, k).join('\\');
    let real: string;
    try {
      real = fs.realpath(candidate);
    } catch (err) {
      const code = errCode(err);
      if (code !== 'ENOENT') return fail(`cannot resolve \`${path}\`: \`${candidate}\` cannot be examined (${code})`);
      if (k > 0 && isDanglingLink(candidate, fs))
        return fail(`\`${candidate}\` is a link to something that does not exist; a write through it would land elsewhere`);
      continue;
    }
    const joined = win32.join(withoutNamespace(real), ...parts.slice(k));
    // What realpath returned is judged like any request path (it may be a UNC or namespace form).
    return prepareRequestPath(joined, 'win32');
  }
  return fail(`cannot resolve \`${path}\`: not even \`${root}\` exists`);
}

function isDanglingLink(p: string, fs: PathFs): boolean {
  try {
    return fs.lstat(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** `\\?\C:\x` -> `C:\x`, `\\?\UNC\srv\share` -> `\\srv\share` (what GetFinalPathNameByHandle may return). */
function withoutNamespace(p: string): string {
  if (/^\\\\\?\\UNC\\/i.test(p)) return `\\\\${p.slice(8)}`;
  if (/^\\\\\?\\[A-Za-z]:/.test(p)) return p.slice(4);
  return p;
}

/**
 * Whether the file system holding `dir` ignores case: the same folder is found under its name with
 * the case of every letter swapped (macOS volumes usually; case-sensitive APFS does not).
 */
export function foldsCaseAt(dir: string, stat: (p: string) => { ino: number; dev: number } = statSync): boolean {
  const swapped = [...dir].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (swapped === dir) return false;
  try {
    const a = stat(dir);
    const b = stat(swapped);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}
