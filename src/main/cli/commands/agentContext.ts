import type { AgentEvent, AgentReport } from '../../services/agent';
import type { CliContext } from '../context';

/** The slice of the CLI context the agent, `llm` and `retrieve` commands use. */
export type AgentCommandContext = Pick<CliContext, 'out' | 'err' | 'setExitCode' | 'loadLibrary' | 'core'>;

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
