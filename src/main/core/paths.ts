import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding SkillDesk's package.json (source checkout, install, or unpacked app). */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'skilldesk') return dir;
      } catch {
        // an unreadable package.json further down is not ours; keep walking up
      }
    }
    if (dirname(dir) === dir) throw new Error(`Cannot find SkillDesk's package.json above ${from}`);
  }
}

/** The built-in skill library shipped with the app. */
export function builtinSkillsDir(): string {
  return process.env.SKILLDESK_BUILTIN_SKILLS ?? join(packageRoot(), 'skills');
}
