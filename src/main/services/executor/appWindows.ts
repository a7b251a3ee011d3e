import type { WindowInfo } from '../../../shared/ports/desktop';
import type { AppDoc, SkillLibrary } from '../../../shared/skill';

type WindowMatcher = AppDoc['windows'];

/**
 * Whether `win` belongs to the app. `process` and `class` identify the app; the profile's
 * `title` picks its main window and is applied only when `mainOnly` (dialogs have other titles).
 */
export function windowBelongsToApp(win: WindowInfo, matcher: WindowMatcher, mainOnly = false): boolean {
  const test = (pattern: string | undefined, value: string | undefined) =>
    pattern === undefined || (value !== undefined && new RegExp(pattern, 'i').test(value));
  const identity = matcher.process !== undefined || matcher.class !== undefined;
  if (!test(matcher.process, win.processName)) return false;
  if (!test(matcher.class, classOf(win))) return false;
  if (mainOnly || !identity) return test(matcher.title, win.title);
  return true;
}

/** X11 WM_CLASS is `instance.class`; profiles match either part. */
function classOf(win: WindowInfo): string | undefined {
  if (!win.className) return undefined;
  const parts = win.className.split('.');
  // `notepad.exe.notepad.exe` -> `notepad.exe`; `mousepad.Mousepad` -> `mousepad.Mousepad` (regexes may target either).
  if (parts.length % 2 === 0) {
    const half = parts.slice(0, parts.length / 2).join('.');
    if (half === parts.slice(parts.length / 2).join('.')) return half;
  }
  return win.className;
}

/** The app (among those for `platform`) whose profile matches the window, if exactly determinable. */
export function appOwningWindow(library: SkillLibrary, win: WindowInfo, platform: string): string | undefined {
  for (const app of library.apps.values()) {
    if (!app.platforms.includes(platform as AppDoc['platforms'][number])) continue;
    if (windowBelongsToApp(win, app.windows)) return app.id;
  }
  return undefined;
}
