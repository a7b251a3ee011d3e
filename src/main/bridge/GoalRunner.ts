import { randomUUID } from 'node:crypto';
import type { RunEventView, RunResultView, StepView } from '../../shared/ipc';
import type { RunEvent } from '../../shared/run';
import { composeAgent } from '../core/agent';
import type { Core } from '../core/Core';
import type { AgentEvent, AgentReport } from '../services/agent';

export interface GoalRequest {
  core: Core;
  goal: string;
  dryRun: boolean;
  signal: AbortSignal;
  onEvent: (event: RunEventView) => void;
  env?: Record<string, string | undefined>;
}

function describeAction(e: Extract<AgentEvent, { type: 'action' }>): string {
  const a = e.action;
  switch (a.kind) {
    case 'run':
      return `step ${e.step}: ${a.skill}${a.app ? ` on ${a.app}` : ''} ${JSON.stringify(a.args)} (${a.reason})`;
    case 'finish':
      return `step ${e.step}: done (${a.reason})`;
    case 'fail':
      return `step ${e.step}: giving up (${a.reason})`;
    case 'ask_user':
      return `step ${e.step}: needs you: ${a.question}`;
    case 'invalid':
      return `step ${e.step}: ${a.skill ?? a.intent}: ${a.outcome.replace('_', ' ')} (${a.reason})`;
  }
}

/**
 * A goal as one trajectory: the agent plans and runs skills; their steps are renumbered into a
 * single run (the goal's id) so the UI shows one live list, and the agent's decisions become notes.
 */
export async function runGoal(r: GoalRequest): Promise<RunResultView> {
  const goalId = randomUUID();
  const startedAt = Date.now();
  const steps: StepView[] = [];
  const seqOf = new Map<string, number>();
  const seq = (runId: string, inner: number): number => {
    const key = `${runId}#${inner}`;
    let s = seqOf.get(key);
    if (s === undefined) seqOf.set(key, (s = seqOf.size + 1));
    return s;
  };
  const note = (message: string): void => r.onEvent({ type: 'note', runId: goalId, message });
  const forward = (e: RunEvent): void => {
    switch (e.type) {
      case 'run_started':
        return note(`running ${e.skillId}${e.app ? ` on ${e.app}` : ''}`);
      case 'step_started':
        return r.onEvent({ ...e, runId: goalId, seq: seq(e.runId, e.seq), depth: e.depth + 1 });
      case 'step_finished': {
        const step: StepView = { ...e.step, runId: goalId, seq: seq(e.step.runId, e.step.seq), depth: e.step.depth + 1 };
        steps.push(step);
        return r.onEvent({ type: 'step_finished', step });
      }
      case 'backtrack':
        return note(`${e.skillId}: trying ${e.toNode} after ${e.reason}`);
      case 'run_finished':
        return note(`${e.result.skillId} ${e.result.status}${e.result.error ? `: ${e.result.error.message}` : ''}`);
    }
  };

  const { agent, planner } = await composeAgent(r.core, { onRunEvent: forward, ...(r.env && { env: r.env }) });
  r.onEvent({ type: 'run_started', runId: goalId, skillId: 'agent', args: { goal: r.goal } });
  note(
    planner
      ? `planner: ${planner.model} at ${planner.baseURL}`
      : 'planner: offline (matches the goal against skill intents; set a model in Settings for more)',
  );
  const report: AgentReport = await agent.run(r.goal, {
    signal: r.signal,
    dryRun: r.dryRun,
    onEvent: (e) => {
      if (e.type === 'action') note(describeAction(e));
    },
  });
  const status: RunResultView['status'] = report.outcome === 'finished' ? 'succeeded' : report.outcome === 'aborted' ? 'aborted' : 'failed';
  const last = [...report.steps].reverse().find((s) => s.run?.result !== undefined)?.run?.result;
  const result: RunResultView = {
    runId: goalId,
    status,
    skillId: 'agent',
    args: { goal: r.goal },
    steps,
    startedAt,
    endedAt: Date.now(),
    dryRun: r.dryRun,
    ...(last !== undefined && { result: last }),
    ...(status !== 'succeeded' && { error: { code: `agent.${report.outcome}`, message: report.message } }),
  };
  r.onEvent({ type: 'run_finished', result });
  return result;
}
