import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendAudit,
  AUDIT_SCAN_BUDGET,
  iterateAudit,
  openStore,
  queryAudit,
  type AuditPageQuery,
  type AuditRow,
  type SqliteStore,
  type StoreDb,
} from '../../../../src/main/services/store';
import { insertAuditRows } from './helpers/auditRows';
import { useTempStores } from './helpers/tempDir';

/** Every page of a query, following cursors to the end; also how many calls it took. */
function allPages(db: StoreDb, query: AuditPageQuery): { rows: AuditRow[]; calls: number } {
  const rows: AuditRow[] = [];
  let calls = 0;
  let cursor: string | null | undefined;
  do {
    const page = queryAudit(db, { ...query, ...(cursor && { cursor }) });
    calls++;
    expect(page.rows.length).toBeLessThanOrEqual(query.limit ?? 100);
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return { rows, calls };
}

// One store of 200,010 rows (the size of the filed bug: the old view scanned the first 200,000
// rows and showed their tail as the newest), shared read-only by the tests of this block.
describe('src/main/services/store/auditQuery (200,010 rows)', () => {
  const ROWS = 200_010;
  let dir: string;
  let store: SqliteStore;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-audit-query-'));
    store = openStore({ dataDir: dir });
    insertAuditRows(store.db, ROWS);
    store.db.prepare("UPDATE audit SET target = '/home/u/NeedLe.txt' WHERE id = 5").run();
  }, 60_000);
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const ids = (rows: AuditRow[]) => rows.map((r) => r.id);

  it('shows the newest rows first and pages down to the oldest row when there are 200,010 rows', () => {
    const first = queryAudit(store.db, { limit: 10 });
    expect(ids(first.rows)).toEqual([200_010, 200_009, 200_008, 200_007, 200_006, 200_005, 200_004, 200_003, 200_002, 200_001]);
    expect(first.nextCursor).not.toBeNull();
    const second = queryAudit(store.db, { limit: 3, cursor: first.nextCursor! });
    expect(ids(second.rows)).toEqual([200_000, 199_999, 199_998]);

    // Paging reaches the oldest row: all 2,000 denies, 500 a page, the last one is row 100.
    const { rows, calls } = allPages(store.db, { decision: 'deny', limit: 500 });
    expect(calls).toBe(4);
    expect(rows).toHaveLength(2_000);
    expect(rows[0]!.id).toBe(200_000);
    expect(rows.at(-1)!.id).toBe(100);
    expect(rows.every((r, i) => i === 0 || r.id === rows[i - 1]!.id - 100)).toBe(true);
  });

  it('filters by decision, skill, capability, session, run and time in SQL, newest first', () => {
    const deny = queryAudit(store.db, { decision: 'deny', limit: 3 });
    expect(ids(deny.rows)).toEqual([200_000, 199_900, 199_800]);
    expect(deny.rows.every((r) => r.decision === 'deny' && r.answer === null)).toBe(true);
    expect(ids(queryAudit(store.db, { decision: 'confirm', limit: 2 }).rows)).toEqual([199_980, 199_960]);
    expect(ids(queryAudit(store.db, { skill: 'skill.3', limit: 2 }).rows)).toEqual([200_007, 200_000]);
    expect(ids(queryAudit(store.db, { capability: 'cap.0', limit: 2 }).rows)).toEqual([200_010, 200_004]);
    expect(ids(queryAudit(store.db, { sessionId: 's1', limit: 2 }).rows)).toEqual([99_999, 99_998]);
    expect(ids(queryAudit(store.db, { runId: 'r2', limit: 100 }).rows)).toEqual(Array.from({ length: 40 }, (_, k) => 119 - k));
    expect(ids(queryAudit(store.db, { since: 1_200_008 }).rows)).toEqual([200_010, 200_009, 200_008]);
    expect(ids(queryAudit(store.db, { until: 1_000_003 }).rows)).toEqual([2, 1]);
    expect(ids(queryAudit(store.db, { decision: 'deny', until: 1_100_000, limit: 2 }).rows)).toEqual([99_900, 99_800]);
    expect(ids(queryAudit(store.db, { skill: 'skill.0', decision: 'deny', since: 1_199_000 }).rows)).toEqual([199_500]);
    expect(queryAudit(store.db, { skill: 'no.such' })).toEqual({ rows: [], nextCursor: null });
  });

  it('examines at most the scan budget per call, and still reaches a rare text match near the oldest row', () => {
    const first = queryAudit(store.db, { text: 'needle' });
    expect(first.rows).toEqual([]);
    expect(first.nextCursor).not.toBeNull();
    const { rows, calls } = allPages(store.db, { text: 'needle' });
    expect(ids(rows)).toEqual([5]);
    expect(calls).toBe(Math.ceil(ROWS / AUDIT_SCAN_BUDGET));
    // A frequent match fills its page in one call.
    const frequent = queryAudit(store.db, { text: 'F1', limit: 5 });
    expect(ids(frequent.rows)).toEqual([199_999, 199_998, 199_997, 199_996, 199_995]);
    expect(frequent.nextCursor).not.toBeNull();
  });
});

describe('src/main/services/store/auditQuery', () => {
  const temp = useTempStores();

  // A small trail with ties in time, a clock that stepped back, and every kind of value, checked
  // against the same filter written in JavaScript over every row.
  function mixedTrail(db: StoreDb): AuditRow[] {
    const skills = ['calc.evaluate', 'mousepad.save_as', null];
    const caps = ['file.write', 'input.keyboard', 'web.post', 'clipboard.read'];
    for (let i = 1; i <= 400; i++) {
      const decision = i % 11 === 0 ? 'deny' : i % 5 === 0 ? 'confirm' : 'allow';
      appendAudit(db, {
        ts: 10_000 + Math.floor(i / 3) - (i % 37 === 0 ? 50 : 0),
        sessionId: `sess-${i % 3}`,
        runId: i % 4 ? `run-${Math.floor(i / 25)}` : null,
        skillId: skills[i % 3]!,
        capability: caps[i % 4]!,
        target: i % 9 ? `/home/u/Docs/file_${i}.txt` : null,
        reason: i % 13 ? 'manifest allows' : 'Outside 50% of the SCOPE',
        policySource: `manifest:x#${i % 2}`,
        ...(decision === 'confirm' ? { decision, answer: i % 2 ? 'allow_once' : 'timeout' } : { decision }),
      } as Parameters<typeof appendAudit>[1]);
    }
    return [...iterateAudit(db)];
  }

  it('returns exactly the rows a filter over every row returns, in time order, across pages of any size', () => {
    const { db } = temp.open();
    const all = mixedTrail(db);
    const newestFirst = [...all].sort((a, b) => b.ts - a.ts || b.id - a.id);
    const hasText = (r: AuditRow, t: string) =>
      [r.capability, r.target, r.reason, r.skillId, r.policySource, r.answer].some((v) => v?.toLowerCase().includes(t.toLowerCase()));
    const cases: [AuditPageQuery, (r: AuditRow) => boolean][] = [
      [{}, () => true],
      [{ decision: 'deny' }, (r) => r.decision === 'deny'],
      [{ skill: 'calc.evaluate', since: 10_050 }, (r) => r.skillId === 'calc.evaluate' && r.ts >= 10_050],
      [{ capability: 'web.post', until: 10_100 }, (r) => r.capability === 'web.post' && r.ts < 10_100],
      [{ decision: 'confirm', skill: 'mousepad.save_as' }, (r) => r.decision === 'confirm' && r.skillId === 'mousepad.save_as'],
      [{ sessionId: 'sess-1', runId: 'run-3' }, (r) => r.sessionId === 'sess-1' && r.runId === 'run-3'],
      [{ text: 'FILE_1', decision: 'allow' }, (r) => r.decision === 'allow' && hasText(r, 'file_1')],
      [{ text: '50%' }, (r) => hasText(r, '50%')],
      [{ text: 'timeout' }, (r) => r.answer === 'timeout'],
      [{ text: 'file_' }, (r) => hasText(r, 'file_')],
      [{ text: '_' }, (r) => hasText(r, '_')],
      [{ text: 'scope', skill: 'calc.evaluate' }, (r) => r.skillId === 'calc.evaluate' && hasText(r, 'scope')],
    ];
    for (const [filter, keep] of cases) {
      const expected = newestFirst.filter(keep).map((r) => r.id);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      for (const [limit, scanBudget] of [
        [7, 13],
        [50, 1000],
        [1000, 1],
      ] as const) {
        expect(
          allPages(db, { ...filter, limit, scanBudget }).rows.map((r) => r.id),
          JSON.stringify({ ...filter, limit, scanBudget }),
        ).toEqual(expected);
      }
    }
  });

  it('refuses a cursor it did not make and filter values of the wrong kind, naming the field', () => {
    const { db } = temp.open();
    expect(() => queryAudit(db, { cursor: 'page-2' })).toThrow(
      /Expected `cursor` to be a `nextCursor` from a previous audit page, got `page-2`/,
    );
    expect(() => queryAudit(db, { decision: 'maybe' as 'deny' })).toThrow(/Expected `decision` to be one of 'allow', 'confirm', 'deny'/);
    expect(() => queryAudit(db, { since: -1 })).toThrow(expect.objectContaining({ code: 'store.invalid_argument' }));
    expect(() => queryAudit(db, { limit: 0 })).toThrow(/Expected `limit` to be an integer >= 1, got `0`/);
    expect(() => queryAudit(db, { skill: '' })).toThrow(/Expected `skill` to be a non-empty string/);
  });
});
