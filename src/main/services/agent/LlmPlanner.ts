import type { ZodType } from 'zod';
import { appRunsOn, checkArgs, trustOf, type Platform, type SkillLibrary } from '../../../shared/skill';
import { LlmError } from '../llm/errors';
import type { ChatMessage, LlmClient } from '../llm/types';
import type { UsageMeter } from '../llm/UsageMeter';
import type { HybridRetriever } from '../retrieval/HybridRetriever';
import type { SkillCard } from '../retrieval/cards';
import {
  ConfigureArgsSchema,
  configureMessages,
  PickSkillSchema,
  pickMessages,
  planMessages,
  PlanStepSchema,
  type PlanStep,
} from './prompts';
import type { AgentAction, Planner, PlannerState } from './types';

export interface LlmPlannerOptions {
  /** Retrieval queries the planner writes per step (K). @default 3 */
  queries?: number;
  /** Cards each query keeps before merging (L). @default 5 */
  perQuery?: number;
  /** Candidates shown to the re-ranker. @default 8 */
  candidates?: number;
  /** Re-asks after a malformed, unknown or out-of-domain answer, per stage. @default 2 */
  maxReasks?: number;
  /** The (universal) interface whose composites are the basic primitives. @default 'Desktop' */
  primitivesInterface?: string;
  platform: Platform;
  meter?: UsageMeter;
}

/**
 * The model-driven planner (CUA-Skill agent): K queries from the planner, hybrid retrieval
 * merged across queries, candidates plus basic primitives to the re-ranker, then the
 * configurator's arguments validated against the feasible domains, re-asking a bounded number
 * of times with the validation errors before recording the step as a failure.
 */
export class LlmPlanner implements Planner {
  readonly kind = 'llm' as const;
  private readonly primitives: SkillCard[];
  private readonly o: Required<Omit<LlmPlannerOptions, 'meter'>> & { meter?: UsageMeter };

  constructor(
    private readonly llm: LlmClient,
    private readonly library: SkillLibrary,
    private readonly retriever: HybridRetriever,
    options: LlmPlannerOptions,
  ) {
    this.o = { queries: 3, perQuery: 5, candidates: 8, maxReasks: 2, primitivesInterface: 'Desktop', ...options };
    const iface = library.interfaces.get(this.o.primitivesInterface);
    this.primitives = iface
      ? Object.entries(iface.methods)
          .filter(([name]) => library.skills.has(`${iface.id}.${name}`))
          .map(([name, m]) => ({
            ref: `${iface.id}.${name}`,
            kind: 'method' as const,
            description: m.description,
            intents: m.intents,
            args: m.args,
            trust: trustOf(iface.source, undefined),
            apps: library.implementers(iface.id).filter((a) => appRunsOn(library.apps.get(a) ?? { platforms: [] }, options.platform)),
          }))
      : [];
  }

  async next(state: PlannerState, signal?: AbortSignal): Promise<AgentAction> {
    const plan = await this.planStep(state, signal);
    if (plan.status === 'finish') return { kind: 'finish', reason: plan.message || plan.reflection };
    if (plan.status === 'fail') return { kind: 'fail', reason: plan.message || plan.reflection };
    if (plan.status === 'ask_user') return { kind: 'ask_user', question: plan.message || plan.reflection };
    const queries = plan.queries.length ? plan.queries.slice(0, this.o.queries) : [state.goal];
    const hits = await this.retriever.retrieve(queries, { top: this.o.candidates, perQuery: this.o.perQuery, ...(signal && { signal }) });
    const skills = hits.map((h) => h.card);
    const byRef = new Map([...skills, ...this.primitives].map((c) => [c.ref, c]));

    // Re-ranker, with re-asks for unknown names and apps.
    const pickMsgs: ChatMessage[] = pickMessages(state.goal, { ...plan, queries }, state.history, skills, this.primitives);
    let card: SkillCard | undefined;
    let app: string | undefined;
    let reason = '';
    let lastProblem = '';
    for (let attempt = 0; attempt <= this.o.maxReasks && !card; attempt++) {
      const pick = await this.askOrProblem('pick_skill', PickSkillSchema, pickMsgs, 'rerank', signal);
      if ('problem' in pick) {
        lastProblem = pick.problem;
        pickMsgs.push(
          { role: 'assistant', content: pick.raw },
          { role: 'user', content: `${pick.problem}. Answer again with valid JSON.` },
        );
        continue;
      }
      const c = byRef.get(pick.value.choice);
      const a = pick.value.app ?? undefined;
      if (!c)
        lastProblem = `Expected \`choice\` to be one of the candidate ids (${[...byRef.keys()].join(', ')}), got \`${pick.value.choice}\``;
      else if (a && c.apps.length && !c.apps.includes(a))
        lastProblem = `Expected \`app\` for ${c.ref} to be one of ${c.apps.join(', ')} or null, got \`${a}\``;
      else {
        card = c;
        app = c.apps.length ? a : undefined;
        reason = pick.value.reason;
        break;
      }
      pickMsgs.push({ role: 'assistant', content: JSON.stringify(pick.value) }, { role: 'user', content: `${lastProblem}. Choose again.` });
    }
    const intent = queries[0]!;
    if (!card)
      return {
        kind: 'invalid',
        outcome: 'invalid_choice',
        intent,
        args: {},
        reason: `The re-ranker gave no valid choice after ${this.o.maxReasks + 1} answers: ${lastProblem}`,
      };

    // Configurator, with re-asks carrying the domain errors.
    if (!Object.keys(card.args).length) return { kind: 'run', skill: card.ref, ...(app && { app }), args: {}, intent, reason };
    const pathStyle =
      app && this.library.apps.get(app)?.platforms.includes('win32') && !this.library.apps.get(app)?.platforms.includes(this.o.platform)
        ? 'win32'
        : this.o.platform === 'win32'
          ? 'win32'
          : 'posix';
    const cfgMsgs: ChatMessage[] = configureMessages(state.goal, `${intent} (${reason})`, card, app);
    let lastArgs: Record<string, unknown> = {};
    for (let attempt = 0; attempt <= this.o.maxReasks; attempt++) {
      const cfg = await this.askOrProblem('configure_args', ConfigureArgsSchema, cfgMsgs, 'configure', signal);
      if ('problem' in cfg) {
        lastProblem = cfg.problem;
        cfgMsgs.push({ role: 'assistant', content: cfg.raw }, { role: 'user', content: `${cfg.problem}. Answer again with valid JSON.` });
        continue;
      }
      lastArgs = cfg.value.args;
      const checked = checkArgs(card.args, cfg.value.args, { pathStyle });
      if (checked.ok) return { kind: 'run', skill: card.ref, ...(app && { app }), args: checked.values, intent, reason };
      lastProblem = checked.errors.join('; ');
      cfgMsgs.push(
        { role: 'assistant', content: JSON.stringify(cfg.value) },
        { role: 'user', content: `These arguments are outside their domains: ${lastProblem}. Correct them.` },
      );
    }
    return {
      kind: 'invalid',
      outcome: 'invalid_args',
      skill: card.ref,
      intent,
      args: lastArgs,
      reason: `No valid arguments for ${card.ref} after ${this.o.maxReasks + 1} answers: ${lastProblem}`,
    };
  }

  /** The planner stage; malformed answers are re-asked, and after the last one the error surfaces (a planner failure). */
  private async planStep(state: PlannerState, signal?: AbortSignal): Promise<PlanStep> {
    const msgs: ChatMessage[] = planMessages(state.goal, state.history, state.earlier, this.o.queries);
    for (let attempt = 0; ; attempt++) {
      const r = await this.askOrProblem('plan_step', PlanStepSchema, msgs, 'plan', signal);
      if ('value' in r) return r.value;
      if (attempt >= this.o.maxReasks)
        throw new LlmError('llm.malformed_output', `The planner gave no valid answer after ${attempt + 1} tries: ${r.problem}`, {
          raw: r.raw,
        });
      msgs.push({ role: 'assistant', content: r.raw }, { role: 'user', content: `${r.problem}. Answer again with valid JSON.` });
    }
  }

  private ask<T>(name: string, schema: ZodType<T>, messages: ChatMessage[], stage: string, signal?: AbortSignal): Promise<T> {
    return this.llm.structured({ name, schema, messages, stage, ...(signal && { signal }), ...(this.o.meter && { meter: this.o.meter }) });
  }

  /** A structured answer, or the problem with it when it is malformed (the caller re-asks); other failures throw. */
  private async askOrProblem<T>(
    name: string,
    schema: ZodType<T>,
    messages: ChatMessage[],
    stage: string,
    signal?: AbortSignal,
  ): Promise<{ value: T } | { problem: string; raw: string }> {
    try {
      return { value: await this.ask(name, schema, messages, stage, signal) };
    } catch (err) {
      if (err instanceof LlmError && err.code === 'llm.malformed_output') return { problem: err.message, raw: err.info.raw ?? '' };
      throw err;
    }
  }
}

export type { PlanStep };
