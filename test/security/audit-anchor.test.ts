import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { auditCommand } from '../../src/main/cli/commands/audit';
import {
  appendAudit,
  AUDIT_GENESIS_HASH,
  auditFilesFor,
  iterateAudit,
  keyedAuditHash,
  legacyAuditHash,
  openStore,
  verifyAuditChain,
  type AuditRow,
  type SqliteStore,
} from '../../src/main/services/store';

// Issue 10 item 12: editing rows and recomputing the chain, cutting its tail or deleting every row
// all passed `audit --verify`. Each attack here is made the way an attacker with write access to
// the database (but not to the key) would make it: raw SQL on the file while SkillDesk is closed.

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'skilldesk-anchor-'));
  dirs.push(d);
  return d;
}

function open(dir: string, anchorIntervalMs?: number): SqliteStore {
  const store = openStore({ dataDir: dir, ...(anchorIntervalMs !== undefined && { audit: { anchorIntervalMs } }) });
  stores.push(store);
  return store;
}

/** A trail of `n` decisions written by SkillDesk, closed (so the anchor names the last row). */
function trailOf(n: number): string {
  const dir = dataDir();
  const store = open(dir);
  for (let i = 1; i <= n; i++) {
    appendAudit(store.db, {
      ts: 1_000 + i,
      sessionId: 's',
      skillId: 'ed.save',
      capability: 'file.write',
      target: `/home/u/f${i}.txt`,
      decision: 'allow',
      reason: 'manifest allows',
      policySource: 'manifest:ed.save#0',
    });
  }
  store.close();
  return dir;
}

/** The attacker's tool: the database file, raw. */
function tamper(dir: string, edit: (db: Database.Database) => void): void {
  const db = new Database(join(dir, 'skilldesk.db'));
  try {
    edit(db);
  } finally {
    db.close();
  }
}

function rows(db: Database.Database): AuditRow[] {
  return (db.prepare('SELECT * FROM audit ORDER BY id').all() as Record<string, unknown>[]).map((r) => ({
    id: r.id as number,
    ts: r.ts as number,
    sessionId: r.session_id as string,
    runId: r.run_id as string | null,
    skillId: r.skill_id as string | null,
    nodeId: r.node_id as string | null,
    capability: r.capability as string,
    target: r.target as string | null,
    decision: r.decision as AuditRow['decision'],
    answer: r.answer as AuditRow['answer'],
    reason: r.reason as string,
    policySource: r.policy_source as string,
    argsDigest: r.args_digest as string | null,
    prevHash: r.prev_hash as string,
    hash: r.hash as string,
  }));
}

/** Rewrites `target` of row `id`, then recomputes every hash from there with `hash`. */
function editAndRechain(db: Database.Database, id: number, hash: (row: Omit<AuditRow, 'id' | 'hash'>) => string): void {
  let prev: string | undefined;
  for (const row of rows(db)) {
    if (row.id < id) continue;
    const edited = { ...row, prevHash: prev ?? row.prevHash, target: row.id === id ? '/home/u/.ssh/id_rsa' : row.target };
    const h = hash(edited);
    db.prepare('UPDATE audit SET target = ?, prev_hash = ?, hash = ? WHERE id = ?').run(edited.target, edited.prevHash, h, row.id);
    prev = h;
  }
}

/** `audit --verify` as the CLI runs it: exit code and what it printed. */
function cliVerify(store: SqliteStore): { code: number; out: string } {
  const out: string[] = [];
  const code = auditCommand(store.db, { verify: true }, { out: (s) => out.push(s), err: () => {} });
  return { code, out: out.join('\n') };
}

describe('attack: rewriting the audit trail behind SkillDesk', () => {
  it('catches rows edited and the chain recomputed with plain SHA-256 (no key), at the edited row', () => {
    const dir = trailOf(6);
    tamper(dir, (db) => editAndRechain(db, 3, legacyAuditHash));
    const store = open(dir);
    expect(verifyAuditChain(store.db)).toMatchObject({ ok: false, reason: 'unkeyed_row', firstBadId: 3, count: 2 });
    expect(cliVerify(store)).toEqual({
      code: 1,
      out: expect.stringMatching(/^AUDIT TRAIL NOT VERIFIED \(unkeyed_row\): Audit row 3 carries a plain SHA-256 hash/),
    });
  });

  it('catches rows re-chained with a guessed key, at the edited row', () => {
    const dir = trailOf(6);
    const guess = Buffer.alloc(32, 7);
    tamper(dir, (db) => editAndRechain(db, 4, (row) => keyedAuditHash(guess, row)));
    const store = open(dir);
    expect(verifyAuditChain(store.db)).toMatchObject({ ok: false, reason: 'row_modified', firstBadId: 4 });
    expect(cliVerify(store).code).toBe(1);
  });

  it('catches rows cut from the end of the trail, which leave a valid shorter chain', () => {
    const dir = trailOf(6);
    tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE id > 4').run());
    const store = open(dir);
    const v = verifyAuditChain(store.db);
    expect(v).toMatchObject({ ok: false, reason: 'truncated', count: 4 });
    expect(v.message).toMatch(
      /has no row 6, which its anchor recorded .* as the newest of 6 row\(s\); it now ends at row 4 with 4 row\(s\)/,
    );
    expect(cliVerify(store).code).toBe(1);
  });

  it('catches a cut tail even after SkillDesk appended again, and does not move the anchor over it', () => {
    const dir = trailOf(6);
    tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE id > 4').run());
    const store = open(dir, 0);
    appendAudit(store.db, { sessionId: 's', capability: 'file.read', decision: 'allow', reason: 'r', policySource: 'p' });
    store.close();
    const again = open(dir);
    expect(verifyAuditChain(again.db)).toMatchObject({ ok: false, reason: 'truncated' });
  });

  it('catches a trail with every row deleted', () => {
    const dir = trailOf(3);
    tamper(dir, (db) => db.prepare('DELETE FROM audit').run());
    const store = open(dir);
    expect(verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      reason: 'emptied',
      count: 0,
      message: expect.stringMatching(/^The audit trail is empty, but its anchor recorded 3 row\(s\) up to row 3/),
    });
    expect(cliVerify(store).code).toBe(1);
  });

  it('reports an anchor edited to match a cut trail as forged', () => {
    const dir = trailOf(5);
    const { anchorFile } = auditFilesFor(join(dir, 'skilldesk.db'));
    let headHash = '';
    tamper(dir, (db) => {
      db.prepare('DELETE FROM audit WHERE id > 2').run();
      headHash = rows(db).at(-1)!.hash;
    });
    const anchor = JSON.parse(readFileSync(anchorFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(anchorFile, JSON.stringify({ ...anchor, headId: 2, count: 2, headHash }));
    const store = open(dir);
    expect(verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      reason: 'anchor_forged',
      message: expect.stringContaining('its MAC does not match'),
    });
    expect(cliVerify(store).code).toBe(1);
  });

  it('reports a deleted anchor, and does not quietly write a new one', () => {
    const dir = trailOf(4);
    const { anchorFile } = auditFilesFor(join(dir, 'skilldesk.db'));
    rmSync(anchorFile);
    const store = open(dir, 0);
    appendAudit(store.db, { sessionId: 's', capability: 'file.read', decision: 'allow', reason: 'r', policySource: 'p' });
    expect(existsSync(anchorFile)).toBe(false);
    expect(verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      reason: 'anchor_missing',
      message: expect.stringContaining('--reanchor'),
    });
    expect(cliVerify(store).code).toBe(1);
  });

  it('reports a missing key, refuses to append, and does not create a new key over the old trail', () => {
    const dir = trailOf(3);
    const { keyFile } = auditFilesFor(join(dir, 'skilldesk.db'));
    rmSync(keyFile);
    const store = open(dir);
    expect(existsSync(keyFile)).toBe(false);
    expect(verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      reason: 'key_missing',
      message: expect.stringContaining('Restore the key file'),
    });
    expect(() =>
      appendAudit(store.db, { sessionId: 's', capability: 'file.read', decision: 'allow', reason: 'r', policySource: 'p' }),
    ).toThrow(expect.objectContaining({ code: 'store.audit_key' }));
    expect(cliVerify(store).code).toBe(1);
  });

  it('refuses a key other users can read', () => {
    const dir = trailOf(2);
    const { keyFile } = auditFilesFor(join(dir, 'skilldesk.db'));
    chmodSync(keyFile, 0o644);
    const store = open(dir);
    expect(verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      reason: 'key_exposed',
      message: expect.stringContaining(`chmod 600 ${keyFile}`),
    });
    expect(() => appendAudit(store.db, { sessionId: 's', capability: 'x', decision: 'allow', reason: 'r', policySource: 'p' })).toThrow(
      /chmod 600/,
    );
  });

  it('verifies after a crash between the row commits and the anchor write: the anchor lags, it never leads', () => {
    const dir = dataDir();
    open(dir).close(); // key and anchor exist (empty trail), as after any earlier session
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'appendThenDie.ts'), dir, '25'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stdout).toBe('appended\n');
    expect(child.signal).toBe('SIGKILL');
    const store = open(dir);
    const v = verifyAuditChain(store.db);
    expect(v).toMatchObject({ ok: true, count: 25, anchor: { headId: 0, count: 0, lag: 25 } });
    // Verification anchored what it checked: a later cut shows.
    expect(cliVerify(store)).toEqual({
      code: 0,
      out: expect.stringMatching(/^Audit trail verified: 25 row\(s\), newest row 25 .* matches\.$/),
    });
    store.close();
    tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE id = 25').run());
    expect(verifyAuditChain(open(dir).db)).toMatchObject({ ok: false, reason: 'truncated' });
  }, 60_000);

  it('lets a person accept a restored trail with --reanchor, which the trail records', () => {
    const dir = trailOf(5);
    tamper(dir, (db) => db.prepare('DELETE FROM audit WHERE id > 3').run());
    const store = open(dir);
    const out: string[] = [];
    expect(auditCommand(store.db, { reanchor: true, verify: true }, { out: (s) => out.push(s), err: () => {} }, 9_000)).toBe(0);
    // AUTOINCREMENT never reuses the deleted ids 4 and 5.
    expect(out[0]).toMatch(/^Re-anchored the audit trail at row 6, which records it; before: The audit trail has no row 5/);
    const last = [...iterateAudit(store.db)].at(-1)!;
    expect(last).toMatchObject({ id: 6, ts: 9_000, capability: 'audit.reanchor', reason: expect.stringContaining('has no row 5') });
    expect(verifyAuditChain(store.db)).toMatchObject({ ok: true, count: 4, headId: 6 });
  });

  it('will not re-anchor a trail whose rows were edited', () => {
    const dir = trailOf(4);
    tamper(dir, (db) => db.prepare("UPDATE audit SET decision = 'deny' WHERE id = 2").run());
    const store = open(dir);
    expect(() => auditCommand(store.db, { reanchor: true }, { out: () => {}, err: () => {} })).toThrow(
      expect.objectContaining({ code: 'store.audit_not_verified' }),
    );
  });
});

describe('attack: rewriting rows written before the store had an audit key', () => {
  /** A store as a SkillDesk without audit keys left it: rows chained by plain SHA-256, no key, no anchor. */
  function legacyStore(n: number): string {
    const dir = dataDir();
    open(dir).close();
    const { keyFile, anchorFile } = auditFilesFor(join(dir, 'skilldesk.db'));
    rmSync(keyFile);
    rmSync(anchorFile);
    tamper(dir, (db) => {
      let prevHash = AUDIT_GENESIS_HASH;
      for (let i = 1; i <= n; i++) {
        const row = { ts: i, sessionId: 'old', runId: null, skillId: null, nodeId: null, capability: 'file.write', target: `/f${i}` };
        const full = { ...row, decision: 'allow' as const, answer: null, reason: 'r', policySource: 'p', argsDigest: null, prevHash };
        const hash = legacyAuditHash(full);
        db.prepare(
          'INSERT INTO audit (ts, session_id, capability, target, decision, reason, policy_source, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ).run(row.ts, row.sessionId, row.capability, row.target, 'allow', 'r', 'p', prevHash, hash);
        prevHash = hash;
      }
    });
    return dir;
  }

  it('keys the trail from the next row on and says honestly which rows are legacy', () => {
    const dir = legacyStore(4);
    const store = open(dir);
    expect(store.audit.key?.legacyThroughId).toBe(4);
    appendAudit(store.db, { sessionId: 'new', capability: 'file.read', decision: 'allow', reason: 'r', policySource: 'p' });
    const v = verifyAuditChain(store.db);
    expect(v).toMatchObject({ ok: true, count: 5, legacyThroughId: 4 });
    expect(v.message).toMatch(
      /Rows up to 4 are unkeyed legacy rows, written before the audit key was created at .*: their chain is intact, but an edit made to them before that time/,
    );
  });

  it('detects legacy rows rewritten after the key was created: the first keyed row, or the anchor, no longer matches', () => {
    const withKeyed = legacyStore(4);
    const a = open(withKeyed);
    appendAudit(a.db, { sessionId: 'new', capability: 'file.read', decision: 'allow', reason: 'r', policySource: 'p' });
    a.close();
    tamper(withKeyed, (db) => editAndRechain(db, 2, legacyAuditHash));
    expect(verifyAuditChain(open(withKeyed).db)).toMatchObject({ ok: false, reason: 'unkeyed_row', firstBadId: 5 });

    const legacyOnly = legacyStore(4);
    open(legacyOnly).close(); // creates the key and anchors row 4
    tamper(legacyOnly, (db) => editAndRechain(db, 2, legacyAuditHash));
    expect(verifyAuditChain(open(legacyOnly).db)).toMatchObject({ ok: false, reason: 'rewritten' });
  });
});
