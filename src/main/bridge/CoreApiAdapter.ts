import { readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { type z } from 'zod';
import { SkillDeskError } from '../../shared/errors';
import type {
  AuditPage,
  AuditQuery,
  CoreApi,
  DirectoryView,
  GrantView,
  LearnEventView,
  LearnRecordRequest,
  LibraryView,
  MetricsQuery,
  SettingsInput,
} from '../../shared/ipc';
import type { Core } from '../core/Core';
import { desktopAvailability, hostPlatform } from '../services/desktop';
import { queryAudit, type StoreDb } from '../services/store';
import { runGoal } from './GoalRunner';
import { listDirectory } from './listDirectory';
import { compositionView, coreLibraryView, coreSkillDetail, searchLibrary } from '../core/libraryViews';
import { DemonstrationSessions } from '../core/demonstrationSessions';
import { learnBlueprint } from '../core/learning';
import { coreMetrics } from '../core/metrics';
import { grantViews, revokeGrantView } from '../core/permissions';
import { coreSettingsView, saveSettings, testProvider } from '../core/settings';

export interface CoreApiAdapterOptions {
  core: Core;
  /** The store (audit, grants, settings). */
  db: StoreDb;
  version: string;
  /** Where the Learn screen's recordings read site origins and show the browser. @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * Serves the UI's `CoreApi` from the application layer (src/main/core), which the CLI calls too:
 * this class only maps the contract onto it. What it does itself is what only the UI needs: the
 * screenshots and folders the renderer may read, and turning a goal into one trajectory.
 */
export class CoreApiAdapter implements CoreApi {
  private readonly demonstrations: DemonstrationSessions;

  constructor(private readonly o: CoreApiAdapterOptions) {
    this.demonstrations = new DemonstrationSessions(o.core, { ...(o.env && { env: o.env }) });
  }

  async info() {
    return {
      version: this.o.version,
      platform: hostPlatform(),
      sessionId: this.o.core.sessionId,
      dataDir: this.o.core.options.dataDir,
      userSkillsDir: this.o.core.userSkillsDir,
      desktop: desktopAvailability(),
    };
  }

  library(): Promise<LibraryView> {
    return coreLibraryView(this.o.core);
  }

  async reloadLibrary(): Promise<LibraryView> {
    await this.o.core.reloadLibrary();
    return this.library();
  }

  searchSkills(query: string, options: { app?: string; limit: number }) {
    return searchLibrary(this.o.core, query, options);
  }

  async composition() {
    return compositionView((await this.o.core.loadLibrary()).library, await this.o.core.compositionGraph());
  }

  getSkill(id: string) {
    return coreSkillDetail(this.o.core, id);
  }

  async saveUserSkill(doc: Record<string, unknown>) {
    const { path, id } = await this.o.core.saveUserSkill({ doc }, { savedBy: 'the SkillDesk graph editor' });
    return { path, skill: await this.getSkill(id) };
  }

  async runSkill(r: Parameters<CoreApi['runSkill']>[0]) {
    return this.o.core.runSkill({
      skill: r.skill,
      args: r.args,
      dryRun: r.dryRun,
      signal: r.signal,
      screenshotEveryStep: r.screenshotEveryStep,
      onEvent: r.onEvent,
      ...(r.app && { app: r.app }),
    });
  }

  async runGoal(r: Parameters<NonNullable<CoreApi['runGoal']>>[0]) {
    return runGoal({ core: this.o.core, goal: r.goal, dryRun: r.dryRun, signal: r.signal, onEvent: r.onEvent });
  }

  async listRuns(filter: { limit: number; skill?: string }) {
    return this.o.core.listRuns(filter);
  }

  async getRun(id: string) {
    return this.o.core.getRun(id);
  }

  async readScreenshot(path: string): Promise<Uint8Array> {
    const root = await realpath(join(this.o.core.options.dataDir, 'screenshots')).catch(() => undefined);
    const file = await realpath(path).catch(() => undefined);
    if (!root || !file || !file.startsWith(root + sep) || !file.endsWith('.png')) {
      throw new SkillDeskError(
        'runs.screenshot_refused',
        `Expected a step screenshot inside the data folder's screenshots, got \`${path}\``,
      );
    }
    return readFile(file);
  }

  async listDirectory(path: string | undefined, showHidden: boolean): Promise<DirectoryView> {
    return listDirectory(path ?? homedir(), showHidden);
  }

  async listGrants(): Promise<GrantView[]> {
    return grantViews(this.o.core.sessionGrants, this.o.db);
  }

  async revokeGrant(id: string): Promise<boolean> {
    return revokeGrantView(this.o.core.sessionGrants, this.o.db, id);
  }

  async listAudit(q: z.output<typeof AuditQuery>): Promise<AuditPage> {
    const { rows, nextCursor } = queryAudit(this.o.db, q);
    // The view leaves out the chain (digest and hashes): `skilldesk audit --verify` checks it.
    return { rows: rows.map(({ argsDigest: _d, prevHash: _p, hash: _h, ...view }) => view), nextCursor };
  }

  metrics(query: z.output<typeof MetricsQuery>) {
    return coreMetrics(this.o.core, query.since === undefined ? {} : { since: query.since });
  }

  async learnBlueprint(app: string | undefined) {
    const view = learnBlueprint((await this.o.core.loadLibrary()).library, app, { ...(this.o.env && { env: this.o.env }) });
    const recording = this.demonstrations.current();
    return { ...view, ...(recording && { recording }) };
  }

  learnRecord(r: z.output<typeof LearnRecordRequest>, onEvent: (e: LearnEventView) => void) {
    return this.demonstrations.start(r, onEvent);
  }

  learnStop(session: string) {
    return this.demonstrations.stop(session);
  }

  getSettings() {
    return coreSettingsView(this.o.core, this.o.db);
  }

  async saveSettings(input: z.output<typeof SettingsInput>) {
    saveSettings(this.o.db, input);
    return this.getSettings();
  }

  testProvider(role: 'planner' | 'grounder' | 'embedder') {
    return testProvider(this.o.db, role);
  }
}
