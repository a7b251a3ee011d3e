import { Background, Controls, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useStores } from '../../app/stores';
import { autoLayout } from '../editor/layout';
import type { FlowNode } from '../editor/graphModel';
import { compositionApps, compositionSubgraph } from './compositionFilter';

/**
 * Read-only view of the composition graph: which skills call or implement which, and (on demand)
 * which may follow which - dashed, blue across apps - by their pre- and postconditions.
 */
export function CompositionGraph() {
  const { library } = useStores();
  const comp = useStore(library, (s) => s.composition);
  const [follow, setFollow] = useState(false);
  const [app, setApp] = useState('');
  const { nodes, edges } = useMemo(() => {
    if (!comp) return { nodes: [] as Node[], edges: [] as Edge[] };
    const sub = compositionSubgraph(comp, app || undefined, follow);
    const raw = sub.nodes.map((n) => ({
      id: n.id,
      position: { x: 0, y: 0 },
      data: { label: n.id },
      className: `comp comp-${n.kind}`,
    })) as unknown as FlowNode[];
    const e: Edge[] = sub.edges.map((x, i) => ({ id: `c${i}`, source: x.from, target: x.to, animated: false }));
    const laid = autoLayout(raw, e as never, 'LR') as unknown as Node[];
    const f: Edge[] = sub.mayFollow.map((x, i) => ({
      id: `f${i}`,
      source: x.from,
      target: x.to,
      ariaLabel: `${x.from} may be followed by ${x.to} (${x.facts.join(', ')})`,
      className: x.acrossApps ? 'may-follow across' : 'may-follow',
      style: { strokeDasharray: '4 3', ...(x.acrossApps && { stroke: '#3b6fd8' }) },
    }));
    return { nodes: laid, edges: [...e, ...f] };
  }, [comp, follow, app]);
  if (!comp) return <div className="empty">Loading the composition graph…</div>;
  return (
    <div className="flow-box tall">
      <ReactFlow
        // A new selection is laid out and fitted afresh.
        key={`${app}|${follow}`}
        nodes={nodes}
        edges={edges}
        fitView
        minZoom={0.05}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
      <div className="legend">
        <select aria-label="composition app" value={app} onChange={(ev) => setApp(ev.target.value)}>
          <option value="">all apps</option>
          {compositionApps(comp).map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={follow} onChange={(ev) => setFollow(ev.target.checked)} /> may follow ({comp.mayFollow.length})
        </label>
        <span className="comp-interface_method">interface method</span>
        <span className="comp-composite">composite</span>
        <span className="comp-implementation">implementation</span>
        <span className="comp-app_skill">app skill</span>
      </div>
    </div>
  );
}
