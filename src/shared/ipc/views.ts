import type { RecordedRunStatus, RunDetail, RunError, RunProgress, RunResult, RunSummary, StepRecord } from '../run';
import type { Manifest, TrustTier } from '../permissions/manifest';
import type { ArgSpecs } from '../skill/domains';
import type { AppPlatform } from '../skill/documents';
import type { SkillGraph } from '../skill/graph';
import type { LibraryProblem, Skill } from '../skill/library';
import type { Verification } from '../skill/liveTests';

/**
 * What crosses the bridge from main to the renderer: plain JSON views of core objects.
 * Kept structural so the core's own types (RunResult, StepRecord, AuditRow...) satisfy them.
 */

export type ShellMode = 'electron' | 'host';

export interface AppInfo {
  version: string;
  mode: ShellMode;
  platform: string;
  sessionId: string;
  dataDir: string;
  userSkillsDir: string;
  /** Whether a live desktop is available (a DISPLAY on Linux). */
  desktop: 'available' | 'unavailable';
}

export interface SkillSummary {
  id: string;
  kind: Skill['kind'];
  app?: string;
  implements?: string;
  description: string;
  intents: string[];
  trust: TrustTier;
  origin: 'builtin' | 'user';
  file: string;
  argNames: string[];
  primitives: number;
  /** Success rate measured by the reliability benchmark, when it ran. */
  reliability?: { successRate: number; runs: number };
  /**
   * How it is verified: by the live tests shipped with the skills (on the test desktop or in the
   * Windows lane) or by dry runs only. For a composite, the best over the apps it runs on.
   */
  verification: Verification;
  /** Shipped live tests that run it (for a composite, on any app). */
  liveTests: number;
}

/** One app's implementation of an interface method (or, for a composite, the composite on that app). */
export interface MethodImplementation {
  app: string;
  skillId: string;
  verification: Verification;
  /** Names of the live tests that run it. */
  tests: string[];
}

/** The library's size and how much of it is verified live; `skills list --json` and the Library screen. */
export interface LibraryCounts {
  interfaces: number;
  /** Interface methods, composites included. */
  methods: number;
  composites: number;
  implementations: number;
  apps: number;
  windows: { apps: number; implementations: number; methodsImplemented: number };
  liveDesktop: { apps: number; implementations: number; composites: number; tests: number };
  liveWindows: { apps: number; implementations: number; composites: number; tests: number };
  dryRunOnly: number;
  byApp: {
    app: string;
    platforms: AppPlatform[];
    methodsImplemented: number;
    implementations: number;
    liveImplementations: number;
    liveTests: number;
  }[];
}

export interface LibraryView {
  interfaces: {
    id: string;
    description: string;
    extends: string[];
    methods: {
      name: string;
      description: string;
      composite: boolean;
      implementedBy: string[];
      /** Per app, how it is verified (for a composite: on each app implementing the interface). */
      implementations: MethodImplementation[];
    }[];
  }[];
  counts: LibraryCounts;
  apps: { id: string; name: string; platforms: AppPlatform[]; implements: string[]; origin: 'builtin' | 'user' }[];
  skills: SkillSummary[];
  problems: LibraryProblem[];
}

/** Everything the run form and the graph editor need about one skill. */
export interface SkillDetail extends SkillSummary {
  version: string;
  args: ArgSpecs;
  returns?: Skill['returns'];
  permissions: Manifest;
  graph: SkillGraph;
  verify?: Skill['verify'];
  /** Apps the skill can run on: its own, or every implementer of a composite's interface. */
  apps: string[];
  /** Composites are defined on interfaces; the editor saves implementations and app-only skills. */
  editable: boolean;
}

export interface SearchHit {
  skillId: string;
  score: number;
}

export interface CompositionView {
  nodes: { id: string; kind: Skill['kind'] | 'interface_method'; app?: string }[];
  /** Implements and calls. */
  edges: { from: string; to: string }[];
  /** May-follow edges between skills (on some app): the facts linking them, and whether across apps. */
  mayFollow: { from: string; to: string; facts: string[]; acrossApps: boolean }[];
}

// Runs are defined once in `shared/run.ts`; the views are those types under the names the contract uses.
export type { StepOutcome } from '../run';
/** A recorded step, exactly as the executor journals it. */
export type StepView = StepRecord;
export type RunStatusView = RecordedRunStatus;
export type RunErrorView = RunError;
export type { RunSummary, RunDetail };
export type RunResultView = RunResult;
/** Live progress of a run: the executor's events plus the notes a goal adds. */
export type RunEventView = RunProgress;

/** How the user answers a permission prompt. */
export type PromptAnswer = 'allow_once' | 'allow_session' | 'deny';

/** A sensitive step waiting for the user (SkillGuard's confirm). */
export interface PermissionPromptView {
  promptId: string;
  skillId: string;
  trust: string;
  capability: string;
  /** The capability's protection level (taxonomy), e.g. `sensitive`. */
  level: string;
  target?: string;
  /** The manifest's own message for this entry. */
  fallbackMsg?: string;
  reason: string;
  policySource: string;
  askedAt: number;
  /** When the prompt is answered `deny` on its own. */
  expiresAt: number;
}

export interface GrantView {
  id: string;
  scope: 'session' | 'persistent';
  skillId: string;
  capability: string;
  constraints: Record<string, unknown>;
  grantedAt: number;
  expiresAt: number | null;
}

/** The audit table's row and page: one definition, shared with the store (src/shared/permissions/audit.ts). */
export type { AuditPage, AuditView } from '../permissions/audit';

export const LLM_ROLE_NAMES = ['planner', 'grounder', 'embedder'] as const;
export type LlmRoleName = (typeof LLM_ROLE_NAMES)[number];
export const PROVIDER_PRESET_NAMES = ['openai', 'azure', 'ollama', 'lmstudio', 'vllm', 'custom'] as const;

export interface ProviderSettingsView {
  preset: (typeof PROVIDER_PRESET_NAMES)[number];
  baseURL?: string;
  resource?: string;
  model: string;
  /** Keys are write-only: the renderer sees whether one is set, never the key. */
  apiKeySet: boolean;
  apiKeyEnv?: string;
}

export interface SettingsView {
  dataDir: string;
  providers: Partial<Record<LlmRoleName, ProviderSettingsView>>;
  defaultApps: Record<string, string>;
  /** Domains and the apps implementing each, to fill the default-app selects. */
  domains: { id: string; apps: string[] }[];
}

export interface ConnectionTestView {
  role: LlmRoleName;
  ok: boolean;
  latencyMs: number;
  message: string;
  models?: string[];
}

export interface StatusView {
  running: { runId: string; skillId: string; startedAt: number }[];
  pendingPrompts: number;
}

export interface DirectoryView {
  /** Absolute path of the folder listed. */
  path: string;
  /** Its parent, absent at a root. */
  parent?: string;
  /** The path separator of the machine that runs the skills (`/` or `\\`). */
  sep: string;
  entries: { name: string; kind: 'file' | 'directory' }[];
}
