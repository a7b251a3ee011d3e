import { pathStyleFor } from './canonical';
import type { Folders } from './manifest';

/**
 * Pure scope matching for path constraints (folder tokens, argument bindings and globs); hosts
 * and URLs are in hosts.ts. No node:path here: both POSIX and Windows paths must be judged the
 * same way on every platform.
 */

/** Facts about the machine that path scopes need; passed in so the engine stays pure. */
export interface ScopeEnv {
  folders: Folders;
  /** How request paths are compared: Windows paths case-insensitively. */
  pathStyle: 'posix' | 'win32';
  /** The file system ignores case (macOS by default); Windows always does. @default false */
  caseInsensitive?: boolean;
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

/**
 * Glob and folder characters inside bound argument values are literal: a value `/tmp/*` names the
 * file `*`, and `~` or `%DOCUMENTS%` in a value is a file name, not a folder. While a scope is
 * resolved they travel as these private-use stand-ins, which neither `expandFolders` nor the glob
 * matcher reads, and are turned back into themselves when compared.
 */
const LITERAL: Record<string, string> = { '*': '\uE000', '?': '\uE001', '%': '\uE002', '~': '\uE003' };
const UNLITERAL: Record<string, string> = Object.fromEntries(Object.entries(LITERAL).map(([k, v]) => [v, k]));
const literal = (v: string) => v.replace(/[*?%~]/g, (c) => LITERAL[c]!);
/** A resolved scope as text (stand-ins for literal characters turned back). */
export const scopeText = (s: string) => s.replace(/[\uE000-\uE003]/g, (c) => UNLITERAL[c]!);

/**
 * Binds `${name}` slots to argument values; undefined when a slot has no value (the scope then
 * matches nothing). With `literalValues`, glob and folder characters of the values stay literal.
 */
export function bindSlots(template: string, values: Readonly<Record<string, unknown>>, literalValues = false): string | undefined {
  let missing = false;
  const out = template.replace(SLOT, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null || typeof v === 'object') {
      missing = true;
      return '';
    }
    return literalValues ? literal(String(v)) : String(v);
  });
  return missing ? undefined : out;
}

/** Expands `~` and `%FOLDER%` tokens of a scope template; undefined when a named folder is not configured. */
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

/** Absolute for the path style; a drive or share path counts as a Windows path (see `pathStyleFor`). */
function isAbsoluteFor(p: string, style: ScopeEnv['pathStyle']): boolean {
  return pathStyleFor(p, style) === 'win32' ? isAbsolutePath(p) : p.startsWith('/');
}

/** Whether paths compare case-insensitively: always on Windows, and where the environment says so (macOS). */
export function foldsCase(env: Pick<ScopeEnv, 'pathStyle' | 'caseInsensitive'>): boolean {
  return env.pathStyle === 'win32' || env.caseInsensitive === true;
}

/**
 * `C:\A\..\b\` -> `c:/b` (win32) ; `/a/./b//c/` -> `/a/b/c`. Dot segments resolved, never above the root.
 * A backslash is a separator only on Windows: on POSIX it is part of a file name (`a\..\b` is one
 * name), so it is never read as one there. `fold` compares case-insensitively (and, for macOS,
 * Unicode-normalisation-insensitively). @default fold: Windows paths only
 */
export function normalizePath(p: string, sessionStyle: ScopeEnv['pathStyle'], fold = sessionStyle === 'win32'): string {
  const win = pathStyleFor(p, sessionStyle) === 'win32';
  let s = win ? p.replace(/\\/g, '/') : p;
  const drive = win ? (/^[A-Za-z]:/.exec(s)?.[0] ?? '') : '';
  s = s.slice(drive.length);
  const unc = s.startsWith('//');
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  const out = `${drive}${unc ? '//' : '/'}${parts.join('/')}`;
  return fold || win ? out.normalize('NFC').toLowerCase() : out;
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
    else re += (UNLITERAL[c] ?? c).replace(/[.*?+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}(/.*)?$`).test(path);
}

const isGlob = (scope: string) => /[*?]/.test(scope);

/**
 * Resolves a scope template to a normalized absolute scope: expands the template's folders, then
 * binds arguments (their values literal: no globs, no folder tokens). Undefined when it cannot be
 * resolved, in which case it matches nothing (fail closed).
 */
export function resolvePathScope(scope: string, args: Readonly<Record<string, unknown>>, env: ScopeEnv): string | undefined {
  const expanded = expandFolders(scope, env.folders);
  if (expanded === undefined) return undefined;
  const bound = bindSlots(expanded, args, true);
  if (bound === undefined || bound === '' || !isAbsoluteFor(bound, env.pathStyle)) return undefined;
  const resolved = normalizePath(bound, env.pathStyle, foldsCase(env));
  // A value fills its slot but does not climb out of the folder written before it: with
  // `/srv/data/${name}`, `../../etc/passwd` is no scope (fail closed), not `/etc/passwd` (which the
  // path built from the same value would then fall under).
  const head = headFolder(expanded, env.pathStyle);
  if (head === undefined) return resolved;
  const dir = normalizePath(head, env.pathStyle, foldsCase(env));
  return resolved === dir || resolved.startsWith(dir.endsWith('/') ? dir : `${dir}/`) ? resolved : undefined;
}

/**
 * The folder a scope template writes before its first argument slot (up to the last separator
 * there, and before any glob character), when it writes one: `/srv/data/` of `/srv/data/${name}`,
 * `/tmp/` of `/tmp/report-${n}.txt`; undefined for `${path}` or `${dir}/x`.
 */
function headFolder(template: string, style: ScopeEnv['pathStyle']): string | undefined {
  const slot = template.search(SLOT);
  if (slot <= 0) return undefined;
  let head = template.slice(0, slot);
  const glob = head.search(/[*?]/);
  if (glob >= 0) head = head.slice(0, glob);
  const cut = Math.max(head.lastIndexOf('/'), pathStyleFor(head, style) === 'win32' ? head.lastIndexOf('\\') : -1);
  if (cut < 0) return undefined;
  const dir = head.slice(0, cut + 1);
  return isAbsoluteFor(dir, style) ? dir : undefined;
}

/** Most scopes one template may expand to from list arguments; beyond it, none (fail closed). */
const MAX_EXPANDED_SCOPES = 1000;

/**
 * Resolves a scope template whose slots may name list arguments: one scope per item (`${sources}`
 * with three paths gives three scopes), each resolved as `resolvePathScope` does; scopes that
 * cannot be resolved are left out.
 */
export function resolvePathScopes(scope: string, args: Readonly<Record<string, unknown>>, env: ScopeEnv): string[] {
  return (listBindings(scope, args) ?? []).map((b) => resolvePathScope(scope, b, env)).filter((s): s is string => s !== undefined);
}

/** `bindSlots` once per item of the list arguments the template names; undefined when a slot has no value. */
export function bindSlotsEach(template: string, values: Readonly<Record<string, unknown>>, literalValues = false): string[] | undefined {
  const bound = (listBindings(template, values) ?? []).map((b) => bindSlots(template, b, literalValues));
  return bound.length > 0 && bound.every((b) => b !== undefined) ? (bound as string[]) : undefined;
}

/** The argument sets a template stands for: one per combination of the items of the lists it names. */
function listBindings(template: string, args: Readonly<Record<string, unknown>>): Record<string, unknown>[] | undefined {
  const lists = [...new Set([...template.matchAll(SLOT)].map((m) => m[1]!))].filter((name) => Array.isArray(args[name]));
  let bindings: Record<string, unknown>[] = [{ ...args }];
  for (const name of lists) {
    bindings = bindings.flatMap((b) => (args[name] as unknown[]).map((item) => ({ ...b, [name]: item })));
    if (bindings.length > MAX_EXPANDED_SCOPES) return undefined;
  }
  return bindings;
}

/**
 * Whether a request path lies in a resolved scope: the scope itself, below it, or a glob match.
 * The request path is taken literally (`~` and `%FOLDER%` in it are file names, not folders).
 */
export function pathInScope(path: string, resolvedScope: string, env: ScopeEnv): boolean {
  if (!isAbsoluteFor(path, env.pathStyle)) return false;
  return normalizedInScope(normalizePath(path, env.pathStyle, foldsCase(env)), resolvedScope);
}

function normalizedInScope(p: string, scope: string): boolean {
  if (isGlob(scope)) return globMatches(scope, p);
  const s = scopeText(scope);
  if (s === '/' || s === '//') return p.startsWith('/');
  return p === s || p.startsWith(`${s}/`);
}

/** Whether resolved scope `inner` lies within resolved scope `outer` (for manifest subset checks). */
export function scopeWithin(inner: string, outer: string, _env: ScopeEnv): boolean {
  if (inner === outer) return true;
  const innerBase = isGlob(inner) ? inner.slice(0, inner.search(/[*?]/)).replace(/\/[^/]*$/, '') || '/' : inner;
  // Both sides are resolved scopes: compare their texts, literal characters as themselves.
  if (isGlob(outer)) return !isGlob(inner) && globMatches(outer, scopeText(inner));
  return normalizedInScope(scopeText(innerBase), outer);
}
