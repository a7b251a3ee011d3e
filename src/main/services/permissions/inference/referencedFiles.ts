import { createHash } from 'node:crypto';
import type { PermissionTarget } from '../../../../shared/permissions/policy';
import type { ReferencedFile, ScriptReader } from './types';

/**
 * What an analysis depends on besides the script text: the files it read (followed scripts) and
 * the files whose absence it relied on (a local `json.py` would shadow Python's json module).
 * A result holds only while they are unchanged, so they are hashed at analysis time and checked
 * again just before the script runs.
 */

/** The digest recorded for a file that must still not exist. */
export const ABSENT = 'absent';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Referenced files whose content changed (or appeared, or vanished) since the analysis. */
export function changedReferencedFiles(files: readonly ReferencedFile[], reader: ScriptReader): string[] {
  return files
    .filter((f) => {
      const text = reader.read(f.path);
      return f.sha256 === ABSENT ? text !== undefined : text === undefined || sha256(text) !== f.sha256;
    })
    .map((f) => f.path);
}

/** A glob-ish path (`*` for parts only known at run time) as a matcher. */
function pathMatcher(pattern: string): (path: string) => boolean {
  if (!pattern.includes('*')) return (p) => p === pattern;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (p) => re.test(p);
}

/**
 * Writes the analysed scripts make, resolved, so that a script writing a file it (or a script it
 * runs) then executes is caught: that file is analysed as it is now, not as it will be.
 */
export class WriteLog {
  private readonly writes: { matches: (path: string) => boolean; shown: string; anywhere: boolean }[] = [];

  record(target: PermissionTarget, resolve: (path: string) => string): void {
    if (target.kind === 'path') this.writes.push({ matches: pathMatcher(resolve(target.path)), shown: target.path, anywhere: false });
    else if (target.kind === 'unknown') {
      const hint = target.hint ?? '';
      const glob = /[/\\]/.test(hint) ? resolve(hint) : undefined;
      this.writes.push({ matches: glob ? pathMatcher(glob) : () => true, shown: hint || 'a path computed at run time', anywhere: !glob });
    }
  }

  /**
   * The write (as shown to the user) that may change `path`, if any. A write to a path known
   * nothing about counts against files the script runs, not against files it relies on being
   * absent (every import would otherwise fail closed next to any computed write).
   */
  find(path: string, absent: boolean): string | undefined {
    return this.writes.find((w) => w.matches(path) && !(absent && w.anywhere))?.shown;
  }
}
