/**
 * The pure half of path canonicalisation: what can be decided about a request path without
 * the file system. Request paths are taken literally: `%DOCUMENTS%` or `~` in a request is a
 * file name to the operating system, so it is never expanded here (folder tokens belong to
 * manifest scopes only). Windows forms the Win32 layer rewrites or that name something other
 * than a file (trailing dots and spaces, alternate data streams, device and namespace paths,
 * reserved device names) are normalised or refused, so a deny entry cannot be stepped around
 * by spelling. The file-system half (symlinks, 8.3 names) is in
 * src/main/services/permissions/canonicalPaths.ts.
 */

export type PathStyle = 'posix' | 'win32';

/** A path ready for a decision, or why it cannot be judged (the request is then denied). */
export type CanonicalPath = { ok: true; path: string } | { ok: false; reason: string };

const fail = (reason: string): CanonicalPath => ({ ok: false, reason });

/** CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript digits Windows also accepts), CONIN$, CONOUT$: devices, not files. */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** An 8.3 short-name alias such as `DOCUME~1` or `PROGRA~2.TXT`: another spelling of a long name. */
export function isShortNameAlias(component: string): boolean {
  return /^[^.~\s]{1,6}~\d{1,6}(\.[^.\s]{0,3})?$/i.test(component);
}

/** True when a Windows path starts with a device or namespace prefix: `\\?\`, `\\.\`, `\??\`. */
function isDevicePath(p: string): boolean {
  return /^[\\/]{2}[?.][\\/]/.test(p) || /^[\\/]\?\?[\\/]/.test(p);
}

/**
 * Validates a request path and rewrites it the way the operating system would before touching
 * the file system. POSIX: the path must be absolute; `.` and `..` are kept (after a symlink,
 * `..` leaves the link's target, so only the file-system step may resolve them). Windows: the
 * Win32 rules are applied here (`..` is resolved lexically, trailing dots and spaces dropped)
 * and anything that is not a plain file path fails.
 *
 * @param home replaces a leading `~` — only for paths written in a shell's notation (script
 *   analysis writes the home folder as `~`, as the shell would expand it); never for paths a
 *   step hands to the file system as they are.
 */
export function prepareRequestPath(raw: string, style: PathStyle, home?: string): CanonicalPath {
  if (raw.length === 0) return fail('the path is empty');
  // A newline or NUL in a path is how one string is made to mean two things: refuse it.
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20)) return fail(`the path ${JSON.stringify(raw)} contains control characters`);
  let p = raw;
  if (home !== undefined && (p === '~' || p.startsWith('~/') || (style === 'win32' && p.startsWith('~\\')))) p = home + p.slice(1);
  return style === 'win32' ? prepareWin32(p, raw) : preparePosix(p, raw);
}

function preparePosix(p: string, raw: string): CanonicalPath {
  if (!p.startsWith('/')) return fail(`\`${raw}\` is not an absolute path: the folder it is relative to is not known when it is judged`);
  return { ok: true, path: p };
}

function prepareWin32(p: string, raw: string): CanonicalPath {
  if (isDevicePath(p)) return fail(`\`${raw}\` is a device or namespace path (\\\\?\\, \\\\.\\), not a plain file path`);
  const s = p.replace(/\//g, '\\');
  let root: string;
  let rest: string;
  const drive = /^([A-Za-z]):\\/.exec(s);
  const unc = /^\\\\([^\\]+)\\([^\\]+)(?:\\|$)/.exec(s);
  if (drive) {
    root = `${drive[1]!.toUpperCase()}:\\`;
    rest = s.slice(3);
  } else if (unc) {
    root = `\\\\${unc[1]}\\${unc[2]}\\`;
    rest = s.slice(unc[0].length);
    const bad = [unc[1]!, unc[2]!].find((c) => /[:*?"<>|]/.test(c) || c === '.' || c === '..');
    if (bad !== undefined) return fail(`\`${raw}\` names an invalid server or share \`${bad}\``);
  } else {
    return fail(`\`${raw}\` is not an absolute Windows path (a drive such as C:\\ or a share such as \\\\server\\share)`);
  }
  const parts: string[] = [];
  for (const component of rest.split('\\')) {
    if (component === '' || component === '.') continue;
    if (component === '..') {
      parts.pop();
      continue;
    }
    if (component.includes(':'))
      return fail(`\`${raw}\` names an alternate data stream (\`${component}\`): streams are not files a scope can judge`);
    if (/[*?"<>|]/.test(component)) return fail(`\`${raw}\` has a character Windows does not allow in a file name (\`${component}\`)`);
    // Win32 drops trailing dots and spaces: `secret.txt. ` opens `secret.txt`.
    const name = component.replace(/[. ]+$/, '');
    if (name === '') return fail(`\`${raw}\` has a component made only of dots and spaces (\`${component}\`)`);
    if (RESERVED_NAME.test(name.replace(/\..*$/, '').trimEnd())) return fail(`\`${raw}\` names the device \`${component}\`, not a file`);
    parts.push(name);
  }
  return { ok: true, path: root + parts.join('\\') };
}

/**
 * The style a path is judged in: a drive (`C:\\`) or share (`\\\\server`) path is a Windows path
 * even where the session is POSIX (a Windows desktop driven from here, a dry run of a Windows
 * skill): on POSIX it could only be a relative file name, which nothing would judge.
 */
export function pathStyleFor(p: string, style: PathStyle): PathStyle {
  return style === 'posix' && (/^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')) ? 'win32' : style;
}

/**
 * Lexical canonical form, for judging a path when the file system is not consulted (the pure
 * engine, simulation): `prepareRequestPath` then `.` and `..` resolved. Never expands tokens.
 */
export function lexicalCanonicalPath(raw: string, sessionStyle: PathStyle): CanonicalPath {
  const style = pathStyleFor(raw, sessionStyle);
  const prepared = prepareRequestPath(raw, style);
  if (!prepared.ok || style === 'win32') return prepared;
  const parts: string[] = [];
  for (const seg of prepared.path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return { ok: true, path: `/${parts.join('/')}` };
}
