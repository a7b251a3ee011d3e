import { z } from 'zod';
import { GuardSchema, guardConditions, type Guard, type WaitCondition } from './conditions';
import { BRING_UP, bringsUpItsApp, type BringUpSubject } from './bringUp';
import { PrimitiveSchema, primitiveInto, type Primitive } from './primitives';

/**
 * Execution graphs. Authors write nodes as flat maps (`{ action: hotkey, keys: [...], next: b }`);
 * the schema normalises them into `nodes[]` + `edges[]`, the form the executor walks and the
 * graph editor edits. Both forms are accepted on load.
 */

const NODE_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export const EdgeSchema = z
  .object({
    from: z.string().regex(NODE_ID),
    to: z.string().regex(NODE_ID),
    /** Taken only when the guard holds. */
    when: GuardSchema.optional(),
    /** Preference among alternatives: higher first. @default 1 */
    weight: z.number().positive().optional(),
    label: z.string().optional(),
  })
  .strict();
export type GraphEdge = z.infer<typeof EdgeSchema>;

const PositionSchema = z.object({ x: z.number(), y: z.number() }).strict();

export type GraphNode =
  | {
      id: string;
      kind: 'action';
      primitive: Primitive;
      label?: string;
      /** Capture a screenshot after this step. */
      screenshot?: boolean;
      position?: { x: number; y: number };
    }
  | {
      id: string;
      kind: 'terminal';
      outcome: 'success' | 'failure';
      message?: string;
      label?: string;
      position?: { x: number; y: number };
    };

export interface SkillGraph {
  start: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const NextSchema = z.union([z.string().regex(NODE_ID), z.array(z.union([z.string().regex(NODE_ID), EdgeSchema.omit({ from: true })]))]);

const META_KEYS = new Set(['label', 'next', 'screenshot', 'position', 'terminal', 'message']);

/** Parses one flat node into its normalised form plus the edges its `next` declares. */
function parseFlatNode(
  id: string,
  raw: unknown,
  ctx: z.RefinementCtx,
  path: (string | number)[],
): { node?: GraphNode; edges: GraphEdge[] } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    ctx.addIssue({ code: 'custom', path, message: 'a node must be a map such as `{ action: key, key: Enter }`' });
    return { edges: [] };
  }
  const obj = raw as Record<string, unknown>;
  const edges: GraphEdge[] = [];
  if (obj.next !== undefined) {
    const next = NextSchema.safeParse(obj.next);
    if (!next.success) {
      for (const issue of next.error.issues)
        ctx.addIssue({ code: 'custom', path: [...path, 'next', ...issue.path.map(String)], message: issue.message });
    } else {
      const list = typeof next.data === 'string' ? [next.data] : next.data;
      for (const e of list) edges.push(typeof e === 'string' ? { from: id, to: e } : { from: id, ...e });
    }
  }
  const label = typeof obj.label === 'string' ? obj.label : undefined;
  const position = obj.position === undefined ? undefined : PositionSchema.safeParse(obj.position);
  if (position && !position.success)
    ctx.addIssue({ code: 'custom', path: [...path, 'position'], message: 'expected `{ x: number, y: number }`' });
  const pos = position?.success ? position.data : undefined;

  if (obj.terminal !== undefined) {
    if (obj.terminal !== 'success' && obj.terminal !== 'failure') {
      ctx.addIssue({
        code: 'custom',
        path: [...path, 'terminal'],
        message: `expected \`success\` or \`failure\`, got ${JSON.stringify(obj.terminal)}`,
      });
      return { edges };
    }
    const extra = Object.keys(obj).filter((k) => !META_KEYS.has(k));
    if (extra.length) ctx.addIssue({ code: 'custom', path: [...path, extra[0]!], message: 'a terminal node takes no action fields' });
    const node: GraphNode = { id, kind: 'terminal', outcome: obj.terminal, ...(label && { label }), ...(pos && { position: pos }) };
    if (typeof obj.message === 'string') node.message = obj.message;
    return { node, edges };
  }
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!META_KEYS.has(k)) rest[k] = v;
  const prim = PrimitiveSchema.safeParse(rest);
  if (!prim.success) {
    for (const issue of prim.error.issues) {
      ctx.addIssue({ code: 'custom', path: [...path, ...issue.path.map(String)], message: issue.message });
    }
    return { edges };
  }
  const node: GraphNode = { id, kind: 'action', primitive: prim.data, ...(label && { label }), ...(pos && { position: pos }) };
  if (obj.screenshot === true) node.screenshot = true;
  return { node, edges };
}

/** The graph as authors write it; transforms into `SkillGraph`. */
export const GraphSchema = z
  .object({
    start: z.string().regex(NODE_ID),
    nodes: z.record(z.string().regex(NODE_ID, 'node ids are letters, digits, _ and -'), z.unknown()),
    edges: z.array(EdgeSchema).optional(),
  })
  .strict()
  .transform((g, ctx): SkillGraph => {
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (const [id, raw] of Object.entries(g.nodes)) {
      const parsed = parseFlatNode(id, raw, ctx, ['nodes', id]);
      if (parsed.node) nodes.push(parsed.node);
      edges.push(...parsed.edges);
    }
    edges.push(...(g.edges ?? []));
    return { start: g.start, nodes, edges };
  });

/** The file form of a normalised graph (`nodes` as a map, `edges` listed): what the editor saves. */
export function graphToFileForm(graph: SkillGraph): { start: string; nodes: Record<string, unknown>; edges: GraphEdge[] } {
  const nodes: Record<string, unknown> = {};
  for (const n of graph.nodes) {
    const meta = { ...(n.label && { label: n.label }), ...(n.position && { position: n.position }) };
    nodes[n.id] =
      n.kind === 'terminal'
        ? { terminal: n.outcome, ...(n.message && { message: n.message }), ...meta }
        : { ...n.primitive, ...(n.screenshot && { screenshot: true }), ...meta };
  }
  return { start: graph.start, nodes, edges: graph.edges };
}

export interface GraphProblem {
  /** Path inside the graph, e.g. `['edges', 2, 'to']` or `['nodes', 'save']`. */
  path: (string | number)[];
  message: string;
}

/** Out-edges of `nodeId`, ordered by weight (highest first), stable for equal weights. */
export function outEdges(graph: SkillGraph, nodeId: string): GraphEdge[] {
  return graph.edges
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.from === nodeId)
    .sort((a, b) => (b.e.weight ?? 1) - (a.e.weight ?? 1) || a.i - b.i)
    .map(({ e }) => e);
}

/** Variables a graph defines through `into` (read, run_script, call). */
export function graphVariables(graph: SkillGraph): string[] {
  const vars = new Set<string>();
  for (const n of graph.nodes) {
    const into = n.kind === 'action' ? primitiveInto(n.primitive) : undefined;
    if (into) vars.add(into);
  }
  return [...vars];
}

/** A step the mediator is asked about: a graph node, the skill's `verify`, or a condition an edge guard reads. */
export interface MediatedStep {
  id: string;
  primitive: Primitive;
  screenshot: boolean;
}

/**
 * Every step of a skill that reaches the desktop, as the executor asks the mediator about it:
 * action nodes, the final `verify` (a `wait_until`), and each condition an edge's guard reads.
 */
export function mediatedSteps(
  skill: { graph: SkillGraph; verify?: { condition: WaitCondition } | undefined } & Partial<BringUpSubject>,
): MediatedStep[] {
  const steps: MediatedStep[] = [];
  const nodes = [...(bringsUpItsApp(skill) ? BRING_UP.nodes : []), ...skill.graph.nodes];
  for (const n of nodes) {
    if (n.kind === 'action') steps.push({ id: n.id, primitive: n.primitive, screenshot: n.screenshot ?? false });
  }
  for (const e of skill.graph.edges) {
    for (const condition of e.when ? guardConditions(e.when) : []) {
      steps.push({ id: `${e.from}->${e.to} (guard)`, primitive: { action: 'wait_until', condition }, screenshot: false });
    }
  }
  if (skill.verify)
    steps.push({ id: '(verify)', primitive: { action: 'wait_until', condition: skill.verify.condition }, screenshot: false });
  return steps;
}

/** Guard argument names referenced anywhere in a guard. */
export function guardArgs(guard: Guard): string[] {
  if ('all' in guard) return guard.all.flatMap(guardArgs);
  if ('any' in guard) return guard.any.flatMap(guardArgs);
  if ('not' in guard) return guardArgs(guard.not);
  if ('arg' in guard) return [guard.arg];
  return [];
}

/**
 * Structural checks beyond the schema: ids unique and known, start present, terminals are the
 * only sinks (every action node has a `next`, so every path ends explicitly at a terminal node),
 * every node reachable, no cycles (retries are alternatives, not loops).
 */
export function validateGraph(graph: SkillGraph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const ids = new Set<string>();
  graph.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push({ path: ['nodes', n.id], message: `duplicate node id \`${n.id}\`` });
    ids.add(n.id);
    void i;
  });
  if (!ids.has(graph.start))
    problems.push({ path: ['start'], message: `start node \`${graph.start}\` does not exist; nodes: ${[...ids].join(', ')}` });
  graph.edges.forEach((e, i) => {
    if (!ids.has(e.from)) problems.push({ path: ['edges', i, 'from'], message: `edge from unknown node \`${e.from}\`` });
    if (!ids.has(e.to)) problems.push({ path: ['edges', i, 'to'], message: `edge to unknown node \`${e.to}\`` });
  });
  // Action nodes that lead nowhere: reported whatever else is wrong, since the walk below does not need them.
  const sinks: GraphProblem[] = [];
  for (const n of graph.nodes) {
    const exits = graph.edges.some((e) => e.from === n.id);
    if (n.kind === 'terminal' && exits) {
      problems.push({ path: ['nodes', n.id], message: `terminal node \`${n.id}\` must not have outgoing edges` });
    }
    if (n.kind === 'action' && !exits) {
      sinks.push({
        path: ['nodes', n.id],
        message: `node \`${n.id}\` has no \`next\`: end the path at a terminal node (\`next: done\` and \`done: { terminal: success }\`)`,
      });
    }
  }
  if (problems.length) return [...problems, ...sinks];

  const seen = new Set<string>();
  const onStack = new Set<string>();
  const visit = (id: string): void => {
    seen.add(id);
    onStack.add(id);
    for (const e of outEdges(graph, id)) {
      if (onStack.has(e.to))
        problems.push({ path: ['nodes', e.to], message: `cycle through \`${id}\` -> \`${e.to}\`; graphs must be acyclic` });
      else if (!seen.has(e.to)) visit(e.to);
    }
    onStack.delete(id);
  };
  visit(graph.start);
  for (const id of ids) {
    if (!seen.has(id)) problems.push({ path: ['nodes', id], message: `node \`${id}\` is unreachable from start \`${graph.start}\`` });
  }
  return [...problems, ...sinks];
}

/** Every primitive of the graph in node order (for manifests and metrics). */
export function graphPrimitives(graph: SkillGraph): Primitive[] {
  return graph.nodes.flatMap((n) => (n.kind === 'action' ? [n.primitive] : []));
}

/** A `call` primitive: runs another skill (an interface method or a concrete id). */
export type CallPrimitive = Extract<Primitive, { action: 'call' }>;

/** One call edge of a skill's graph: the node that calls, and its call. */
export interface CallEdge {
  nodeId: string;
  call: CallPrimitive;
}

/**
 * The call edges of a graph in node order: which skills it calls, by reference as written
 * (interface method or concrete id, not yet resolved to an app). The composition graph, task
 * synthesis, manifests and library checks all walk calls through this.
 */
export function callEdges(graph: SkillGraph): CallEdge[] {
  return graph.nodes.flatMap((n) => (n.kind === 'action' && n.primitive.action === 'call' ? [{ nodeId: n.id, call: n.primitive }] : []));
}
