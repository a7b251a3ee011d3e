import { Graph, layout } from '@dagrejs/dagre';
import type { FlowEdge, FlowNode } from './graphModel';

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 64;

/** Layered layout (dagre), top-to-bottom by default; returns nodes with new positions. */
export function autoLayout(nodes: readonly FlowNode[], edges: readonly FlowEdge[], rankdir: 'TB' | 'LR' = 'TB'): FlowNode[] {
  const g = new Graph();
  g.setGraph({ rankdir, nodesep: rankdir === 'TB' ? 40 : 12, ranksep: rankdir === 'TB' ? 50 : 90 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  layout(g);
  return nodes.map((n) => {
    const p = g.node(n.id) as { x: number; y: number } | undefined;
    return p ? { ...n, position: { x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 } } : n;
  });
}
