import type { WindowInfo } from '../../../shared/ports/desktop';
import type { AppDoc, SkillLibrary } from '../../../shared/skill';

type WindowMatcher = AppDoc['windows'];

/**
 * Whether `win` belongs to the app. `process` and `class` identify the app; the profile's
 * `title` picks its main window and is applied only when `mainOnly` (dialogs have other titles).
 * A website has no windows of its own (SkillDesk's browser shows it): none belongs to it.
 */
export function windowBelongsToApp(win: WindowInfo, matcher: WindowMatcher, mainOnly = false): boolean {
  if (!matcher) return false;
  const test = (pattern: string | undefined, values: readonly (string | undefined)[]) =>
    pattern === undefined || values.some((v) => v !== undefined && new RegExp(pattern, 'i').test(v));
  const identity = matcher.process !== undefined || matcher.class !== undefined;
  if (!test(matcher.process, [win.processName])) return false;
  if (!test(matcher.class, classNames(win))) return false;
  if (mainOnly || !identity) return test(matcher.title, [win.title]);
  return true;
}

/** X11 WM_CLASS is `instance.class` (`mousepad.Mousepad`, `notepad.exe.notepad.exe`): profiles may match either part or the whole. */
function classNames(win: WindowInfo): string[] {
  const full = win.className;
  if (!full) return [];
  const names = [full];
  for (let i = full.indexOf('.'); i > 0; i = full.indexOf('.', i + 1)) names.push(full.slice(0, i), full.slice(i + 1));
  return names;
}

/** The app (among those for `platform`) whose profile matches the window, if exactly determinable. */
export function appOwningWindow(library: SkillLibrary, win: WindowInfo, platform: string): string | undefined {
  for (const app of library.apps.values()) {
    if (!app.platforms.includes(platform as AppDoc['platforms'][number])) continue;
    if (windowBelongsToApp(win, app.windows)) return app.id;
  }
  return undefined;
}
