import type { CompositionView } from '../../../../shared/ipc';

/**
 * The part of the composition graph one app takes part in: its skills, the interface methods they
 * implement or call, the composites that call those methods, and - with `follow` - the may-follow
 * edges touching its skills with the skills at their other end (other apps' too). Without an app,
 * everything (may-follow edges only with `follow`).
 */
export function compositionSubgraph(comp: CompositionView, app: string | undefined, follow: boolean): CompositionView {
  const mayFollow = follow ? comp.mayFollow : [];
  if (!app) return { nodes: comp.nodes, edges: comp.edges, mayFollow };
  const kind = new Map(comp.nodes.map((n) => [n.id, n.kind]));
  const own = new Set(comp.nodes.filter((n) => n.app === app).map((n) => n.id));
  const keep = new Set(own);
  for (const e of comp.edges) {
    if (own.has(e.from) && kind.get(e.to) === 'interface_method') keep.add(e.to);
    if (own.has(e.to) && kind.get(e.from) === 'interface_method') keep.add(e.from);
  }
  for (const e of comp.edges) if (keep.has(e.to) && kind.get(e.from) === 'composite') keep.add(e.from);
  const linked = mayFollow.filter((e) => own.has(e.from) || own.has(e.to));
  for (const e of linked) keep.add(e.from).add(e.to);
  return {
    nodes: comp.nodes.filter((n) => keep.has(n.id)),
    edges: comp.edges.filter((e) => keep.has(e.from) && keep.has(e.to)),
    mayFollow: linked,
  };
}

/** The apps the graph's skills run on, sorted. */
export function compositionApps(comp: CompositionView): string[] {
  return [...new Set(comp.nodes.flatMap((n) => (n.app ? [n.app] : [])))].sort();
}
