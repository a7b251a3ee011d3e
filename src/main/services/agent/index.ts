/** The agent: planner loop (model or offline), memory, stop conditions; runs skills through a `SkillRunner`. */
export { Agent, summarize } from './Agent';
export type { AgentDeps, AgentRunOptions, AgentRunRecorder } from './Agent';
export { LlmPlanner } from './LlmPlanner';
export type { LlmPlannerOptions } from './LlmPlanner';
export { OfflinePlanner } from './OfflinePlanner';
export type { OfflinePlan, PlannedStep } from './OfflinePlanner';
export { MemoryAgentMemory } from './MemoryAgentMemory';
export { SqliteAgentMemory, SqliteAgentRunRecorder } from './SqliteAgentStore';
export { createAgent } from './createAgent';
export type { CreateAgentOptions } from './createAgent';
export { compileTemplate, matchTemplate, splitGoal } from './templates';
export { PlanStepSchema, PickSkillSchema, ConfigureArgsSchema } from './prompts';
export type * from './types';
