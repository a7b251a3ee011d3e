import { Background, Controls, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useStores } from '../../app/stores';
import { autoLayout } from '../editor/layout';
import type { FlowNode } from '../editor/graphModel';

/** Read-only view of which skills call or implement which (the composition graph). */
export function CompositionGraph() {
  const { library } = useStores();
  const comp = useStore(library, (s) => s.composition);
  const { nodes, edges } = useMemo(() => {
    if (!comp) return { nodes: [] as Node[], edges: [] as Edge[] };
    const raw = comp.nodes.map((n) => ({
      id: n.id,
      position: { x: 0, y: 0 },
      data: { label: n.id },
      className: `comp comp-${n.kind}`,
    })) as unknown as FlowNode[];
    const e: Edge[] = comp.edges.map((x, i) => ({ id: `c${i}`, source: x.from, target: x.to, animated: false }));
    return { nodes: autoLayout(raw, e as never, 'LR') as unknown as Node[], edges: e };
  }, [comp]);
  if (!comp) return <div className="empty">Loading the composition graph…</div>;
  return (
    <div className="flow-box tall">
      <ReactFlow
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
        <span className="comp-interface_method">interface method</span>
        <span className="comp-composite">composite</span>
        <span className="comp-implementation">implementation</span>
        <span className="comp-app_skill">app skill</span>
      </div>
    </div>
  );
}
