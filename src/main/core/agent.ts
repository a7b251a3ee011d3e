import type { RunEvent } from '../../shared/run';
import { createAgent, SqliteAgentMemory, SqliteAgentRunRecorder, type Agent } from '../services/agent';
import { hostPlatform } from '../services/desktop';
import { createLlmClient, type LlmSettings, type ProviderConfig, type UsageMeter } from '../services/llm';
import { llmEmbedder, SqliteEmbeddingCache, type EmbeddingCache, type Embedder } from '../services/retrieval';
import type { StoreDb } from '../services/store';
import type { Core } from './Core';
import { modelSettings, type PlannerOverrides } from './modelSettings';

type Env = Record<string, string | undefined>;

/** Embeddings for retrieval: the embedder role's client when one is configured, its vectors cached in the store. */
export function embeddingRetrieval(
  settings: LlmSettings,
  db: StoreDb | undefined,
  env: Env = process.env,
): { embedder?: Embedder; cache?: EmbeddingCache } {
  const client = createLlmClient('embedder', settings, env);
  if (!client) return {};
  return { embedder: llmEmbedder(client), ...(db && { cache: new SqliteEmbeddingCache(db) }) };
}

export interface ComposeAgentOptions {
  /** Planner overrides for this run (the CLI's flags); saved settings and SKILLDESK_* variables apply beneath them. */
  overrides?: PlannerOverrides;
  /** @default process.env */
  env?: Env;
  /** Sees every event of every skill the agent runs (the UI folds them into the goal's one trajectory). */
  onRunEvent?: (event: RunEvent) => void;
}

export interface AgentComposition {
  agent: Agent;
  meter: UsageMeter;
  /** The planner's server when a model plans; absent when the offline planner does. */
  planner?: ProviderConfig;
}

/**
 * The agent as every shell builds it (the CLI's `agent`, the UI's goals): the model settings in
 * force (`modelSettings`), this machine's platform, skills run through the core (mediated and
 * journalled like any run), memory, agent runs and embeddings kept in the core's store, and the
 * focused window's title observed between steps of live runs.
 */
export async function composeAgent(core: Core, o: ComposeAgentOptions = {}): Promise<AgentComposition> {
  const env = o.env ?? process.env;
  const settings = modelSettings(core.db, { env, ...(o.overrides && { overrides: o.overrides }) });
  const planner = createLlmClient('planner', settings, env);
  const { embedder, cache } = embeddingRetrieval(settings, core.db, env);
  const { library } = await core.loadLibrary();
  const { agent, meter } = createAgent({
    library,
    platform: hostPlatform(),
    sessionId: core.sessionId,
    runner: { run: (request) => core.runSkill(o.onRunEvent ? { ...request, onEvent: o.onRunEvent } : request) },
    ...(planner && { planner }),
    ...(embedder && { embedder }),
    ...(cache && { embeddingCache: cache }),
    ...(core.db && { memory: new SqliteAgentMemory(core.db), recorder: new SqliteAgentRunRecorder(core.db) }),
    observe: async () => (await (await core.desktop()).windows.active())?.title,
  });
  return { agent, meter, ...(planner && { planner: planner.config }) };
}
