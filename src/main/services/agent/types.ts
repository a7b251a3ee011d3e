import type { ArgValues } from '../../../shared/skill';
import type { RunRequest, RunResult } from '../executor/types';
import type { UsageTotals } from '../llm/UsageMeter';

/**
 * Runs one skill: the executor (`GraphExecutor.run`) or the core (`core.runSkill`) — both fit.
 * The agent depends on this alone, so it runs the same against a live desktop, a dry run, or a test double.
 */
export interface SkillRunner {
  run(request: RunRequest): Promise<RunResult>;
}

/** How one agent step ended, as remembered. */
export type MemoryOutcome =
  | 'succeeded'
  | 'failed'
  | 'aborted'
  /** The configurator could not produce arguments inside the feasible domains within its re-asks. */
  | 'invalid_args'
  /** The re-ranker named no valid candidate within its re-asks. */
  | 'invalid_choice'
  /** The model failed (malformed answers, timeouts after retries, server errors). */
  | 'planner_error';

/** A summarised outcome: what the agent tried, with what, and what came of it (failures included). */
export interface MemoryEntry {
  agentRunId: string;
  /** The skill run, when one happened. */
  runId?: string;
  sessionId: string;
  goal: string;
  step: number;
  /** What the step was meant to achieve (a goal clause, or the model's reason). */
  intent: string;
  skill?: string;
  app?: string;
  args: Record<string, unknown>;
  outcome: MemoryOutcome;
  /** One or two sentences for the planner's reflection: result, error, and what changed on screen. */
  summary: string;
  createdAt: number;
}

/** Where memory is kept (the store's `memory` table in the app; an array in tests). */
export interface AgentMemory {
  append(entry: MemoryEntry): void;
  /** Most recent entries of the session, oldest first (reflection across goals). */
  recent(sessionId: string, limit: number): MemoryEntry[];
}

/** What a planner decides for the next step. */
export type AgentAction =
  | { kind: 'run'; skill: string; app?: string; args: ArgValues; intent: string; reason: string }
  | { kind: 'finish'; reason: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'ask_user'; question: string }
  /** A step that could not be configured; remembered as a failure, and the loop goes on. */
  | {
      kind: 'invalid';
      outcome: 'invalid_args' | 'invalid_choice';
      skill?: string;
      intent: string;
      args: Record<string, unknown>;
      reason: string;
    };

/** Why an agent run stopped. */
export type AgentOutcome = 'finished' | 'failed' | 'asked_user' | 'unmapped' | 'step_budget' | 'repeated_action' | 'aborted';

export interface PlannerState {
  agentRunId: string;
  sessionId: string;
  goal: string;
  step: number;
  /** This run's memory so far, oldest first. */
  history: MemoryEntry[];
  /** Earlier memory of the session (reflection across goals). */
  earlier: MemoryEntry[];
}

/** Chooses the next action; the LLM planner and the offline planner implement it. */
export interface Planner {
  readonly kind: 'llm' | 'offline';
  next(state: PlannerState, signal?: AbortSignal): Promise<AgentAction>;
}

/** One step of an agent run. */
export interface AgentStep {
  step: number;
  action: AgentAction;
  run?: Pick<RunResult, 'runId' | 'status' | 'skillId' | 'app' | 'args' | 'result' | 'error' | 'startedAt' | 'endedAt'> & { steps: number };
  memory?: MemoryEntry;
}

/** Token and time accounting of an agent run, stored with it (`runs.accounting_json`). */
export interface AgentAccounting {
  planner: 'llm' | 'offline';
  llm: UsageTotals;
  wallMs: number;
  executorMs: number;
  steps: number;
}

export interface AgentReport {
  agentRunId: string;
  goal: string;
  planner: 'llm' | 'offline';
  outcome: AgentOutcome;
  /** For people: what happened, and for `unmapped`/`asked_user` what is needed. */
  message: string;
  steps: AgentStep[];
  memory: MemoryEntry[];
  accounting: AgentAccounting;
  startedAt: number;
  endedAt: number;
  /** Offline planner: the plan it made (or its explanation). */
  plan?: unknown;
}

/** Live progress for the CLI and UI. */
export type AgentEvent =
  | { type: 'planning'; step: number }
  | { type: 'action'; step: number; action: AgentAction }
  | { type: 'run_finished'; step: number; run: NonNullable<AgentStep['run']> }
  | { type: 'memory'; entry: MemoryEntry }
  | { type: 'finished'; report: AgentReport };
