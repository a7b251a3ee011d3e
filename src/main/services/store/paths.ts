import { homedir } from 'node:os';
import { posix, resolve, win32 } from 'node:path';

/** The SQLite file's name inside the data dir. */
export const STORE_FILE_NAME = 'skilldesk.db';

/** What `defaultDataDir` looks at; injectable so every OS's rule can be tested on one machine. */
export interface DataDirContext {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default os.homedir() */
  home?: string;
}

/**
 * The per-OS app-data folder: `%APPDATA%\SkillDesk` on Windows, `~/Library/Application Support/SkillDesk`
 * on macOS, `$XDG_DATA_HOME/skilldesk` or `~/.local/share/skilldesk` elsewhere. `SKILLDESK_DATA_DIR` overrides.
 */
export function defaultDataDir(ctx: DataDirContext = {}): string {
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const home = ctx.home ?? homedir();
  if (env.SKILLDESK_DATA_DIR) return platform === 'win32' ? win32.resolve(env.SKILLDESK_DATA_DIR) : resolve(env.SKILLDESK_DATA_DIR);
  switch (platform) {
    case 'win32':
      return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'SkillDesk');
    case 'darwin':
      return posix.join(home, 'Library', 'Application Support', 'SkillDesk');
    default:
      // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
      return env.XDG_DATA_HOME && posix.isAbsolute(env.XDG_DATA_HOME)
        ? posix.join(env.XDG_DATA_HOME, 'skilldesk')
        : posix.join(home, '.local', 'share', 'skilldesk');
  }
}

/** The store file inside a data dir. */
export function storeFile(dataDir: string): string {
  return resolve(dataDir, STORE_FILE_NAME);
}
