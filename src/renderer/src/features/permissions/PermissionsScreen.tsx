import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { CAPABILITY_NAMES } from '../../../../shared/permissions/taxonomy';
import { useStores } from '../../app/stores';
import { auditToCsv } from './permissionsStore';

function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Active grants with revoke, and the audit trail as a filterable, exportable table. */
export function PermissionsScreen() {
  const { permissions } = useStores();
  const s = useStore(
    permissions,
    useShallow((x) => ({
      grants: x.grants,
      audit: x.audit,
      auditCursor: x.auditCursor,
      auditLoading: x.auditLoading,
      filter: x.filter,
      error: x.error,
      prompts: x.prompts,
    })),
  );
  useEffect(() => {
    void permissions.getState().loadGrants();
    void permissions.getState().loadAudit();
  }, [permissions]);
  const setFilter = (patch: Partial<typeof s.filter>) => void permissions.getState().setFilter({ ...s.filter, ...patch });
  // Exports every row that matches the filter, not only the pages loaded into the table.
  const exportAs = async (format: 'csv' | 'json') => {
    const rows = await permissions.getState().exportAudit();
    if (!rows) return;
    if (format === 'csv') download('skilldesk-audit.csv', auditToCsv(rows), 'text/csv');
    else download('skilldesk-audit.json', JSON.stringify(rows, null, 2), 'application/json');
  };
  return (
    <div className="stack">
      {s.error && <div className="error-box">{s.error.message}</div>}
      <section className="panel">
        <h2>Active grants</h2>
        {s.grants.length === 0 ? (
          <p className="muted">No grants. “Allow for this session” answers appear here until the session ends or you revoke them.</p>
        ) : (
          <table className="grants">
            <thead>
              <tr>
                <th>scope</th>
                <th>skill</th>
                <th>capability</th>
                <th>constraints</th>
                <th>granted</th>
                <th>expires</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {s.grants.map((g) => (
                <tr key={g.id}>
                  <td>{g.scope}</td>
                  <td>
                    <code>{g.skillId}</code>
                  </td>
                  <td>
                    <code>{g.capability}</code>
                  </td>
                  <td>
                    <code>{JSON.stringify(g.constraints)}</code>
                  </td>
                  <td>{new Date(g.grantedAt).toLocaleString()}</td>
                  <td>{g.expiresAt ? new Date(g.expiresAt).toLocaleString() : 'when revoked'}</td>
                  <td>
                    <button onClick={() => void permissions.getState().revoke(g.id)}>Revoke</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel">
        <div className="row between">
          <h2>Audit trail</h2>
          <div className="row">
            <button onClick={() => void exportAs('csv')} disabled={!s.audit.length}>
              Export CSV
            </button>
            <button onClick={() => void exportAs('json')} disabled={!s.audit.length}>
              Export JSON
            </button>
          </div>
        </div>
        <div className="row filters">
          <select
            aria-label="decision filter"
            value={s.filter.decision ?? ''}
            onChange={(e) => setFilter({ decision: (e.target.value || undefined) as typeof s.filter.decision })}
          >
            <option value="">every decision</option>
            <option value="allow">allow</option>
            <option value="confirm">confirm (asked)</option>
            <option value="deny">deny</option>
          </select>
          <select
            aria-label="capability filter"
            value={s.filter.capability ?? ''}
            onChange={(e) => setFilter({ capability: e.target.value || undefined })}
          >
            <option value="">every capability</option>
            {CAPABILITY_NAMES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <input
            aria-label="skill filter"
            placeholder="skill id"
            value={s.filter.skill ?? ''}
            onChange={(e) => setFilter({ skill: e.target.value || undefined })}
          />
          <input
            aria-label="text filter"
            placeholder="capability, target, reason…"
            value={s.filter.text ?? ''}
            onChange={(e) => setFilter({ text: e.target.value || undefined })}
          />
          <button onClick={() => void permissions.getState().loadAudit()}>Refresh</button>
        </div>
        <table className="audit">
          <thead>
            <tr>
              <th>time</th>
              <th>skill · node</th>
              <th>capability</th>
              <th>target</th>
              <th>decision</th>
              <th>answer</th>
              <th>reason</th>
              <th>policy</th>
            </tr>
          </thead>
          <tbody>
            {s.audit.map((a) => (
              <tr key={a.id} className={`decision-${a.decision}`} data-audit-id={a.id}>
                <td>{new Date(a.ts).toLocaleTimeString()}</td>
                <td>
                  <code>
                    {a.skillId ?? ''}
                    {a.nodeId ? `#${a.nodeId}` : ''}
                  </code>
                </td>
                <td>
                  <code>{a.capability}</code>
                </td>
                <td className="args">
                  <code>{a.target ?? ''}</code>
                </td>
                <td>
                  <span className={`outcome decision-${a.decision}`}>{a.decision}</span>
                </td>
                <td>{a.answer ?? ''}</td>
                <td>{a.reason}</td>
                <td>
                  <code className="small">{a.policySource}</code>
                </td>
              </tr>
            ))}
            {!s.audit.length && (
              <tr>
                <td colSpan={8} className="muted">
                  {s.auditLoading
                    ? 'Searching…'
                    : `No decision recorded${Object.values(s.filter).some((v) => v !== undefined) ? ' for this filter' : ' yet'}.`}
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {s.auditCursor !== null && (
          <div className="row">
            <button onClick={() => void permissions.getState().loadOlderAudit()} disabled={s.auditLoading}>
              {s.auditLoading ? 'Loading…' : 'Load older'}
            </button>
            <span className="muted">{s.audit.length} shown</span>
          </div>
        )}
      </section>
    </div>
  );
}
