import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BrowserCookie, BrowserSession } from '../../shared/ports/browser';
import type { Desktop } from '../../shared/ports/desktop';
import type { Grounder } from '../../shared/ports/grounding';
import type { ActionMediator } from '../../shared/ports/mediation';
import type { RunDetail, RunResult, RunSummary } from '../../shared/run';
import { isWebApp, type CompositionGraph, type SkillLibrary } from '../../shared/skill';
import { hostPlatform, unavailableDesktop } from '../services/desktop';
import { GraphExecutor, type RunJournal, type RunRequest } from '../services/executor';
import type { LoadedLibrary } from '../services/library/YamlLibraryLoader';
import type { StoreDb } from '../services/store';
import { builtinSkillsDir, packageRoot } from './paths';
import type { SessionGrants } from './permissions';
import { skillReviews } from './reviews';
import { storedCompositionGraph } from './composition';
import { loadCheckedLibrary, saveUserSkill, type SkillSaveInput } from './skills';
import { loadReliability, type ReliabilityFigures } from './reliability';

export interface RunFilter {
  limit?: number;
  skill?: string;
  status?: string;
}

/** Persistent runs: written through the journal, read back for `runs` and the UI. */
export interface RunRepository {
  journal: RunJournal;
  list(filter: RunFilter): RunSummary[];
  /** By id or unique id prefix. */
  get(idOrPrefix: string): RunDetail | undefined;
}

/** How the core is assembled; every side effect is a factory so shells choose their adapters. */
export interface CoreOptions {
  dataDir: string;
  /** @default the `skills/` folder shipped with the app */
  builtinSkillsDir?: string;
  /** User skills override built-ins with the same id. @default `<dataDir>/skills` */
  userSkillsDir?: string;
  sessionId?: string;
  /** Builds the live desktop on the first live run (nut.js needs a display). */
  createDesktop: () => Promise<Desktop>;
  /** The recording desktop used for dry runs (for the platform of the live desktop). */
  createDryRunDesktop: () => Desktop | Promise<Desktop>;
  /**
   * Opens SkillDesk's browser for web skills, on the first web step (one per core, closed with
   * it); web steps fail without it, saying so.
   */
  createBrowser?: (o?: { cookies?: BrowserCookie[] }) => Promise<BrowserSession>;
  /** The mediator for a run; dry runs get the same one so denials show up before anything is touched. */
  createMediator: (core: Core) => ActionMediator;
  /** Grants answered "allow for this session" by the mediator's session, when it keeps one. */
  sessionGrants?: SessionGrants;
  /** Where runs are recorded (the SQLite store); runs are not kept when absent. */
  runs?: RunRepository;
  /** The open SQLite store (memory, audit, grants, settings); absent in purely in-memory cores. */
  db?: StoreDb;
  /** Releases what the factories opened (the store). */
  close?: () => void;
  grounder?: Grounder;
  /** Configured default app per domain interface. */
  defaultApps?: () => Record<string, string>;
  /**
   * Where the reliability benchmark's figures are looked for, first found wins.
   * @default [`<dataDir>/reliability.json`, `<app>/bench/results/reliability.json`]
   */
  reliabilityFiles?: string[];
}

/**
 * The application core shared by every shell (CLI, host mode, Electron): the library,
 * the executor wired to the desktop, mediator and journal.
 */
export class Core {
  readonly sessionId: string;
  private libraryPromise?: Promise<LoadedLibrary>;
  private desktopPromise?: Promise<Desktop>;
  private browserPromise?: Promise<BrowserSession>;

  constructor(readonly options: CoreOptions) {
    this.sessionId = options.sessionId ?? randomUUID();
  }

  /** The store's connection, for services that keep their own tables (memory, audit, settings). */
  get db(): StoreDb | undefined {
    return this.options.db;
  }

  /** This session's grants ("allow for this session"); none when the mediator keeps no session. */
  get sessionGrants(): SessionGrants {
    return this.options.sessionGrants ?? { list: () => [], revoke: () => false };
  }

  get userSkillsDir(): string {
    return this.options.userSkillsDir ?? join(this.options.dataDir, 'skills');
  }

  get builtinSkillsDir(): string {
    return this.options.builtinSkillsDir ?? builtinSkillsDir();
  }

  /** The library, loaded once; `reloadLibrary` re-reads the files. */
  loadLibrary(): Promise<LoadedLibrary> {
    this.libraryPromise ??= loadCheckedLibrary({
      builtinDir: this.builtinSkillsDir,
      userDir: this.userSkillsDir,
      reviews: skillReviews(this.options.db),
    });
    return this.libraryPromise;
  }

  reloadLibrary(): Promise<LoadedLibrary> {
    this.libraryPromise = undefined;
    return this.loadLibrary();
  }

  /**
   * Installs a skill in the user folder through the same checked load as startup (see
   * `saveUserSkill`), then reloads the library so the new skill is the one that runs.
   */
  async saveUserSkill(input: SkillSaveInput, o: { savedBy?: string } = {}): Promise<{ path: string; id: string }> {
    const saved = await saveUserSkill({ builtinDir: this.builtinSkillsDir, userDir: this.userSkillsDir }, input, o);
    await this.reloadLibrary();
    return saved;
  }

  /** The live desktop, built on first use. */
  desktop(): Promise<Desktop> {
    this.desktopPromise ??= this.options.createDesktop();
    return this.desktopPromise;
  }

  /** Runs a skill (live, or dry with the recording desktop). */
  /** The composition graph (or the part touching `app`), from the store when there is one (rebuilt when the library changes). */
  async compositionGraph(app?: string): Promise<CompositionGraph> {
    return storedCompositionGraph((await this.loadLibrary()).library, this.options.db, app);
  }

  /** SkillDesk's browser, opened on first use (again after a failed attempt); undefined when none is configured. */
  browser(): Promise<BrowserSession> | undefined {
    return this.openBrowser();
  }

  /**
   * SkillDesk's browser for a person to use (a demonstration): the open one when it is shown; one
   * opened hidden (a web skill ran first, and web skills run headless) is closed and opened again
   * as `createBrowser` now opens it, with its cookies (a sign-in, a cart). Undefined when no
   * browser is configured.
   */
  async shownBrowser(): Promise<BrowserSession | undefined> {
    const opening = this.browserPromise;
    const open = opening && (await opening.catch(() => undefined));
    if (open?.visible !== false) return this.browser();
    const cookies = await open.cookies?.().catch(() => undefined);
    if (this.browserPromise === opening) this.browserPromise = undefined;
    await open.close();
    return this.openBrowser(cookies && { cookies });
  }

  private openBrowser(o?: { cookies?: BrowserCookie[] }): Promise<BrowserSession> | undefined {
    const open = this.options.createBrowser;
    if (!open) return undefined;
    if (!this.browserPromise) {
      const opening = open(o);
      this.browserPromise = opening;
      opening.catch(() => {
        if (this.browserPromise === opening) this.browserPromise = undefined;
      });
    }
    return this.browserPromise;
  }

  /** Runs a skill (live, or dry with the recording desktop); a website's skills run with no desktop at all. */
  async runSkill(request: RunRequest): Promise<RunResult> {
    const { library } = await this.loadLibrary();
    const desktop = request.dryRun
      ? await this.options.createDryRunDesktop()
      : runsOnWebsite(library, request)
        ? unavailableDesktop(hostPlatform(), `\`${request.skill}\` runs on a website: it drives SkillDesk's browser, not the desktop`)
        : await this.desktop();
    const screenshotDir = join(this.options.dataDir, 'screenshots');
    const executor = new GraphExecutor({
      library,
      desktop,
      sessionId: this.sessionId,
      mediator: this.options.createMediator(this),
      ...(this.options.runs && { journal: this.options.runs.journal }),
      ...(this.options.grounder && { grounder: this.options.grounder }),
      ...(this.options.defaultApps && { defaultApps: this.options.defaultApps() }),
      ...(this.options.createBrowser && { browser: () => this.browser()! }),
      screenshotDir,
      saveScreenshot: async (path, png) => {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, png);
      },
    });
    return executor.run(request);
  }

  listRuns(filter: RunFilter = {}): RunSummary[] {
    return this.options.runs?.list(filter) ?? [];
  }

  getRun(idOrPrefix: string): RunDetail | undefined {
    return this.options.runs?.get(idOrPrefix);
  }

  /** Per-skill success rates measured by the reliability benchmark, read afresh (the file is small and may be rewritten). */
  reliability(): ReliabilityFigures {
    return loadReliability(
      this.options.reliabilityFiles ?? [
        join(this.options.dataDir, 'reliability.json'),
        join(packageRoot(), 'bench', 'results', 'reliability.json'),
      ],
    );
  }

  /** Releases the desktop, the store and the browser; resolves once the browser is closed. */
  close(): Promise<void> {
    // The live desktop holds an X11 connection; closing it lets the process exit.
    void this.desktopPromise?.then((d) => (d as Desktop & { close?: () => Promise<void> }).close?.()).catch(() => undefined);
    this.options.close?.();
    const browser = this.browserPromise;
    this.browserPromise = undefined;
    return browser ? browser.then((b) => b.close()).catch(() => undefined) : Promise.resolve();
  }
}

/**
 * Whether a run is a website's: its app is one, or, with no app named, every app that implements
 * the interface is (a site's skills never touch the desktop, so none is built for them).
 */
function runsOnWebsite(library: SkillLibrary, request: RunRequest): boolean {
  const website = (id: string | undefined) => {
    const app = id === undefined ? undefined : library.apps.get(id);
    return app !== undefined && isWebApp(app);
  };
  if (request.app !== undefined) return website(request.app);
  const skill = library.skills.get(request.skill);
  if (skill?.app) return website(skill.app);
  const head = request.skill.split('.')[0] ?? '';
  const implementers = library.interfaces.has(head) && !library.interfaces.get(head)?.universal ? library.implementers(head) : [];
  return implementers.length > 0 && implementers.every(website);
}
