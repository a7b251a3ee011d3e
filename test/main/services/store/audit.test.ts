import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendAudit,
  AUDIT_GENESIS_HASH,
  digestArgs,
  exportAuditJsonl,
  iterateAudit,
  keyedAuditHash,
  LEGACY_AUDIT_KEYING,
  legacyAuditHash,
  verifyAuditChain,
  verifyAuditRows,
  type AuditEntry,
  type AuditRow,
  type StoreDb,
} from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const entry = (i: number, extra: Partial<AuditEntry> = {}): AuditEntry =>
  ({
    ts: 1_000 + i,
    sessionId: 'sess',
    runId: `run-${i % 2}`,
    skillId: i % 2 ? 'mousepad.save_as' : 'calc.evaluate',
    nodeId: `n${i}`,
    capability: 'input.keyboard',
    target: 'mousepad: Untitled 1',
    decision: 'allow',
    reason: 'manifest allows',
    policySource: 'skill:mousepad.save_as#permissions[0]',
    argsDigest: digestArgs({ i }),
    ...extra,
  }) as AuditEntry;

function fill(db: StoreDb, n: number): AuditRow[] {
  return Array.from({ length: n }, (_, i) => appendAudit(db, entry(i + 1)));
}

describe('src/main/services/store/audit', () => {
  it('chains each row to the previous one by HMAC-SHA256, under the store key, of its canonical JSON', () => {
    const { db, audit } = temp.open();
    const [a, b] = fill(db, 2) as [AuditRow, AuditRow];
    expect(a.prevHash).toBe(AUDIT_GENESIS_HASH);
    expect(b.prevHash).toBe(a.hash);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedAuditHash(audit.key!.key, b)).toBe(b.hash);
    expect(legacyAuditHash(b)).not.toBe(b.hash);
    expect([...iterateAudit(db)]).toEqual([a, b]);
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, count: 2, headId: 2, headHash: b.hash, legacyThroughId: 0 });
  });

  it('verifies an empty trail', () => {
    const { db } = temp.open();
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, count: 0, headHash: AUDIT_GENESIS_HASH, anchor: { count: 0, lag: 0 } });
  });

  it('detects a row edited with a raw UPDATE and names its id', () => {
    const { db } = temp.open();
    fill(db, 5);
    db.prepare("UPDATE audit SET decision = 'deny' WHERE id = 3").run();
    expect(verifyAuditChain(db)).toMatchObject({ ok: false, firstBadId: 3, reason: 'row_modified', count: 2 });
  });

  it('detects an edit whose hash was recomputed without the key, at the edited row', () => {
    const { db } = temp.open();
    fill(db, 5);
    const row = [...iterateAudit(db)].find((r) => r.id === 3)!;
    const forged = { ...row, target: '/home/a/.ssh/id_rsa' };
    db.prepare('UPDATE audit SET target = ?, hash = ? WHERE id = 3').run(forged.target, legacyAuditHash(forged));
    expect(verifyAuditChain(db)).toMatchObject({ ok: false, firstBadId: 3, reason: 'unkeyed_row' });
  });

  it('detects a deleted row at the row after it, and a deleted first row', () => {
    const { db } = temp.open();
    fill(db, 5);
    db.prepare('DELETE FROM audit WHERE id = 2').run();
    expect(verifyAuditChain(db)).toMatchObject({
      ok: false,
      firstBadId: 3,
      reason: 'chain_broken',
      count: 1,
      message: expect.stringContaining('deleted'),
    });

    const other = temp.open().db;
    fill(other, 3);
    other.prepare('DELETE FROM audit WHERE id = 1').run();
    expect(verifyAuditChain(other)).toMatchObject({ ok: false, firstBadId: 2, reason: 'chain_broken' });
  });

  it('keeps one chain across reopening the store', () => {
    const dataDir = temp.dir();
    const first = temp.open({}, dataDir);
    const [, last] = fill(first.db, 2) as [AuditRow, AuditRow];
    first.close();
    const second = temp.open({}, dataDir);
    const next = appendAudit(second.db, entry(3));
    expect(next.prevHash).toBe(last.hash);
    expect(verifyAuditChain(second.db)).toMatchObject({ ok: true, count: 3 });
  });

  it('records how a confirm was answered and refuses an answer on allow or deny', () => {
    const { db } = temp.open();
    const row = appendAudit(db, entry(1, { decision: 'confirm', answer: 'allow_session' }));
    expect(row).toMatchObject({ decision: 'confirm', answer: 'allow_session' });
    expect(appendAudit(db, entry(2, { decision: 'deny' })).answer).toBeNull();
    expect(() => appendAudit(db, entry(3, { decision: 'confirm' } as Partial<AuditEntry>))).toThrow(
      /Expected `answer` to be one of 'allow_once', 'allow_session'/,
    );
    expect(() => appendAudit(db, { ...entry(4), answer: 'allow_once' } as unknown as AuditEntry)).toThrow(
      /Expected `answer` to be absent for a 'allow' decision/,
    );
    expect(() => appendAudit(db, entry(5, { decision: 'maybe' } as unknown as Partial<AuditEntry>))).toThrow(
      /Expected `decision` to be one of 'allow', 'confirm', 'deny', got `maybe`/,
    );
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, count: 2 });
  });

  it('streams by time, skill, run and session, in append order', () => {
    const { db } = temp.open();
    fill(db, 6);
    appendAudit(db, entry(7, { sessionId: 'other' }));
    const ids = (filter: Parameters<typeof iterateAudit>[1]) => [...iterateAudit(db, filter)].map((r) => r.id);
    expect(ids({ since: 1_004 })).toEqual([4, 5, 6, 7]);
    expect(ids({ until: 1_003 })).toEqual([1, 2]);
    expect(ids({ skill: 'mousepad.save_as' })).toEqual([1, 3, 5, 7]);
    expect(ids({ skill: 'mousepad.save_as', since: 1_002 })).toEqual([3, 5, 7]);
    expect(ids({ runId: 'run-0' })).toEqual([2, 4, 6]);
    expect(ids({ sessionId: 'other' })).toEqual([7]);
  });

  it('exports JSONL that verifies with the key, and fails once a line is altered', () => {
    const { db, audit } = temp.open();
    const keying = { key: audit.key!.key, legacyThroughId: 0 };
    fill(db, 4);
    const file = join(temp.dir(), 'audit.jsonl');
    expect(exportAuditJsonl(db, file)).toEqual({ count: 4 });
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const rows = lines.map((l) => JSON.parse(l) as AuditRow);
    expect(rows).toEqual([...iterateAudit(db)]);
    expect(verifyAuditRows(rows, keying)).toMatchObject({ ok: true, count: 4 });
    expect(verifyAuditRows(rows, { legacyThroughId: 0 })).toMatchObject({ ok: false, firstBadId: 1, reason: 'key_missing' });
    expect(verifyAuditRows(rows, LEGACY_AUDIT_KEYING)).toMatchObject({ ok: false, firstBadId: 1, reason: 'row_modified' });
    rows[1] = { ...rows[1]!, reason: 'edited in the export' };
    expect(verifyAuditRows(rows, keying)).toMatchObject({ ok: false, firstBadId: 2, reason: 'row_modified' });
    expect(exportAuditJsonl(db, file, { skill: 'calc.evaluate' })).toEqual({ count: 2 });
  });

  it('digests arguments independently of key order and never stores them', () => {
    expect(digestArgs({ a: 1, b: { c: [1, 'x'] } })).toBe(digestArgs({ b: { c: [1, 'x'] }, a: 1 }));
    expect(digestArgs({ a: 1 })).not.toBe(digestArgs({ a: 2 }));
    const store = temp.open();
    appendAudit(store.db, entry(1, { argsDigest: digestArgs({ password: 'hunter2' }), reason: 'marker-reason' }));
    const onDisk = Buffer.concat([readFileSync(store.file), readFileSync(`${store.file}-wal`)]);
    expect(onDisk.includes('marker-reason')).toBe(true); // the row did reach the disk
    expect(onDisk.includes('hunter2')).toBe(false);
  });
});

describe('src/main/services/store/audit (two processes)', () => {
  it('keeps a single valid chain when two processes append at the same time', async () => {
    const { spawn } = await import('node:child_process');
    const dataDir = temp.dir();
    temp.open({}, dataDir).close(); // create and migrate first, so the children only append
    const goFile = join(dataDir, 'go');
    let ready = 0;
    const child = (label: string) =>
      new Promise<string>((resolve, reject) => {
        const p = spawn(
          process.execPath,
          ['--import', 'tsx', join(__dirname, 'fixtures', 'appendAuditMany.ts'), dataDir, label, '1000', goFile],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        p.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (d.toString().includes('ready') && ++ready === 2) writeFileSync(goFile, '');
        });
        p.stderr.on('data', (d: Buffer) => (out += d.toString()));
        p.on('error', reject);
        p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child ${label} exited ${code}: ${out}`))));
      });
    expect(await Promise.all([child('A'), child('B')])).toEqual(['ready\ndone\n', 'ready\ndone\n']);
    const { db } = temp.open({}, dataDir);
    expect(verifyAuditChain(db)).toMatchObject({ ok: true, count: 2000 });
    const sessions = [...iterateAudit(db)].map((r) => r.sessionId);
    expect(sessions.filter((s) => s === 'A')).toHaveLength(1000);
    // Interleaved, not one after the other: the processes really did contend for the chain head.
    const switches = sessions.filter((s, i) => i > 0 && s !== sessions[i - 1]).length;
    expect(switches).toBeGreaterThan(10);
  }, 60_000);
});
