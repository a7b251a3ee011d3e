import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../app/stores';
import type { LiveStep } from './runStore';

function ms(a: number, b?: number): string {
  if (b === undefined) return '…';
  const d = b - a;
  return d < 1000 ? `${d} ms` : `${(d / 1000).toFixed(1)} s`;
}

function args(step: LiveStep): string {
  const { action: _action, ...rest } = step.resolved;
  const s = JSON.stringify(rest);
  return s === '{}' ? '' : s.length > 140 ? `${s.slice(0, 137)}…` : s;
}

/** The live trajectory: the run's status, the graph with the current node, and every step. */
export function Trajectory() {
  const { run: runStore } = useStores();
  const { run, thumbnails, skill, stop } = useStore(
    runStore,
    useShallow((s) => ({ run: s.run, thumbnails: s.thumbnails, skill: s.skill, stop: s.stop })),
  );
  if (!run)
    return <div className="empty">No run yet. Pick a skill, fill its arguments and press Run; its steps appear here as they happen.</div>;
  const graphSkill = skill && (skill.id === run.skillId || run.steps.some((s) => s.skillId === skill.id)) ? skill : undefined;
  return (
    <div className="trajectory" data-run-id={run.runId} data-status={run.status}>
      <div className="run-head">
        <span className={`status status-${run.status}`}>{run.status}</span>
        <strong>{run.skillId}</strong>
        {run.app && <span className="muted">on {run.app}</span>}
        <span className="muted">
          {run.steps.length} steps · {ms(run.startedAt, run.endedAt ?? (run.status === 'running' ? undefined : Date.now()))}
        </span>
        {run.status === 'running' && (
          <button className="danger" onClick={() => void stop()}>
            Stop
          </button>
        )}
      </div>
      {run.error && (
        <div className="error-box">
          {run.error.message}
          {run.error.nodeId && (
            <>
              {' '}
              (at{' '}
              <code>
                {run.error.skillId}#{run.error.nodeId}
              </code>
              )
            </>
          )}
        </div>
      )}
      {run.result !== undefined && (
        <div className="ok-box">
          Result: <code>{JSON.stringify(run.result)}</code>
        </div>
      )}
      {graphSkill && (
        <div className="node-strip" aria-label="graph nodes">
          {graphSkill.graph.nodes.map((n) => {
            // The node of this graph that is executing (a call node stays current while its callee runs).
            const mine = run.steps.filter((s) => s.skillId === graphSkill.id).at(-1);
            const current =
              run.status === 'running' ? mine?.nodeId === n.id : run.error?.skillId === graphSkill.id && run.error.nodeId === n.id;
            const visited = run.steps.some((s) => s.skillId === graphSkill.id && s.nodeId === n.id);
            return (
              <span key={n.id} className={`chip${current ? ' current' : ''}${visited ? ' visited' : ''}`} data-node={n.id}>
                {n.id}
              </span>
            );
          })}
        </div>
      )}
      {run.notes.map((n, i) => (
        <div key={i} className="note">
          {n}
        </div>
      ))}
      <table className="steps">
        <thead>
          <tr>
            <th>#</th>
            <th>skill · node</th>
            <th>primitive</th>
            <th>arguments</th>
            <th>outcome</th>
            <th>time</th>
            <th>screen</th>
          </tr>
        </thead>
        <tbody>
          {run.steps.map((s) => {
            const current =
              run.status === 'running' && run.current?.nodeId === s.nodeId && run.current.skillId === s.skillId && s.outcome === 'running';
            const thumb = s.screenshotPath ? thumbnails[s.screenshotPath] : undefined;
            return (
              <tr key={s.seq} className={`step step-${s.outcome}${current ? ' current' : ''}`} data-node={s.nodeId}>
                <td>{s.seq}</td>
                <td style={{ paddingLeft: 8 + s.depth * 14 }}>
                  <code>
                    {s.skillId}#{s.nodeId}
                  </code>
                </td>
                <td>{s.primitive}</td>
                <td className="args">
                  <code>{args(s)}</code>
                  {s.error && <div className="field-error">{s.error}</div>}
                </td>
                <td>
                  <span className={`outcome outcome-${s.outcome}`}>{s.outcome}</span>
                </td>
                <td>{ms(s.startedAt, s.endedAt)}</td>
                <td>
                  {thumb ? (
                    <a href={thumb} target="_blank" rel="noreferrer">
                      <img className="thumb" src={thumb} alt={`screen after step ${s.seq}`} />
                    </a>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
