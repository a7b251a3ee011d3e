import type { Platform, SkillLibrary } from '../../../shared/skill';
import type { LlmClient } from '../llm/types';
import { UsageMeter } from '../llm/UsageMeter';
import { HybridRetriever } from '../retrieval/HybridRetriever';
import type { EmbeddingCache, Embedder } from '../retrieval/EmbeddingCache';
import { Agent, type AgentRunRecorder } from './Agent';
import { LlmPlanner, type LlmPlannerOptions } from './LlmPlanner';
import { OfflinePlanner } from './OfflinePlanner';
import type { AgentMemory, SkillRunner } from './types';

export interface CreateAgentOptions {
  library: SkillLibrary;
  runner: SkillRunner;
  platform: Platform;
  /** The planner role's client; without one the offline planner is used. */
  planner?: LlmClient;
  embedder?: Embedder;
  embeddingCache?: EmbeddingCache;
  memory?: AgentMemory;
  recorder?: AgentRunRecorder;
  sessionId?: string;
  observe?: () => Promise<string | undefined>;
  plannerOptions?: Omit<LlmPlannerOptions, 'platform' | 'meter'>;
}

/** Wires retrieval, the planner (model or offline) and the loop; one meter accounts the run's model calls. */
export function createAgent(o: CreateAgentOptions): {
  agent: Agent;
  retriever: HybridRetriever;
  planner: LlmPlanner | OfflinePlanner;
  meter: UsageMeter;
} {
  const meter = new UsageMeter();
  const retriever = HybridRetriever.fromLibrary(o.library, {
    platform: o.platform,
    ...(o.embedder && { embedder: o.embedder }),
    ...(o.embeddingCache && { cache: o.embeddingCache }),
  });
  const planner = o.planner
    ? new LlmPlanner(o.planner, o.library, retriever, { ...o.plannerOptions, platform: o.platform, meter })
    : new OfflinePlanner(o.library, retriever, o.platform);
  const agent = new Agent({
    planner,
    runner: o.runner,
    meter,
    ...(o.memory && { memory: o.memory }),
    ...(o.recorder && { recorder: o.recorder }),
    ...(o.sessionId && { sessionId: o.sessionId }),
    ...(o.observe && { observe: o.observe }),
  });
  return { agent, retriever, planner, meter };
}
