import { addMemory, createRun, finishRun, listMemory, type StoreDb } from '../store';
import type { AgentRunRecorder } from './Agent';
import type { AgentMemory, MemoryEntry, MemoryOutcome } from './types';

/** Agent memory in the store's `memory` table; the agent run id is the `run_id` when no skill ran. */
export class SqliteAgentMemory implements AgentMemory {
  constructor(private readonly db: StoreDb) {}

  append(e: MemoryEntry): void {
    addMemory(this.db, {
      runId: e.runId ?? e.agentRunId,
      sessionId: e.sessionId,
      goal: e.goal,
      step: e.step,
      intent: e.intent,
      skillId: e.skill ?? null,
      args: { ...e.args, ...(e.app && { $app: e.app }) },
      outcome: e.outcome,
      summary: e.summary,
      createdAt: e.createdAt,
    });
  }

  recent(sessionId: string, limit: number): MemoryEntry[] {
    return listMemory(this.db, { sessionId, limit }).map((r) => {
      const { $app, ...args } = r.args as Record<string, unknown> & { $app?: string };
      return {
        agentRunId: r.runId ?? '',
        ...(r.runId && { runId: r.runId }),
        sessionId: r.sessionId,
        goal: r.goal,
        step: r.step,
        intent: r.intent,
        ...(r.skillId && { skill: r.skillId }),
        ...($app && { app: $app }),
        args,
        outcome: r.outcome as MemoryOutcome,
        summary: r.summary,
        createdAt: r.createdAt,
      };
    });
  }
}

/**
 * Records each agent run as a `runs` row (skill id `agent`, the goal, the token/time accounting);
 * the skill runs it starts point at it through `parent_run_id`.
 */
export class SqliteAgentRunRecorder implements AgentRunRecorder {
  constructor(private readonly db: StoreDb) {}

  start(run: Parameters<AgentRunRecorder['start']>[0]): void {
    createRun(this.db, {
      id: run.id,
      skillId: 'agent',
      sessionId: run.sessionId,
      goal: run.goal,
      args: { planner: run.planner },
      dryRun: run.dryRun ?? false,
      startedAt: run.startedAt,
    });
  }

  finish(id: string, end: Parameters<AgentRunRecorder['finish']>[1]): void {
    const status = end.outcome === 'finished' ? 'succeeded' : end.outcome === 'aborted' ? 'aborted' : 'failed';
    finishRun(this.db, id, {
      status,
      endedAt: end.endedAt,
      accounting: { ...end.accounting },
      ...(status !== 'succeeded' && { error: { code: `agent.${end.outcome}`, message: end.message } }),
      ...(status === 'succeeded' && { result: end.message }),
    });
  }
}
