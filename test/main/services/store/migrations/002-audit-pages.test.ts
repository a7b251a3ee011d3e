import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_GENESIS_HASH,
  iterateAudit,
  LEGACY_AUDIT_KEYING,
  legacyAuditHash,
  queryAudit,
  verifyAuditRows,
  type StoreDb,
} from '../../../../../src/main/services/store';
import { openAtVersion, upgrade } from '../helpers/migrationHarness';
import { useTempStores } from '../helpers/tempDir';

const temp = useTempStores();

/** How SQLite would run a newest-first page filtered on `column`. */
function plan(db: StoreDb, column: string): string {
  return (
    db
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM audit WHERE ${column} = ? AND ts >= ? ORDER BY ts DESC, id DESC LIMIT 101`)
      .all('x', 0) as { detail: string }[]
  )
    .map((r) => r.detail)
    .join('; ');
}

describe('src/main/services/store/migrations/002-audit-pages', () => {
  it('keeps every audit row and its chain, and serves filtered newest-first pages from an index without sorting (version 1 -> 2)', () => {
    const db = openAtVersion(join(temp.dir(), 'v1.db'), 1);
    try {
      // Data as version 1 wrote it: rows chained by plain SHA-256 (audit keys came later).
      const insert = db.prepare(
        `INSERT INTO audit (ts, session_id, skill_id, capability, decision, reason, policy_source, prev_hash, hash)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      let prevHash = AUDIT_GENESIS_HASH;
      for (let i = 1; i <= 30; i++) {
        const row = {
          ts: 1_000 + i,
          sessionId: `s${i % 2}`,
          runId: null,
          skillId: 'a.b',
          nodeId: null,
          capability: i % 3 ? 'file.write' : 'web.post',
          target: null,
          decision: i % 5 ? ('allow' as const) : ('deny' as const),
          answer: null,
          reason: 'r',
          policySource: 'p',
          argsDigest: null,
          prevHash,
        };
        const hash = legacyAuditHash(row);
        insert.run(row.ts, row.sessionId, row.skillId, row.capability, row.decision, row.reason, row.policySource, prevHash, hash);
        prevHash = hash;
      }
      const before = db.prepare('SELECT * FROM audit ORDER BY id').all();
      // Version 1 reads these filters row by row along the time index.
      for (const column of ['decision', 'capability', 'session_id']) expect(plan(db, column)).not.toContain(`${column}=?`);

      expect(upgrade(db, 2)).toEqual({ from: 1, to: 2, applied: [2] });

      expect(db.prepare('SELECT * FROM audit ORDER BY id').all()).toEqual(before);
      expect(verifyAuditRows(iterateAudit(db), LEGACY_AUDIT_KEYING)).toMatchObject({ ok: true, count: 30 });
      for (const [column, index] of [
        ['decision', 'audit_by_decision'],
        ['capability', 'audit_by_capability'],
        ['session_id', 'audit_by_session'],
        ['skill_id', 'audit_by_skill'],
      ]) {
        const p = plan(db, column!);
        expect(p).toContain(`SEARCH audit USING INDEX ${index} (${column}=? AND ts>?)`);
        expect(p).not.toContain('TEMP B-TREE');
      }
      const denies = queryAudit(db, { decision: 'deny', limit: 4 });
      expect(denies.rows.map((r) => r.id)).toEqual([30, 25, 20, 15]);
      expect(queryAudit(db, { decision: 'deny', cursor: denies.nextCursor! }).rows.map((r) => r.id)).toEqual([10, 5]);
    } finally {
      db.close();
    }
  });
});
