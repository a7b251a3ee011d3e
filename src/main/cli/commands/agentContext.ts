import type { Platform, SkillLibrary } from '../../../shared/skill';
import type { AgentEvent, AgentReport, SkillRunner } from '../../services/agent';
import type { LlmSettings } from '../../services/llm';
import type { StoreDb } from '../../services/store';

/** What the agent needs from the shell: built lazily, because `retrieve` needs none of it. */
export interface AgentEnvironment {
  /** Runs skills: `{ run: (r) => core.runSkill(r) }`. */
  runner: SkillRunner;
  /** The store: memory, agent runs and the embedding cache are kept there when given. */
  db?: StoreDb;
  /** Saved `llm` settings; flags and SKILLDESK_* variables override them. */
  llm?: LlmSettings;
  platform: Platform;
  sessionId?: string;
  /** The focused window's title, for "what changed" in memory. */
  observe?: () => Promise<string | undefined>;
}

/** The slice of the CLI context the agent and retrieve commands use (the lead's `CliContext` plus `agentEnvironment`). */
export interface AgentCommandContext {
  out(text: string): void;
  err(text: string): void;
  setExitCode(code: number): void;
  loadLibrary(): Promise<{ library: SkillLibrary }>;
  agentEnvironment(): Promise<AgentEnvironment>;
}

/** Exit codes: 0 finished, 1 failed, 2 usage, 3 needs the user (asked / unmapped), 4 stopped by a limit, 130 aborted. */
export function agentExitCode(outcome: AgentReport['outcome']): number {
  switch (outcome) {
    case 'finished':
      return 0;
    case 'failed':
      return 1;
    case 'asked_user':
    case 'unmapped':
      return 3;
    case 'step_budget':
    case 'repeated_action':
      return 4;
    case 'aborted':
      return 130;
  }
}

/** One line per agent event, for watching a run in a terminal. */
export function describeAgentEvent(e: AgentEvent): string | undefined {
  switch (e.type) {
    case 'action': {
      const a = e.action;
      if (a.kind === 'run') return `step ${e.step + 1}: ${a.skill}${a.app ? ` on ${a.app}` : ''} ${JSON.stringify(a.args)}  — ${a.reason}`;
      if (a.kind === 'invalid') return `step ${e.step + 1}: ${a.outcome}: ${a.reason}`;
      return undefined;
    }
    case 'run_finished':
      return `        ${e.run.status} (${e.run.steps} primitives, ${e.run.endedAt - e.run.startedAt} ms)${e.run.error ? `: ${e.run.error.message}` : ''}`;
    case 'planning':
    case 'memory':
    case 'finished':
      return undefined;
  }
}
