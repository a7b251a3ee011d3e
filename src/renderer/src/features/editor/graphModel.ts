import type { Edge, Node } from '@xyflow/react';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { SkillDetail } from '../../../../shared/ipc';
import { ManifestSchema } from '../../../../shared/permissions/manifest';
import {
  ArgSpecsSchema,
  GraphSchema,
  SkillDocSchema,
  graphToFileForm,
  validateGraph,
  type GraphEdge,
  type GraphNode,
  type SkillGraph,
} from '../../../../shared/skill';

/** Conversions between the skill model's graph and React Flow's nodes/edges, and local validation. */

export interface NodeData extends Record<string, unknown> {
  node: GraphNode;
  /** Problems found on this node (inline validation). */
  problems: string[];
  running: boolean;
  /** Executed by the latest test run. */
  visited?: boolean;
  isStart: boolean;
}
export interface EdgeData extends Record<string, unknown> {
  when?: GraphEdge['when'];
  weight?: number;
  label?: string;
  problems: string[];
}
export type FlowNode = Node<NodeData, 'skill'>;
export type FlowEdge = Edge<EdgeData>;

/** Skill fields the editor keeps around the graph. */
export interface SkillMeta {
  id: string;
  app: string;
  implements?: string;
  version: string;
  description: string;
  intents: string[];
  returns?: SkillDetail['returns'];
  verify?: SkillDetail['verify'];
}

export function edgeLabel(d: Pick<EdgeData, 'when' | 'weight' | 'label'>): string | undefined {
  const parts = [
    d.label,
    d.when ? `when ${JSON.stringify(d.when)}` : undefined,
    d.weight !== undefined ? `w=${d.weight}` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}

export function toFlow(graph: SkillGraph): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes: FlowNode[] = graph.nodes.map((n, i) => ({
    id: n.id,
    type: 'skill',
    position: n.position ?? { x: 0, y: i * 90 },
    data: { node: n, problems: [], running: false, isStart: n.id === graph.start },
  }));
  const edges: FlowEdge[] = graph.edges.map((e, i) => flowEdge(e, `e${i}-${e.from}-${e.to}`));
  return { nodes, edges };
}

export function flowEdge(e: GraphEdge, id: string): FlowEdge {
  const data: EdgeData = {
    problems: [],
    ...(e.when && { when: e.when }),
    ...(e.weight !== undefined && { weight: e.weight }),
    ...(e.label && { label: e.label }),
  };
  const label = edgeLabel(data);
  return { id, source: e.from, target: e.to, data, ...(label && { label }) };
}

export function fromFlow(start: string, nodes: readonly FlowNode[], edges: readonly FlowEdge[]): SkillGraph {
  return {
    start,
    nodes: nodes.map((n) => ({ ...n.data.node, id: n.id, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) } })),
    edges: edges.map((e) => ({
      from: e.source,
      to: e.target,
      ...(e.data?.when && { when: e.data.when }),
      ...(e.data?.weight !== undefined && { weight: e.data.weight }),
      ...(e.data?.label && { label: e.data.label }),
    })),
  };
}

/** The document the editor saves (file form: nodes as a map). */
export function toSkillDoc(meta: SkillMeta, graph: SkillGraph, args: unknown, permissions: unknown): Record<string, unknown> {
  return {
    kind: 'skill',
    id: meta.id,
    app: meta.app,
    ...(meta.implements && { implements: meta.implements }),
    version: meta.version,
    trust: 'community',
    // An implementation inherits description and intents from its interface method; its args must match the signature.
    ...(!meta.implements && { description: meta.description, intents: meta.intents }),
    args,
    ...(meta.returns && !meta.implements && { returns: meta.returns }),
    permissions,
    graph: graphToFileForm(graph),
    ...(meta.verify && { verify: meta.verify }),
  };
}

export interface Problem {
  /** Node or edge id the problem belongs to; `args`, `permissions` or `skill` otherwise. */
  where: string;
  message: string;
}

/** Everything the main process will check that can be checked here; the save checks again. */
export function validateDraft(
  meta: SkillMeta,
  graph: SkillGraph,
  argsText: string,
  permissionsText: string,
  edgeIds: readonly string[],
): { problems: Problem[]; args?: unknown; permissions?: unknown } {
  const problems: Problem[] = [];
  const args = parseText(argsText, 'args', problems);
  const permissions = parseText(permissionsText, 'permissions', problems);
  if (args !== undefined) {
    const r = ArgSpecsSchema.safeParse(args ?? {});
    if (!r.success) for (const i of r.error.issues) problems.push({ where: 'args', message: `${i.path.join('.')}: ${i.message}` });
  }
  if (permissions !== undefined) {
    const r = ManifestSchema.safeParse(permissions ?? []);
    if (!r.success) for (const i of r.error.issues) problems.push({ where: 'permissions', message: `${i.path.join('.')}: ${i.message}` });
  }
  const file = graphToFileForm(graph);
  const schema = GraphSchema.safeParse(file);
  if (!schema.success) {
    for (const i of schema.error.issues) {
      const [kind, id] = i.path;
      problems.push({
        where: kind === 'nodes' ? String(id) : 'skill',
        message: `${i.path.slice(2).join('.') || i.path.join('.')}: ${i.message}`,
      });
    }
  }
  for (const p of validateGraph(graph)) {
    const [kind, ref] = p.path;
    const where = kind === 'edges' && typeof ref === 'number' ? (edgeIds[ref] ?? 'skill') : kind === 'nodes' ? String(ref) : 'skill';
    problems.push({ where, message: p.message });
  }
  const doc = SkillDocSchema.safeParse(toSkillDoc(meta, graph, args ?? {}, permissions ?? []));
  if (!doc.success && !problems.length) {
    for (const i of doc.error.issues) problems.push({ where: 'skill', message: `${i.path.join('.')}: ${i.message}` });
  }
  return { problems, args, permissions };
}

function parseText(text: string, where: string, problems: Problem[]): unknown {
  try {
    return parseYaml(text) as unknown;
  } catch (err) {
    problems.push({ where, message: `not valid YAML: ${(err as Error).message.split('\n')[0]}` });
    return undefined;
  }
}

export const toYaml = (v: unknown): string => stringifyYaml(v, { lineWidth: 0 });
