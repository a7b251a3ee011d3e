import { Handle, Position, type NodeProps } from '@xyflow/react';
import type { FlowNode } from './graphModel';

function summary(n: FlowNode['data']['node']): string {
  if (n.kind === 'terminal') return `${n.outcome}${n.message ? `: ${n.message}` : ''}`;
  const { action, ...rest } = n.primitive;
  const s = JSON.stringify(rest);
  return `${action} ${s === '{}' ? '' : s.length > 60 ? `${s.slice(0, 57)}…` : s}`;
}

/** A graph node: id, primitive summary, start marker, problems, and the running highlight. */
export function SkillNode({ data, selected }: NodeProps<FlowNode>) {
  const n = data.node;
  const cls = [
    'gnode',
    n.kind === 'terminal' ? `terminal-${n.outcome}` : 'action',
    data.running && 'running',
    data.visited && !data.running && 'visited',
    data.problems.length && 'has-problems',
    selected && 'selected',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cls} data-node-id={n.id} title={data.problems.join('\n')}>
      <Handle type="target" position={Position.Top} />
      <div className="gnode-head">
        {data.isStart && <span className="start-tag">start</span>}
        <strong>{n.label ?? n.id}</strong>
        {data.problems.length > 0 && <span className="problem-tag">{data.problems.length}!</span>}
      </div>
      <div className="gnode-body">{summary(n)}</div>
      {n.kind !== 'terminal' && <Handle type="source" position={Position.Bottom} />}
    </div>
  );
}
