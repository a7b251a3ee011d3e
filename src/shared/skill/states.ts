import { z } from 'zod';
import type { ArgSpec, ArgSpecs } from './domains';
import type { SkillLibrary } from './library';
import { callEdges } from './graph';
import { callTree } from './tasks';
import { templateSlots } from './template';

/**
 * The state model: facts about the desktop a method needs before it runs (`pre`) and makes true
 * (or false) when it succeeds (`post`), declared on the interface and refined per app. The
 * composition graph links a skill to the skills that may follow it when one of its postconditions
 * satisfies one of their preconditions: within an app for the app's own state (its document, its
 * selection), and across apps through the world they share (files, the clipboard, the registry).
 */

type Param = 'path' | 'value' | 'cell' | 'title' | 'key' | 'name';

interface FactKind {
  /** `app`: state of one app (only its own skills see it); `world`: shared by every app. */
  scope: 'app' | 'world';
  params: readonly Param[];
  required?: readonly Param[];
  description: string;
}

export const FACT_KINDS = {
  app_running: { scope: 'app', params: [], description: 'the app has a window open' },
  document_open: { scope: 'app', params: ['path'], description: 'a document (the file at `path`, when given) is open in the app' },
  document_modified: { scope: 'app', params: [], description: 'the open document has changes not saved yet' },
  selection_present: { scope: 'app', params: [], description: 'something is selected in the focused document or view' },
  dialog_open: { scope: 'app', params: ['title'], description: 'a dialog (titled `title`, when given) is open' },
  window_title: { scope: 'app', params: ['value'], description: 'the title of the app window in front contains `value`' },
  cell_value: { scope: 'app', params: ['cell', 'value'], description: 'a spreadsheet cell holds a value' },
  file_exists: { scope: 'world', params: ['path'], required: ['path'], description: 'a file is at `path`' },
  folder_exists: { scope: 'world', params: ['path'], required: ['path'], description: 'a folder is at `path`' },
  image_size: {
    scope: 'world',
    params: ['path', 'value'],
    required: ['path'],
    description: 'the image at `path` is `value` (WIDTHxHEIGHT) pixels',
  },
  file_content: {
    scope: 'world',
    params: ['path', 'value'],
    required: ['path'],
    description: 'the file at `path` holds known content (`value`, when given)',
  },
  clipboard_holds: { scope: 'world', params: ['value'], description: 'the clipboard holds text (`value`, when given)' },
  registry_value: {
    scope: 'world',
    params: ['key', 'name', 'value'],
    required: ['key', 'name'],
    description: 'a registry value is set',
  },
} as const satisfies Record<string, FactKind>;

export type FactKindName = keyof typeof FACT_KINDS;
const KIND_NAMES = Object.keys(FACT_KINDS) as [FactKindName, ...FactKindName[]];
const PARAMS: readonly Param[] = ['path', 'value', 'cell', 'title', 'key', 'name'];

/** A parameter: a literal, or a template over the method's arguments (`${path}`). */
const ParamValue = z.union([z.string().min(1).max(500), z.number(), z.boolean()]);

export const FactSchema = z
  .object({
    fact: z.enum(KIND_NAMES),
    /** False for a fact the method ends (close_document: the document is no longer open). @default true */
    holds: z.boolean().default(true),
    path: ParamValue.optional(),
    value: ParamValue.optional(),
    cell: ParamValue.optional(),
    title: ParamValue.optional(),
    key: ParamValue.optional(),
    name: ParamValue.optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    const kind: FactKind = FACT_KINDS[f.fact];
    for (const p of PARAMS) {
      if (f[p] !== undefined && !kind.params.includes(p))
        ctx.addIssue({
          code: 'custom',
          path: [p],
          message: `\`${f.fact}\` takes ${kind.params.length ? kind.params.map((x) => `\`${x}\``).join(', ') : 'no parameters'}, not \`${p}\``,
        });
    }
    for (const p of kind.required ?? []) {
      if (f[p] === undefined) ctx.addIssue({ code: 'custom', path: [p], message: `\`${f.fact}\` needs \`${p}\`` });
    }
  });
export type Fact = z.infer<typeof FactSchema>;

export const FactsSchema = z.array(FactSchema).max(20).default([]);

/** Pre- and postconditions of a method or skill. */
export interface Conditions {
  pre: Fact[];
  post: Fact[];
}

/** Argument names the facts' templates refer to that are not among `args`. */
export function unknownFactArgs(facts: readonly Fact[], args: readonly string[]): { index: number; param: Param; arg: string }[] {
  const out: { index: number; param: Param; arg: string }[] = [];
  facts.forEach((f, index) => {
    for (const param of PARAMS) {
      const v = f[param];
      if (typeof v !== 'string') continue;
      for (const arg of templateSlots(v)) if (!args.includes(arg)) out.push({ index, param, arg });
    }
  });
  return out;
}

/** An app's refinement of a method's conditions: its own facts added to the interface's (each once). */
export function refineConditions(base: Conditions | undefined, own: Partial<Conditions>): Conditions {
  const merge = (a: readonly Fact[] = [], b: readonly Fact[] = []) => {
    const seen = new Set<string>();
    return [...a, ...b].filter((f) => {
      const k = factKey(f);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  return { pre: merge(base?.pre, own.pre), post: merge(base?.post, own.post) };
}

function factKey(f: Fact): string {
  return JSON.stringify([f.fact, f.holds, ...PARAMS.map((p) => f[p] ?? null)]);
}

/** One runnable skill on one app, with the conditions it runs under there. */
export interface StateNode {
  skill: string;
  app: string;
  /** The interface method it implements, when it does. */
  method?: string;
  /** Its arguments' domains (a binding between two paths needs extensions they share). */
  args: ArgSpecs;
  conditions: Conditions;
}

/** "`to` may follow `from`": postconditions of `from` satisfy preconditions of `to`. */
export interface MayFollowEdge {
  from: { skill: string; app: string };
  to: { skill: string; app: string };
  /** The facts that link them. */
  facts: FactKindName[];
  /** Through the shared world (a file, the clipboard, the registry) from one app to another. */
  acrossApps: boolean;
  /**
   * Data flowing from `from` to `to`: an argument of `to` and the template (over `from`'s
   * arguments) or literal giving it, e.g. `{ path: '${path}' }` for open_file after save_as.
   */
  bind: Record<string, string | number | boolean>;
}

/**
 * The may-follow edges between `nodes`. A postcondition satisfies a precondition of the same fact
 * kind and truth when the scopes allow (an app fact only within its app) and their parameters
 * agree: two literals must be equal; a precondition parameter that is exactly one argument slot
 * takes the postcondition's value (a binding); a parameter one side leaves out matches anything.
 */
export function mayFollowEdges(nodes: readonly StateNode[]): MayFollowEdge[] {
  const edges: MayFollowEdge[] = [];
  for (const u of nodes) {
    for (const v of nodes) {
      if (u === v) continue;
      const facts = new Set<FactKindName>();
      let bind: MayFollowEdge['bind'] | undefined;
      for (const p of u.conditions.post) {
        for (const q of v.conditions.pre) {
          if (p.fact !== q.fact || p.holds !== q.holds) continue;
          if (FACT_KINDS[p.fact].scope === 'app' && u.app !== v.app) continue;
          const b = unify(p, q, u.args, v.args);
          if (!b) continue;
          facts.add(p.fact);
          bind = { ...bind, ...b };
        }
      }
      if (facts.size === 0) continue;
      edges.push({
        from: { skill: u.skill, app: u.app },
        to: { skill: v.skill, app: v.app },
        facts: [...facts],
        acrossApps: u.app !== v.app,
        bind: bind ?? {},
      });
    }
  }
  return edges;
}

const ONE_SLOT = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * The bindings under which postcondition `p` (of a skill with arguments `uArgs`) satisfies
 * precondition `q` (arguments `vArgs`); undefined when it cannot. An argument bound to another
 * must be able to hold its values: two paths limited to extensions share one (a PDF written by
 * export_pdf does not open as a `.txt`-only path).
 */
function unify(p: Fact, q: Fact, uArgs: ArgSpecs, vArgs: ArgSpecs): MayFollowEdge['bind'] | undefined {
  const bind: MayFollowEdge['bind'] = {};
  for (const param of FACT_KINDS[p.fact].params as readonly Param[]) {
    const pv = p[param];
    const qv = q[param];
    if (pv === undefined || qv === undefined) continue;
    const slot = typeof qv === 'string' ? ONE_SLOT.exec(qv)?.[1] : undefined;
    if (slot) {
      const from = typeof pv === 'string' ? ONE_SLOT.exec(pv)?.[1] : undefined;
      if (from && !sharesExtensions(uArgs[from], vArgs[slot])) return undefined;
      bind[slot] = pv;
    } else if (!isTemplate(pv) && !isTemplate(qv) && pv !== qv) return undefined;
  }
  return bind;
}

function sharesExtensions(a: ArgSpec | undefined, b: ArgSpec | undefined): boolean {
  const ea = a?.type === 'path' ? a.extensions?.map((e) => e.toLowerCase()) : undefined;
  const eb = b?.type === 'path' ? b.extensions?.map((e) => e.toLowerCase()) : undefined;
  return !ea || !eb || ea.some((e) => eb.includes(e));
}

function isTemplate(v: string | number | boolean): boolean {
  return typeof v === 'string' && templateSlots(v).length > 0;
}

/**
 * The runnable skills of `library` on each app (or on `app` alone), with their conditions:
 * implementations and app-only skills on their app, and each interface composite on every app
 * where it is what the method dispatches to (no override) and everything it calls resolves.
 */
export function stateNodes(library: SkillLibrary, app?: string): StateNode[] {
  const nodes: StateNode[] = [];
  const apps = app ? [app] : [...library.apps.keys()];
  for (const s of [...library.skills.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const method = s.implements && { method: s.implements };
    if (s.kind !== 'composite') {
      if (s.app && apps.includes(s.app)) nodes.push({ skill: s.id, app: s.app, ...method, args: s.args, conditions: s.conditions });
      continue;
    }
    for (const a of apps) {
      const tree = callTree(library, s, a);
      if (tree && library.resolve(s.implements!, a).id === s.id)
        nodes.push({ skill: s.id, app: a, ...method, args: s.args, conditions: s.conditions });
    }
  }
  return nodes;
}

/** A call from a skill to the skill it dispatches to on the same app. */
export interface SkillCall {
  from: { skill: string; app: string };
  to: { skill: string; app: string };
}

/** The composition graph on concrete skills: calls (a composite's steps) and may-follow edges (states). */
export interface CompositionGraph {
  nodes: StateNode[];
  calls: SkillCall[];
  mayFollow: MayFollowEdge[];
}

/**
 * The composition graph of `library`, or the part touching `app`: its skills, what they call there,
 * and what may follow them or what they may follow (across apps too, through files, the clipboard
 * and the registry).
 */
export function compositionGraph(library: SkillLibrary, app?: string): CompositionGraph {
  const all = stateNodes(library);
  const touches = (e: { from: { app: string }; to: { app: string } }) => !app || e.from.app === app || e.to.app === app;
  const calls: SkillCall[] = [];
  for (const n of all) {
    if (app && n.app !== app) continue;
    const skill = library.skills.get(n.skill)!;
    for (const { call } of callEdges(skill.graph)) {
      let to: string;
      try {
        to = library.resolve(call.skill, skill.app ?? n.app).id;
      } catch {
        continue; // a node exists only where its calls resolve; an app skill's call may not
      }
      if (!calls.some((c) => c.from.skill === n.skill && c.from.app === n.app && c.to.skill === to))
        calls.push({ from: { skill: n.skill, app: n.app }, to: { skill: to, app: n.app } });
    }
  }
  const mayFollow = mayFollowEdges(all).filter(touches);
  const linked = new Set(mayFollow.flatMap((e) => [`${e.from.skill}@${e.from.app}`, `${e.to.skill}@${e.to.app}`]));
  const nodes = all.filter((n) => !app || n.app === app || linked.has(`${n.skill}@${n.app}`));
  return { nodes, calls, mayFollow };
}
