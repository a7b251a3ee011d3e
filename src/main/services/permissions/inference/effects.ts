import type { PermissionTarget } from '../../../../shared/permissions/policy';
import { isInputDevicePath, isProfilePath, isPseudoPath, isSchedulerPath, isSecretPath, socketPath } from './paths';
import type { InferenceSink, Word } from './types';

/** Words and the effects every analyser reports the same way (file access, URLs, unknown targets). */

export type { Word } from './types';

export const lit = (text: string): Word => ({ text, dynamic: false });
export const DYNAMIC: Word = { text: '\u0000', dynamic: true };
/** Any number of words only known at run time (an unknown `"$@"`). */
export const DYNAMIC_MANY: Word = { text: '\u0000', dynamic: true, many: true };

/** A target for something only known at run time. */
export const unknown = (hint: string): PermissionTarget => ({ kind: 'unknown', hint });

/** The name of a program as invoked: its base name, lower-cased (`/usr/bin/Curl.exe` → `curl.exe`). */
export function programName(text: string): string {
  return text.replace(/^.*[\\/]/, '').toLowerCase();
}

/** A command line for evidence and targets (run-time values as `$…`), at most 160 characters. */
export function show(words: readonly Word[]): string {
  const s = words
    .map((w) => (w.dynamic ? w.text.replaceAll('\u0000', '$…') || '$…' : /\s/.test(w.text) ? `'${w.text}'` : w.text))
    .join(' ');
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

export type FileAccess = 'read' | 'write' | 'delete' | 'permissions';

const ACCESS_CAP = { read: 'file.read', write: 'file.write', delete: 'file.delete', permissions: 'file.permissions' } as const;

/**
 * Emits the capabilities of touching a path: credentials are also `secrets.read`, shell profiles
 * and files that make programs run code later `settings.write`, scheduler folders
 * `scheduled_job.create`, `/dev/tcp/...` a network send, `/dev/input/...` input capture.
 */
export function touchPath(sink: InferenceSink, access: FileAccess, w: Word, evidence: string, line?: number): void {
  if (w.dynamic && !w.text.replaceAll('\u0000', '')) {
    sink.emit(ACCESS_CAP[access], unknown('path computed at run time'), evidence, line);
    return;
  }
  const path = w.text.replaceAll('\u0000', '*');
  if (isPseudoPath(path)) return;
  const sock = socketPath(path);
  if (sock) return sink.emit('web.post', { kind: 'url', url: sock }, evidence, line);
  const target: PermissionTarget = w.dynamic ? unknown(path) : { kind: 'path', path };
  sink.emit(ACCESS_CAP[access], target, evidence, line);
  if (access === 'read') {
    if (isSecretPath(path)) sink.emit('secrets.read', target, evidence, line);
    if (isInputDevicePath(path)) sink.emit('input.capture', target, evidence, line);
  } else if (access !== 'delete') {
    if (isProfilePath(path)) sink.emit('settings.write', target, evidence, line);
    if (isSchedulerPath(path)) {
      sink.finding('persistence', `writes a scheduler entry: ${path}`);
      sink.emit('scheduled_job.create', target, evidence, line);
    }
  }
}

/** A URL word (`scheme://...`), as a target. */
export function urlOf(w: Word): PermissionTarget | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(w.text)) return { kind: 'url', url: w.text.replaceAll('\u0000', '*') };
  return undefined;
}

/** The target for a URL argument: the URL when literal, else unknown. */
export function urlTarget(w: Word | undefined, hint = 'URL computed at run time'): PermissionTarget {
  return w && !w.dynamic ? { kind: 'url', url: w.text } : unknown(hint);
}

/** Whether a word may be an option (`-x`): its first character is a dash or only known at run time. */
export function mayBeOption(w: Word): boolean {
  return w.text.startsWith('-') || w.text.startsWith('\u0000');
}

/** Concatenates words' texts (for code given as several words, as cmd's `/c` takes it). */
export function joinWords(words: readonly Word[], sep = ' '): Word {
  return { text: words.map((w) => w.text).join(sep), dynamic: words.some((w) => w.dynamic) };
}

/** A table entry by name; never an inherited property (a script naming `__proto__` or `constructor` gets nothing). */
export function entry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A list of names written as one blank-separated string (long tables stay readable and short). */
export function names(list: string): string[] {
  return list.trim().split(/\s+/);
}
