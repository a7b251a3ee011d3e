import type { z } from 'zod';
import type { MetricsView } from '../metrics/types';
import type { AuditQuery, LearnRecordRequest, MetricsQuery, SettingsInput } from './contract';
import type { LearnBlueprintView, LearnEventView, LearnRecordingView, LearnResultView } from './learnViews';
import type {
  AppInfo,
  AuditPage,
  DirectoryView,
  CompositionView,
  ConnectionTestView,
  GrantView,
  LibraryView,
  RunDetail,
  RunEventView,
  RunResultView,
  RunSummary,
  SearchHit,
  SettingsView,
  SkillDetail,
} from './views';

/**
 * What the UI needs from the application core, whatever the shell (Electron or host mode).
 * The bridge dispatcher (src/main/bridge) maps contract channels onto these methods and owns
 * run bookkeeping (stop, status, events); the core owns everything else.
 */
export interface CoreApi {
  info(): Promise<Omit<AppInfo, 'mode'>>;
  library(): Promise<LibraryView>;
  reloadLibrary(): Promise<LibraryView>;
  /** Hybrid retrieval over the library (the agent's retriever). */
  searchSkills(query: string, options: { app?: string; limit: number }): Promise<SearchHit[]>;
  composition(): Promise<CompositionView>;
  getSkill(id: string): Promise<SkillDetail>;
  /**
   * Validates a skill document (schema and cross-document checks against the rest of the
   * library) and writes it to the user skill folder; throws an error with `code` and `problems`
   * when invalid, writing nothing.
   */
  saveUserSkill(doc: Record<string, unknown>): Promise<{ path: string; skill: SkillDetail }>;
  runSkill(request: {
    skill: string;
    app?: string;
    args: Record<string, unknown>;
    dryRun: boolean;
    screenshotEveryStep: boolean;
    signal: AbortSignal;
    onEvent: (event: RunEventView) => void;
  }): Promise<RunResultView>;
  /** The agent: plan, retrieve, configure and run skills toward a goal. Absent until the agent lands. */
  runGoal?(request: {
    goal: string;
    app?: string;
    dryRun: boolean;
    signal: AbortSignal;
    onEvent: (event: RunEventView) => void;
  }): Promise<RunResultView>;
  listRuns(filter: { limit: number; skill?: string }): Promise<RunSummary[]>;
  getRun(id: string): Promise<RunDetail | undefined>;
  /** PNG bytes of a step screenshot; must refuse paths outside the screenshot folder. */
  readScreenshot(path: string): Promise<Uint8Array>;
  /** Lists a folder for the path picker (the home folder when `path` is absent). */
  listDirectory(path: string | undefined, showHidden: boolean): Promise<DirectoryView>;
  listGrants(): Promise<GrantView[]>;
  revokeGrant(id: string): Promise<boolean>;
  /** One page of the audit, newest first, filtered in the store. */
  listAudit(query: z.output<typeof AuditQuery>): Promise<AuditPage>;
  /** The skill metrics (docs/metrics.md) of the tasks recorded in the store since `query.since`. */
  metrics(query: z.output<typeof MetricsQuery>): Promise<MetricsView>;
  /** Every app's count of missing methods, and `app`'s blueprint when given (throws when it is no app). */
  learnBlueprint(app: string | undefined): Promise<LearnBlueprintView>;
  /**
   * Starts recording a demonstration, resolving once it records; refuses an unknown app, arguments
   * the method's specs reject, or a second recording. `onEvent` hears the session until it ends.
   */
  learnRecord(request: z.output<typeof LearnRecordRequest>, onEvent: (event: LearnEventView) => void): Promise<LearnRecordingView>;
  /** Ends a recording, induces a skill from it and keeps the report. */
  learnStop(session: string): Promise<LearnResultView>;
  getSettings(): Promise<SettingsView>;
  saveSettings(input: z.output<typeof SettingsInput>): Promise<SettingsView>;
  testProvider(role: ConnectionTestView['role']): Promise<ConnectionTestView>;
}
