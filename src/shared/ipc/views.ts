import type { RunError, RunStatus, StepRecord } from '../run';
import type { Manifest, TrustTier } from '../permissions/manifest';
import type { ArgSpecs } from '../skill/domains';
import type { Platform } from '../skill/documents';
import type { SkillGraph } from '../skill/graph';
import type { LibraryProblem, Skill } from '../skill/library';

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
}

export interface LibraryView {
  interfaces: {
    id: string;
    description: string;
    methods: { name: string; description: string; composite: boolean; implementedBy: string[] }[];
  }[];
  apps: { id: string; name: string; platforms: Platform[]; implements: string[]; origin: 'builtin' | 'user' }[];
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
  edges: { from: string; to: string }[];
}

export type { StepOutcome } from '../run';
/** A recorded step, exactly as the executor journals it. */
export type StepView = StepRecord;

export type RunStatusView = RunStatus | 'running';

export type RunErrorView = RunError;

export interface RunSummary {
  id: string;
  skillId: string;
  app?: string;
  status: RunStatusView;
  dryRun: boolean;
  startedAt: number;
  endedAt?: number;
  args: Record<string, unknown>;
  result?: unknown;
  error?: RunErrorView;
  goal?: string;
  parentRunId?: string;
}

export interface RunDetail extends RunSummary {
  steps: StepView[];
}

export interface RunResultView {
  runId: string;
  status: 'succeeded' | 'failed' | 'aborted';
  skillId: string;
  app?: string;
  args: Record<string, unknown>;
  result?: unknown;
  error?: RunErrorView;
  steps: StepView[];
  startedAt: number;
  endedAt: number;
  dryRun: boolean;
}

/** Live progress of a run, as the executor emits it. */
export type RunEventView =
  | { type: 'run_started'; runId: string; skillId: string; app?: string; args: Record<string, unknown> }
  | {
      type: 'step_started';
      runId: string;
      seq: number;
      depth: number;
      skillId: string;
      nodeId: string;
      primitive: string;
      resolved: Record<string, unknown>;
    }
  | { type: 'step_finished'; step: StepView }
  | { type: 'backtrack'; runId: string; skillId: string; fromNode: string; toNode: string; reason: string }
  /** A remark on the run, e.g. the agent's decision before each skill of a goal. */
  | { type: 'note'; runId: string; message: string }
  | { type: 'run_finished'; result: RunResultView };

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
