/**
 * Audit benchmark (no display needed): a store on disk with BENCH_AUDIT_ROWS (default 1,000,000)
 * decisions appended by the real `appendAudit` (hash chain included, 10,000 per transaction),
 * with a realistic mix of skills, capabilities, decisions, targets, sessions and runs. Then:
 *  - first page (200 rows, the UI's page) of the views the UI and CLI offer: unfiltered, by
 *    decision (common and rare), skill, capability, a time range, two filters at once, free text
 *    (frequent, and a file name in one row of 2,500): p50/p95/max over BENCH_AUDIT_RUNS runs;
 *  - the second page through the cursor;
 *  - a rare text match (one row, near the oldest): one call examines at most AUDIT_SCAN_BUDGET
 *    rows, so the reader asks again with the cursor; reported are the calls, the longest call
 *    (how long the process is blocked) and the total (how long the user waits);
 *  - `audit --verify` (verifyAuditChain) over every row, and migration 002 (its indexes) on this file.
 * Prints one JSON object. Run: `npm run bench -- audit` (or `npx tsx bench/audit.bench.ts`).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  appendAudit,
  AUDIT_SCAN_BUDGET,
  MIGRATIONS,
  openStore,
  queryAudit,
  verifyAuditChain,
  type AuditEntry,
  type AuditPageQuery,
  type StoreDb,
} from '../src/main/services/store';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 30);
const PAGE = 200;
const T0 = 1_700_000_000_000;
/** One decision every 250 ms on average: 1,000,000 rows span about three days. */
const STEP_MS = 250;
const NEEDLE_ROW = 1_000;

const APPS = ['mousepad', 'wine-notepad', 'calculator', 'chromium', 'libreoffice-calc', 'winefile', 'xterm', 'wine-clock'];
const METHODS = ['save_as', 'type_text', 'open_file', 'copy', 'paste', 'select_all', 'navigate', 'create_timer'];
// Weighted like a session of desktop automation: mostly input, then files, screen, clipboard, a little network and process.
const CAPABILITIES = [
  ...Array<string>(10).fill('input.keyboard'),
  ...Array<string>(6).fill('input.mouse'),
  ...Array<string>(4).fill('file.write'),
  ...Array<string>(3).fill('file.read'),
  ...Array<string>(3).fill('screen.capture'),
  ...Array<string>(2).fill('clipboard.read'),
  'clipboard.write',
  'web.navigate',
  'web.post',
  'app.launch',
  'script.execute',
  'file.delete',
];
const ANSWERS = ['allow_once', 'allow_session', 'deny', 'timeout', 'no_user'] as const;

/** Row i (1-based) of the trail; deterministic, so every run measures the same data. */
function decision(i: number): AuditEntry {
  const h = Math.imul(i, 2654435761) >>> 0; // a cheap, well-spread hash of i
  const skillId = `${APPS[h % APPS.length]}.${METHODS[(h >>> 3) % METHODS.length]}`;
  const capability = CAPABILITIES[(h >>> 7) % CAPABILITIES.length]!;
  const target =
    i === NEEDLE_ROW
      ? '/home/u/Documents/quarterly-forecast-2019.ods'
      : capability.startsWith('file.')
        ? `/home/u/Documents/report-${(h >>> 11) % 500}.txt`
        : capability.startsWith('web.')
          ? `https://intranet.example.com/page/${(h >>> 11) % 200}`
          : `window:${skillId.split('.')[0]}: Untitled ${(h >>> 11) % 9}`;
  const r = (h >>> 20) % 1000; // 0.5 % deny, 6 % confirm, the rest allow
  const base = {
    ts: T0 + i * STEP_MS - (i % 97 === 0 ? 40 : 0), // two processes now and then: time steps back a little
    sessionId: `session-${Math.floor(i / 20_000)}`,
    runId: `run-${Math.floor(i / 50)}`,
    skillId,
    nodeId: `n${h % 12}`,
    capability,
    target,
    argsDigest: (h.toString(16).padStart(8, '0') + '0'.repeat(56)).slice(0, 64),
  };
  if (r < 5)
    return { ...base, decision: 'deny', reason: `${capability} on ${target} is outside the manifest`, policySource: 'default-deny' };
  if (r < 65)
    return {
      ...base,
      decision: 'confirm',
      answer: ANSWERS[r % ANSWERS.length]!,
      reason: `${capability} is sensitive: asked the user`,
      policySource: `skill:${skillId}#permissions[1]`,
    };
  return { ...base, decision: 'allow', reason: `allow ${capability} by manifest`, policySource: `skill:${skillId}#permissions[0]` };
}

function percentiles(samplesMs: number[]) {
  const s = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
  return { runs: s.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: round(s.at(-1)!) };
}
const round = (x: number) => Math.round(x * 100) / 100;

/** Times the first page of `query` (one call), RUNS times after a warm-up. */
function firstPage(db: StoreDb, query: AuditPageQuery) {
  for (let k = 0; k < 3; k++) queryAudit(db, { limit: PAGE, ...query });
  const samples: number[] = [];
  let page = queryAudit(db, { limit: PAGE, ...query });
  for (let k = 0; k < RUNS; k++) {
    const t = performance.now();
    page = queryAudit(db, { limit: PAGE, ...query });
    samples.push(performance.now() - t);
  }
  return { query, rows: page.rows.length, more: page.nextCursor !== null, ...percentiles(samples) };
}

/** Follows short pages until `PAGE` rows or the end, as the UI does; the longest call is how long the process is blocked. */
function untilFull(db: StoreDb, query: AuditPageQuery) {
  const calls: number[] = [];
  let rows = 0;
  let cursor: string | null = null;
  const t0 = performance.now();
  do {
    const t = performance.now();
    const page = queryAudit(db, { ...query, limit: PAGE - rows, ...(cursor !== null && { cursor }) });
    calls.push(performance.now() - t);
    rows += page.rows.length;
    cursor = page.nextCursor;
  } while (cursor !== null && rows < PAGE);
  return { query, rows, calls: calls.length, longest_call_ms: round(Math.max(...calls)), total_ms: round(performance.now() - t0) };
}

function main() {
  const dir = mkdtempSync(join(process.cwd(), '.bench-audit-'));
  const file = join(dir, 'audit.db');
  try {
    const store = openStore({ file });
    const db = store.db;
    const t0 = performance.now();
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i <= to; i++) appendAudit(db, decision(i));
    });
    for (let from = 1; from <= ROWS; from += 10_000) batch(from, Math.min(ROWS, from + 9_999));
    const insertMs = performance.now() - t0;
    db.pragma('wal_checkpoint(TRUNCATE)');

    const newest = T0 + ROWS * STEP_MS;
    const page1 = queryAudit(db, { limit: PAGE });
    const deny1 = queryAudit(db, { limit: PAGE, decision: 'deny' });
    const pages = {
      unfiltered: firstPage(db, {}),
      decision_allow: firstPage(db, { decision: 'allow' }),
      decision_deny_rare: firstPage(db, { decision: 'deny' }),
      skill: firstPage(db, { skill: 'mousepad.save_as' }),
      capability: firstPage(db, { capability: 'web.post' }),
      since_1h: firstPage(db, { since: newest - 3_600_000 }),
      skill_since_1h: firstPage(db, { skill: 'chromium.navigate', since: newest - 3_600_000 }),
      until_2_days_ago: firstPage(db, { until: newest - 2 * 86_400_000 }),
      decision_and_skill: firstPage(db, { decision: 'confirm', skill: 'xterm.paste' }),
      text_frequent: firstPage(db, { text: 'documents' }),
      text_1_in_2500: firstPage(db, { text: 'report-17.txt' }),
      second_page_unfiltered: firstPage(db, { cursor: page1.nextCursor! }),
      second_page_decision_deny: firstPage(db, { decision: 'deny', cursor: deny1.nextCursor! }),
    };
    const filled = {
      text_1_in_2500: untilFull(db, { text: 'report-17.txt' }),
      text_rare_one_row_near_oldest: untilFull(db, { text: 'quarterly-forecast' }),
      decision_and_skill: untilFull(db, { decision: 'deny', skill: 'wine-clock.create_timer' }),
    };

    const t1 = performance.now();
    const verified = verifyAuditChain(db);
    const verifyMs = performance.now() - t1;

    // Upgrading a store of this size: drop 002's indexes, then time its `up`.
    db.exec('DROP INDEX audit_by_decision; DROP INDEX audit_by_capability; DROP INDEX audit_by_session');
    const t2 = performance.now();
    db.transaction(() => MIGRATIONS.find((m) => m.name === 'audit-pages')!.up(db))();
    const migrateMs = performance.now() - t2;

    const fileBytes = statSync(file).size;
    store.close();
    console.log(
      JSON.stringify(
        {
          benchmark: 'audit',
          node: process.version,
          load_average_1m: round(loadavg()[0]!),
          rows: ROWS,
          page_rows: PAGE,
          scan_budget_rows: AUDIT_SCAN_BUDGET,
          goal_first_page_ms: 50,
          append: { total_ms: round(insertMs), rows_per_s: Math.round(ROWS / (insertMs / 1000)), per_transaction: 10_000 },
          file_mb: round(fileBytes / 1048576),
          first_page: pages,
          until_page_full: filled,
          verify: { ms: round(verifyMs), rows_per_s: Math.round(ROWS / (verifyMs / 1000)), ok: verified.ok, count: verified.count },
          migration_002_ms: round(migrateMs),
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
