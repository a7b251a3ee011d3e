import type { Migration } from './types';

// Audit pages are read newest first, ORDER BY ts DESC, id DESC (store/auditQuery.ts). An index
// on (column, ts) also holds the rowid, so a filter on that column is a backward range read
// that is already in page order and stops after the page: no sort, no scan of the table.
// 001 has these for ts alone (audit_by_ts) and for skill_id (audit_by_skill); the run filter
// keeps audit_by_run, since a run's rows are few enough to sort.
const SQL = `
CREATE INDEX audit_by_decision ON audit(decision, ts);
CREATE INDEX audit_by_capability ON audit(capability, ts);
CREATE INDEX audit_by_session ON audit(session_id, ts);
`;

/** 002: indexes for filtered, newest-first audit pages (decision, capability, session). */
export const migration002: Migration = {
  version: 2,
  name: 'audit-pages',
  up(db) {
    db.exec(SQL);
  },
};
