import { randomUUID } from 'node:crypto';
import { LlmError } from '../llm/errors';
import { UsageMeter } from '../llm/UsageMeter';
import type { RunResult } from '../executor/types';
import type {
  AgentAccounting,
  AgentAction,
  AgentEvent,
  AgentMemory,
  AgentOutcome,
  AgentReport,
  AgentStep,
  MemoryEntry,
  Planner,
  SkillRunner,
} from './types';

/** Where an agent run itself is recorded (a `runs` row with goal and accounting, in the app). */
export interface AgentRunRecorder {
  /** `dryRun`: the goal's skills run dry, so the goal is a dry run too (the metrics leave it out). */
  start(run: { id: string; goal: string; sessionId: string; planner: 'llm' | 'offline'; startedAt: number; dryRun?: boolean }): void;
  finish(id: string, end: { outcome: AgentOutcome; message: string; endedAt: number; accounting: AgentAccounting }): void;
}

export interface AgentDeps {
  planner: Planner;
  runner: SkillRunner;
  memory?: AgentMemory;
  recorder?: AgentRunRecorder;
  /** Counts model tokens and time; give the same meter to the planner's client calls. */
  meter?: UsageMeter;
  sessionId?: string;
  /** What is on screen, for "what changed" in memory (e.g. the focused window's title). */
  observe?: () => Promise<string | undefined>;
  now?: () => number;
}

export interface AgentRunOptions {
  signal?: AbortSignal;
  /** Stop after this many planner decisions. @default 10 */
  maxSteps?: number;
  /** Stop when the same skill call (skill, app, arguments) would run this many times. @default 2 */
  maxRepeats?: number;
  /** Run skills as dry runs (nothing is touched). @default false */
  dryRun?: boolean;
  /** Session memory entries shown to the planner for reflection. @default 8 */
  earlierMemory?: number;
  onEvent?: (e: AgentEvent) => void;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The agent loop: ask the planner for the next action, run it through the skill runner, write
 * a summary (failures included) to memory, and stop on finish / fail / ask-user, the step
 * budget, a repeated identical action, or abort.
 */
export class Agent {
  private readonly now: () => number;
  readonly sessionId: string;

  constructor(private readonly deps: AgentDeps) {
    this.now = deps.now ?? Date.now;
    this.sessionId = deps.sessionId ?? randomUUID();
  }

  async run(goal: string, opts: AgentRunOptions = {}): Promise<AgentReport> {
    const agentRunId = randomUUID();
    const startedAt = this.now();
    const meter = this.deps.meter ?? new UsageMeter();
    const maxSteps = opts.maxSteps ?? 10;
    const maxRepeats = opts.maxRepeats ?? 2;
    const emit = (e: AgentEvent) => opts.onEvent?.(e);
    const steps: AgentStep[] = [];
    const history: MemoryEntry[] = [];
    const earlier = this.deps.memory?.recent(this.sessionId, opts.earlierMemory ?? 8) ?? [];
    const executed = new Map<string, number>();
    let executorMs = 0;
    this.deps.recorder?.start({
      id: agentRunId,
      goal,
      sessionId: this.sessionId,
      planner: this.deps.planner.kind,
      startedAt,
      dryRun: opts.dryRun ?? false,
    });

    const remember = (step: number, fields: Omit<MemoryEntry, 'agentRunId' | 'sessionId' | 'goal' | 'step' | 'createdAt'>): MemoryEntry => {
      const entry: MemoryEntry = { agentRunId, sessionId: this.sessionId, goal, step, createdAt: this.now(), ...fields };
      history.push(entry);
      this.deps.memory?.append(entry);
      emit({ type: 'memory', entry });
      return entry;
    };
    const finish = (outcome: AgentOutcome, message: string): AgentReport => {
      const endedAt = this.now();
      const accounting: AgentAccounting = {
        planner: this.deps.planner.kind,
        llm: meter.totals(),
        wallMs: endedAt - startedAt,
        executorMs,
        steps: steps.length,
      };
      const report: AgentReport = {
        agentRunId,
        goal,
        planner: this.deps.planner.kind,
        outcome,
        message,
        steps,
        memory: history,
        accounting,
        startedAt,
        endedAt,
      };
      this.deps.recorder?.finish(agentRunId, { outcome, message, endedAt, accounting });
      emit({ type: 'finished', report });
      return report;
    };

    for (let step = 0; ; step++) {
      if (opts.signal?.aborted) return finish('aborted', 'Stopped by the user');
      if (step >= maxSteps)
        return finish('step_budget', `Stopped after ${maxSteps} steps without finishing; raise --max-steps or split the goal`);
      emit({ type: 'planning', step });
      let action: AgentAction;
      try {
        action = await this.deps.planner.next(
          { agentRunId, sessionId: this.sessionId, goal, step, history: [...history], earlier },
          opts.signal,
        );
      } catch (err) {
        if (opts.signal?.aborted || (err instanceof LlmError && err.code === 'llm.aborted'))
          return finish('aborted', 'Stopped by the user');
        const message = err instanceof Error ? err.message : String(err);
        const code = err instanceof LlmError ? err.code : 'planner.error';
        const memory = remember(step, {
          intent: 'plan the next step',
          args: {},
          outcome: 'planner_error',
          summary: `${code}: ${clip(message, 400)}`,
        });
        steps.push({ step, action: { kind: 'fail', reason: message }, memory });
        return finish('failed', `The planner failed: ${message}`);
      }
      emit({ type: 'action', step, action });
      switch (action.kind) {
        case 'finish':
          steps.push({ step, action });
          return finish('finished', action.reason);
        case 'fail':
          steps.push({ step, action });
          return finish(
            step === 0 && this.deps.planner.kind === 'offline' && /Could not map/.test(action.reason) ? 'unmapped' : 'failed',
            action.reason,
          );
        case 'ask_user':
          steps.push({ step, action });
          return finish('asked_user', action.question);
        case 'invalid': {
          const memory = remember(step, {
            intent: action.intent,
            ...(action.skill && { skill: action.skill }),
            args: action.args,
            outcome: action.outcome,
            summary: action.reason,
          });
          steps.push({ step, action, memory });
          continue;
        }
        case 'run': {
          const key = JSON.stringify([action.skill, action.app ?? null, action.args]);
          const times = executed.get(key) ?? 0;
          if (times >= maxRepeats) {
            steps.push({ step, action });
            return finish(
              'repeated_action',
              `Stopped: ${action.skill} with the same arguments was about to run a ${times + 1}${times + 1 === 3 ? 'rd' : 'th'} time`,
            );
          }
          executed.set(key, times + 1);
          // A dry run touches no desktop, not even to look at it.
          const before = opts.dryRun ? undefined : await this.observe();
          const t0 = this.now();
          let result: RunResult;
          try {
            result = await this.deps.runner.run({
              skill: action.skill,
              args: action.args,
              goal,
              parentRunId: agentRunId,
              dryRun: opts.dryRun ?? false,
              ...(action.app && { app: action.app }),
              ...(opts.signal && { signal: opts.signal }),
            });
          } catch (err) {
            // The runner reports failures as results; an exception here is a refusal before the run (unknown skill, bad args).
            const message = err instanceof Error ? err.message : String(err);
            executorMs += this.now() - t0;
            const memory = remember(step, {
              intent: action.intent,
              skill: action.skill,
              ...(action.app && { app: action.app }),
              args: action.args,
              outcome: 'failed',
              summary: clip(message, 400),
            });
            steps.push({ step, action, memory });
            continue;
          }
          executorMs += this.now() - t0;
          const after = opts.dryRun ? undefined : await this.observe();
          const run = {
            runId: result.runId,
            status: result.status,
            skillId: result.skillId,
            ...(result.app && { app: result.app }),
            args: result.args,
            ...(result.result !== undefined && { result: result.result }),
            ...(result.error && { error: result.error }),
            startedAt: result.startedAt,
            endedAt: result.endedAt,
            steps: result.steps.length,
          };
          emit({ type: 'run_finished', step, run });
          const memory = remember(step, {
            runId: result.runId,
            intent: action.intent,
            skill: action.skill,
            ...((result.app ?? action.app) ? { app: result.app ?? action.app } : {}),
            args: action.args,
            outcome: result.status,
            summary: summarize(result, before, after),
          });
          steps.push({ step, action, run, memory });
          if (result.status === 'aborted' || opts.signal?.aborted) return finish('aborted', 'Stopped by the user');
          continue;
        }
      }
    }
  }

  private async observe(): Promise<string | undefined> {
    try {
      return await this.deps.observe?.();
    } catch {
      return undefined; // observation is a nicety for memory; never fail a step over it
    }
  }
}

/** One or two sentences: outcome, result or error, and what changed on screen. */
export function summarize(r: RunResult, before?: string, after?: string): string {
  const where = r.app ? ` on ${r.app}` : '';
  const head =
    r.status === 'succeeded'
      ? `${r.skillId}${where} succeeded in ${r.steps.length} primitive steps${r.result !== undefined ? `, returning ${clip(JSON.stringify(r.result), 120)}` : ''}${r.dryRun ? ' (dry run)' : ''}.`
      : `${r.skillId}${where} ${r.status}${r.error?.nodeId ? ` at node ${r.error.nodeId}` : ''}: ${clip(r.error?.message ?? 'no detail', 300)}.`;
  const changed =
    before !== after
      ? ` Focused window changed from "${before ?? 'none'}" to "${after ?? 'none'}".`
      : before
        ? ` Focused window stayed "${before}".`
        : '';
  return head + changed;
}
