import { checkArgs, graphPrimitives, type ArgValues, type Platform, type Skill, type SkillLibrary } from '../../../shared/skill';
import type { HybridRetriever } from '../retrieval/HybridRetriever';
import type { SkillCard } from '../retrieval/cards';
import { appAliases, appContextClause, launchClause, stripAppMention } from './appMentions';
import { compileTemplate, joinPieces, matchTemplate, PRONOUN_VALUE, splitGoal, type CompiledTemplate } from './templates';
import type { AgentAction, Planner, PlannerState } from './types';

/** One step of an offline plan: the clause it came from and the skill call that does it. */
export interface PlannedStep {
  clause: string;
  skill: string;
  app?: string;
  args: ArgValues;
  /** The intent template that matched (or `launch <app>`). */
  template: string;
}

export type OfflinePlan =
  | { ok: true; steps: PlannedStep[] }
  | { ok: false; message: string; unmapped: string; mapped: PlannedStep[]; closest: { skill: string; intent?: string; score: number }[] };

interface Candidate extends PlannedStep {
  literal: number;
  score: number;
}

const STRONG_SEP_IN_VALUE = /(^|\s)(?:and\s+)?then(\s|$)|;/iu;

/** The skill of a clause that only names the app the next clauses are about ("In Mousepad, ..."). */
const APP_CONTEXT = '(app context)';

/**
 * The deterministic planner used when no model is configured: splits the goal into clauses,
 * reverse-matches each against intent templates, validates the captured arguments against their
 * feasible domains, and lets retrieval break ties. The reading that explains the most template
 * text wins, so "open notepad then write X and save it as P" maps to one composite skill when
 * such a template exists, and to three steps when only the parts do.
 */
export class OfflinePlanner implements Planner {
  readonly kind = 'offline' as const;
  private readonly templates: { card: SkillCard; t: CompiledTemplate }[];
  private readonly aliases: Map<string, string[]>;
  private readonly pathStyle: 'posix' | 'win32';
  private readonly plans = new Map<string, Promise<OfflinePlan>>();

  constructor(
    private readonly library: SkillLibrary,
    private readonly retriever: HybridRetriever,
    private readonly platform: Platform,
  ) {
    this.templates = retriever.cards.flatMap((card) => card.intents.map((i) => ({ card, t: compileTemplate(i) })));
    this.aliases = appAliases(library, platform);
    this.pathStyle = platform === 'win32' ? 'win32' : 'posix';
  }

  /** The plan for a goal (memoised per goal). */
  plan(goal: string): Promise<OfflinePlan> {
    let p = this.plans.get(goal);
    if (!p) {
      p = this.makePlan(goal);
      this.plans.set(goal, p);
    }
    return p;
  }

  async next(state: PlannerState): Promise<AgentAction> {
    const plan = await this.plan(state.goal);
    if (!plan.ok) return { kind: 'fail', reason: plan.message };
    const last = state.history.at(-1);
    if (last && last.outcome !== 'succeeded') {
      return { kind: 'fail', reason: `Step ${last.step + 1} (${last.skill ?? last.intent}) ${last.outcome}: ${last.summary}` };
    }
    const done = state.history.filter((h) => h.outcome === 'succeeded').length;
    const step = plan.steps[done];
    if (!step) return { kind: 'finish', reason: `All ${plan.steps.length} step(s) of the plan succeeded` };
    return {
      kind: 'run',
      skill: step.skill,
      ...(step.app && { app: step.app }),
      args: step.args,
      intent: step.clause,
      reason: `matches "${step.template}"`,
    };
  }

  private async makePlan(goal: string): Promise<OfflinePlan> {
    const pieces = splitGoal(goal.replace(/^\s*(please|can you|could you)\s+/i, ''));
    const n = pieces.length;
    if (!n)
      return {
        ok: false,
        message: 'The goal is empty; say what to do, e.g. "write hello to /tmp/a.txt"',
        unmapped: '',
        mapped: [],
        closest: [],
      };
    // best[j]: the best reading of pieces[0..j): total literal template text explained, and its steps.
    const best: ({ score: number; steps: Candidate[] } | undefined)[] = [{ score: 0, steps: [] }];
    for (let j = 1; j <= n; j++) {
      for (let i = 0; i < j; i++) {
        const before = best[i];
        if (!before) continue;
        const context = before.steps.at(-1)?.app;
        const cand = await this.bestCandidate(joinPieces(pieces, i, j), context);
        if (!cand) continue;
        const score = before.score + cand.literal;
        const cur = best[j];
        if (!cur || score > cur.score || (score === cur.score && before.steps.length + 1 < cur.steps.length)) {
          best[j] = { score, steps: [...before.steps, cand] };
        }
      }
    }
    const full = best[n];
    if (full) return { ok: true, steps: this.fillApps(full.steps, goal) };
    const reach = best.reduce((k, b, i) => (b ? i : k), 0);
    const unmapped = pieces[reach]!.text;
    const hits = await this.retriever.retrieve(unmapped, { top: 3 });
    const closest = hits.map((h) => ({
      skill: h.card.ref,
      ...(h.intent && { intent: h.card.intents.find((x) => x.replace(/\$\{([a-z0-9_]+)[^}]*\}/gi, '$1') === h.intent) ?? h.intent }),
      score: Number(h.score.toFixed(3)),
    }));
    const near = closest.length
      ? `Closest skills: ${closest.map((c) => `${c.skill}${c.intent ? ` ("${c.intent}")` : ''}`).join(', ')}.`
      : 'No skill shares a word with it.';
    return {
      ok: false,
      unmapped,
      mapped: best[reach]!.steps.filter((s) => s.skill !== APP_CONTEXT).map(strip),
      closest,
      message: `Could not map "${unmapped}" to a skill${
        reach
          ? ` (the part before it maps to ${
              best[reach]!.steps.filter((s) => s.skill !== APP_CONTEXT)
                .map((s) => s.skill)
                .join(', ') || 'an app'
            })`
          : ''
      }. ${near} Rephrase it like one of their intents, or add a skill.`,
    };
  }

  /** The best skill call for one clause, or undefined when no template reads it with valid arguments. */
  private async bestCandidate(text: string, contextApp: string | undefined): Promise<Candidate | undefined> {
    const context = appContextClause(text, this.aliases);
    if (context)
      return {
        clause: text,
        skill: APP_CONTEXT,
        app: context,
        args: {},
        template: `in ${context}`,
        literal: text.replace(/\s+/g, '').length,
        score: 0,
      };
    const cands: Candidate[] = [];
    const launched = launchClause(text, this.aliases);
    if (launched) {
      const launcher = this.launcherOf(launched);
      if (launcher)
        cands.push({
          clause: text,
          skill: launcher,
          app: launched,
          args: {},
          template: `launch ${launched}`,
          literal: text.replace(/\s+/g, '').length,
          score: 0,
        });
    }
    // "... (permanent: true; match case: false)": arguments given by name after the words.
    const named = /^(.*?)\s*\(((?:\s*[a-z][a-z_ ]*:\s*[^;()]+;?)+)\)\s*[.!]?\s*$/iu.exec(text);
    const given: Record<string, string> = {};
    if (named) {
      for (const pair of named[2]!.split(';')) {
        const [k, ...v] = pair.split(':');
        if (k?.trim() && v.length) given[k.trim().replace(/\s+/g, '_').toLowerCase()] = v.join(':').trim();
      }
      text = named[1]!;
    }
    const variants: { text: string; app?: string }[] = [{ text }, ...stripAppMention(text, this.aliases)];
    for (const v of variants) {
      for (const { card, t } of this.templates) {
        if (v.app && !card.apps.includes(v.app)) continue;
        for (const matched of matchTemplate(t, v.text)) {
          if (Object.values(matched).some((x) => STRONG_SEP_IN_VALUE.test(x) || PRONOUN_VALUE.test(x.trim()))) continue;
          if (Object.keys(given).some((k) => !(k in card.args) || k in matched)) continue;
          const raw = { ...matched, ...given };
          const res = checkArgs(card.args, raw, { pathStyle: this.pathStyle });
          if (!res.ok) continue;
          const app = v.app ?? (contextApp && card.apps.includes(contextApp) ? contextApp : undefined);
          cands.push({
            clause: text,
            skill: card.ref,
            ...(app && { app }),
            args: res.values,
            template: t.template,
            literal: t.literalChars + (v.app ? v.app.length : 0),
            score: 0,
          });
        }
      }
    }
    if (cands.length <= 1) return cands[0];
    const hits = await this.retriever.retrieve(text, { top: 20 });
    const rel = new Map(hits.map((h) => [h.card.ref, h.score]));
    for (const c of cands) c.score = c.literal + (rel.get(c.skill) ?? 0);
    return cands.sort((a, b) => b.score - a.score || b.literal - a.literal)[0];
  }

  /**
   * The skill that starts `app`: the app's own no-argument skill whose graph launches it (an
   * editor's new_document), else a universal one (Desktop.open_app).
   */
  private launcherOf(app: string): string | undefined {
    const launches = (s: Skill) =>
      graphPrimitives(s.graph).some((p) => p.action === 'launch') &&
      Object.values(s.args).every((a) => a.optional || a.default !== undefined);
    const own = this.library
      .list({ app })
      .filter((s) => s.app === app && launches(s))
      .sort((a, b) => a.graph.nodes.length - b.graph.nodes.length)[0];
    if (own) return own.implements ?? own.id;
    return this.library
      .list({ app })
      .find((s) => s.kind === 'composite' && this.library.interfaces.get(s.id.split('.')[0]!)?.universal && launches(s))?.id;
  }

  /** Steps without an app inherit the previous step's app, or the only app the goal names that can run them. */
  private fillApps(steps: Candidate[], goal: string): PlannedStep[] {
    const named = [...this.aliases]
      .filter(([alias, apps]) => apps.length === 1 && new RegExp(`\\b${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(goal))
      .map(([, apps]) => apps[0]!);
    let ctx: string | undefined;
    const out: PlannedStep[] = [];
    for (const s of steps) {
      if (s.skill === APP_CONTEXT) {
        ctx = s.app;
        continue;
      }
      const card = this.retriever.card(s.skill);
      let app = s.app;
      if (!app && ctx && card?.apps.includes(ctx)) app = ctx;
      if (!app) app = named.find((a) => card?.apps.includes(a));
      if (app) ctx = app;
      out.push(strip({ ...s, ...(app && { app }) }));
    }
    return out;
  }
}

function strip(c: PlannedStep & Partial<Candidate>): PlannedStep {
  return { clause: c.clause, skill: c.skill, ...(c.app && { app: c.app }), args: c.args, template: c.template };
}
