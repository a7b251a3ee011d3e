import { randomUUID } from 'node:crypto';
import type { Desktop } from '../../shared/ports/desktop';
import type { Grounder } from '../../shared/ports/grounding';
import type { PermissionPrompter } from '../../shared/ports/prompter';
import { TerminalPrompter } from '../services/permissions';
import { createRecordingDesktop } from '../services/desktop/RecordingDesktop';
import type { PlaywrightBrowserOptions } from '../services/browser';
import type { RemoteDesktopOptions } from '../services/desktopHost';
import { createLlmClient, type LlmClient } from '../services/llm';
import { openStore } from '../services/store';
import { Core, type CoreOptions } from './Core';
import { modelSettings } from './modelSettings';
import { corePermissions } from './permissions';
import { readDefaultApps } from './settings';
import { SqliteRunRepository } from './SqliteRunRepository';

export interface NodeCoreOptions {
  dataDir: string;
  /** Whether a person can answer permission prompts on this terminal. */
  interactive: boolean;
  builtinSkillsDir?: string;
  /** Who answers permission prompts: the terminal, the page (host mode) or native dialogs (Electron). @default the terminal (deny when there is no TTY) */
  prompter?: PermissionPrompter;
  /** Path of a better-sqlite3 addon built for the current runtime (Electron). */
  nativeBinding?: string;
  /** Drive the desktop of a desktop host (`skilldesk desktop-host`) instead of this machine's. */
  desktopHost?: RemoteDesktopOptions;
  /**
   * SkillDesk's browser for web skills. @default the system Chromium, headless, or what
   * `SKILLDESK_CHROMIUM` (its path) and `SKILLDESK_BROWSER_CDP` (a loopback DevTools endpoint to
   * attach to) say
   */
  browser?: PlaywrightBrowserOptions;
  overrides?: Partial<CoreOptions>;
}

/**
 * The composition root for shells that run under Node (CLI, host mode): the SQLite store in the
 * data folder, nut.js/X11 desktop adapters built lazily, the recording desktop for dry runs,
 * and the policy mediator (deny by default, prompts, audit) in front of every primitive.
 */
export async function createNodeCore(opts: NodeCoreOptions): Promise<Core> {
  const store = openStore({ dataDir: opts.dataDir, ...(opts.nativeBinding && { nativeBinding: opts.nativeBinding }) });
  const sessionId = randomUUID();
  const permissions = corePermissions({ dataDir: opts.dataDir, prompter: opts.prompter ?? new TerminalPrompter() });
  const grounder = lazyGrounder(() => createLlmClient('grounder', modelSettings(store.db)));
  const core: Core = new Core({
    dataDir: opts.dataDir,
    sessionId,
    db: store.db,
    ...(opts.builtinSkillsDir && { builtinSkillsDir: opts.builtinSkillsDir }),
    createDesktop: async () => {
      if (opts.desktopHost) return (await import('../services/desktopHost')).connectDesktopHost(opts.desktopHost);
      return (await import('../services/desktop')).createDesktop();
    },
    // A dry run against a desktop host plans for the host's platform (its app implementations).
    createDryRunDesktop: async () => createRecordingDesktopSync(opts.desktopHost ? (await core.desktop()).platform : undefined),
    createMediator: permissions.createMediator,
    createBrowser: async (o) =>
      (await import('../services/browser')).openPlaywrightBrowser({
        ...(opts.browser ?? browserFromEnv(process.env)),
        ...(o?.cookies && { cookies: o.cookies }),
      }),
    sessionGrants: permissions.sessionGrants,
    runs: new SqliteRunRepository(store.db, sessionId),
    grounder,
    // Read at each run, so a default app chosen in Settings applies to the next run.
    defaultApps: () => readDefaultApps(store.db),
    close: () => {
      void grounder.close();
      store.close();
    },
    ...opts.overrides,
  });
  return core;
}

/** Browser options from the environment (`SKILLDESK_CHROMIUM`, `SKILLDESK_BROWSER_CDP`, `SKILLDESK_BROWSER_HEADED=1` to show it). */
function browserFromEnv(env: NodeJS.ProcessEnv): PlaywrightBrowserOptions {
  return {
    ...(env.SKILLDESK_CHROMIUM && { executablePath: env.SKILLDESK_CHROMIUM }),
    ...(env.SKILLDESK_BROWSER_CDP && { cdpEndpoint: env.SKILLDESK_BROWSER_CDP }),
    ...(env.SKILLDESK_BROWSER_HEADED === '1' && { headless: false }),
  };
}

// A static import: the bundler leaves a relative `require()` unresolved in out/main, where
// `../services/desktop` does not exist. The recording desktop loads nothing native.
function createRecordingDesktopSync(platform?: Desktop['platform']) {
  return createRecordingDesktop(platform ? { platform } : {}).desktop;
}

/**
 * Grounding for `text`/`accessibility` targets and `text_visible` waits: on Linux the AT-SPI
 * accessibility tree first (GTK and Qt apps; Wine windows are skipped at once), then offline OCR,
 * then the configured grounder model when there is one. Built on first use: the tesseract worker
 * costs about a second and most runs never click a label.
 */
function lazyGrounder(visionClient: () => LlmClient | undefined): Grounder & { close(): Promise<void> } {
  let built: Promise<Grounder & { close(): Promise<void> }> | undefined;
  const grounder = () =>
    (built ??= import('../services/grounding').then((g) => {
      const vision = visionClient();
      return g.createGrounder({ accessibility: process.platform === 'linux', ocr: true, ...(vision && { vision }) });
    }));
  return {
    locate: async (target, ctx) => (await grounder()).locate(target, ctx),
    inspect: async (query, ctx) => {
      const g = await grounder();
      return g.inspect ? g.inspect(query, ctx) : { supported: false, reason: 'no accessibility grounder is configured' };
    },
    // A dialog's whole text (which interruption it is; what an unknown one says).
    readText: async (ctx) => {
      const g = await grounder();
      return g.readText ? g.readText(ctx) : '';
    },
    close: async () => {
      if (built) await (await built).close();
    },
  };
}
