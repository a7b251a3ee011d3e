import type { StoreDb } from '../../../../../src/main/services/store';

/**
 * Inserts `count` audit rows with one SQL statement (a recursive CTE), so a test can hold
 * hundreds of thousands of rows in well under a second. Row `i` (1-based, also its id in an
 * empty table) has `ts = 1_000_000 + i`, skill `skill.<i % 7>`, capability `cap.<i % 6>`, target
 * `/tmp/f<i>.txt`, session `s<floor(i / 50_000)>`, and is a deny when i % 100 = 0, a confirm
 * (answered allow_once) when i % 20 = 0, an allow otherwise. The hashes are placeholders: these
 * rows are for queries, not for the chain (`verifyAuditChain` fails on them at row 1).
 */
export function insertAuditRows(db: StoreDb, count: number): void {
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
    INSERT INTO audit (ts, session_id, run_id, skill_id, node_id, capability, target, decision, answer, reason, policy_source, prev_hash, hash)
    SELECT 1000000 + i, 's' || (i / 50000), 'r' || (i / 40), 'skill.' || (i % 7), 'n', 'cap.' || (i % 6), '/tmp/f' || i || '.txt',
      CASE WHEN i % 100 = 0 THEN 'deny' WHEN i % 20 = 0 THEN 'confirm' ELSE 'allow' END,
      CASE WHEN i % 100 <> 0 AND i % 20 = 0 THEN 'allow_once' END,
      'reason ' || i, 'manifest:skill.' || (i % 7) || '#0', printf('%064d', i - 1), printf('%064d', i)
    FROM n`,
  ).run(count);
}
