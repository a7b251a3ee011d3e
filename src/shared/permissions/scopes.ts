import type { Folders } from './manifest';

/**
 * Pure scope matching for constraints: paths (with folder tokens, argument bindings and globs),
 * apps, hosts and URLs. No node:path here: both POSIX and Windows paths must be judged the
 * same way on every platform.
 */

/** Facts about the machine that path scopes need; passed in so the engine stays pure. */
export interface ScopeEnv {
  folders: Folders;
  /** How request paths are compared: Windows paths case-insensitively. */
  pathStyle: 'posix' | 'win32';
  /** Offset of local time from UTC, for `time_window`. */
  utcOffsetMinutes: number;
}

const FOLDER_TOKENS: Record<string, keyof Folders> = {
  HOME: 'home',
  USERPROFILE: 'home',
  DOCUMENTS: 'documents',
  DESKTOP: 'desktop',
  DOWNLOADS: 'downloads',
  WORKSPACE: 'workspace',
  TEMP: 'temp',
  TMP: 'temp',
};

const SLOT = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Binds `${name}` slots to argument values; undefined when a slot has no value (the scope then matches nothing). */
export function bindSlots(template: string, values: Readonly<Record<string, unknown>>): string | undefined {
  let missing = false;
  const out = template.replace(SLOT, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null || typeof v === 'object') {
      missing = true;
      return '';
    }
    return String(v);
  });
  return missing ? undefined : out;
}

/** Expands `~` and `%FOLDER%` tokens; undefined when a named folder is not configured. */
export function expandFolders(scope: string, folders: Folders): string | undefined {
  let s = scope;
  if (s === '~' || s.startsWith('~/') || s.startsWith('~\\')) {
    if (!folders.home) return undefined;
    s = folders.home + s.slice(1);
  }
  let missing = false;
  s = s.replace(/%([A-Z]+)%/g, (m, name: string) => {
    const key = FOLDER_TOKENS[name];
    const v = key ? folders[key] : undefined;
    if (!v) missing = true;
    return v ?? m;
  });
  return missing ? undefined : s;
}

/** True for `/x`, `C:\x`, `C:/x`, `\\server\share`. */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

/** `C:\A\..\b\` -> `c:/b` (win32) ; `/a/./b//c/` -> `/a/b/c`. Dot segments resolved, never above the root. */
export function normalizePath(p: string, style: ScopeEnv['pathStyle']): string {
  let s = p.replace(/\\/g, '/');
  const drive = /^[A-Za-z]:/.exec(s)?.[0] ?? '';
  s = s.slice(drive.length);
  const unc = s.startsWith('//');
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  const out = `${drive}${unc ? '//' : '/'}${parts.join('/')}`;
  return style === 'win32' || drive ? out.toLowerCase() : out;
}

/** Whether a glob scope (`*` within a segment, `**` across) matches a normalized path. */
function globMatches(glob: string, path: string): boolean {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}(/.*)?$`).test(path);
}

/**
 * Resolves a scope template to a normalized absolute scope: binds arguments, expands folders.
 * Undefined when it cannot be resolved, in which case it matches nothing (fail closed).
 */
export function resolvePathScope(scope: string, args: Readonly<Record<string, unknown>>, env: ScopeEnv): string | undefined {
  const bound = bindSlots(scope, args);
  if (bound === undefined || bound === '') return undefined;
  const expanded = expandFolders(bound, env.folders);
  if (expanded === undefined || !isAbsolutePath(expanded)) return undefined;
  return normalizePath(expanded, env.pathStyle);
}

/** Whether a path lies in a resolved scope: the scope itself, below it, or a glob match. */
export function pathInScope(path: string, resolvedScope: string, env: ScopeEnv): boolean {
  // Paths from script analysis may still say `~` or `%USERPROFILE%`.
  const expanded = expandFolders(path, env.folders);
  if (expanded === undefined || !isAbsolutePath(expanded)) return false;
  const p = normalizePath(expanded, env.pathStyle);
  if (/[*?]/.test(resolvedScope)) return globMatches(resolvedScope, p);
  if (resolvedScope === '/' || resolvedScope === '//') return p.startsWith('/');
  return p === resolvedScope || p.startsWith(`${resolvedScope}/`);
}

/** Whether resolved scope `inner` lies within resolved scope `outer` (for manifest subset checks). */
export function scopeWithin(inner: string, outer: string, env: ScopeEnv): boolean {
  if (inner === outer) return true;
  const innerBase = /[*?]/.test(inner) ? inner.slice(0, inner.search(/[*?]/)).replace(/\/[^/]*$/, '') || '/' : inner;
  if (/[*?]/.test(outer)) return !/[*?]/.test(inner) && globMatches(outer, inner);
  return pathInScope(innerBase, outer, env);
}

/** The lower-cased host of a URL, or undefined when it is not an absolute URL. */
export function urlHost(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]+\]|[^:/?#]+)/i.exec(url);
  return m?.[1]?.toLowerCase();
}

/** `example.com` matches only itself; `*.example.com` or `.example.com` also its subdomains. */
export function hostInDomain(host: string, domain: string): boolean {
  const d = domain.toLowerCase();
  if (d.startsWith('*.') || d.startsWith('.')) {
    const base = d.replace(/^\*?\./, '');
    return host === base || host.endsWith(`.${base}`);
  }
  return host === d;
}

/** Whether a URL (or a bare host) is allowed by domain and URL-prefix allowlists (either suffices). */
export function urlAllowed(url: string, domains: readonly string[] | undefined, prefixes: readonly string[] | undefined): boolean {
  const host = urlHost(url) ?? (/^[a-z0-9.-]+$/i.test(url) ? url.toLowerCase() : undefined);
  if (domains && host && domains.some((d) => hostInDomain(host, d))) return true;
  if (prefixes && prefixes.some((p) => url.toLowerCase().startsWith(p.toLowerCase()))) return true;
  return false;
}
