import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAudit, AUDIT_GENESIS_HASH, auditFilesFor, verifyAuditChain, type StoreDb } from '../../../../src/main/services/store';
import { readAnchor, writeAnchor } from '../../../../src/main/services/store/auditAnchor';
import { createAuditKey } from '../../../../src/main/services/store/auditKey';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const decide = (db: StoreDb, reason = 'r') =>
  appendAudit(db, { sessionId: 's', capability: 'file.read', decision: 'allow', reason, policySource: 'p' });

describe('src/main/services/store/auditTrail', () => {
  it('creates a private 32-byte key and an anchor of the empty chain on the first open, and reuses them after', () => {
    const dir = temp.dir();
    const first = temp.open({}, dir);
    const { keyFile, anchorFile } = auditFilesFor(first.file);
    expect([keyFile, anchorFile]).toEqual([join(dir, 'skilldesk.audit-key'), join(dir, 'skilldesk.audit-anchor')]);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(keyFile, 'utf8')) as { key: string; legacyThroughId: number };
    expect(Buffer.from(stored.key, 'base64')).toHaveLength(32);
    expect(stored.legacyThroughId).toBe(0);
    expect(readAnchor(anchorFile, first.audit.key!.key)).toMatchObject({
      state: 'ok',
      anchor: { headId: 0, count: 0, headHash: AUDIT_GENESIS_HASH },
    });
    const key = first.audit.key!.key;
    first.close();
    expect(temp.open({}, dir).audit.key!.key.equals(key)).toBe(true);
  });

  it('anchors in batches: not before the interval, and on close', () => {
    const store = temp.open({ audit: { anchorIntervalMs: 3_600_000 } });
    const { anchorFile } = auditFilesFor(store.file);
    const key = store.audit.key!.key;
    decide(store.db);
    decide(store.db);
    expect(readAnchor(anchorFile, key)).toMatchObject({ anchor: { headId: 0 } });
    store.close();
    expect(readAnchor(anchorFile, key)).toMatchObject({ anchor: { headId: 2, count: 2 } });
  });

  it('anchors after every append with an interval of 0', () => {
    const store = temp.open({ audit: { anchorIntervalMs: 0 } });
    const row = decide(store.db);
    expect(readAnchor(auditFilesFor(store.file).anchorFile, store.audit.key!.key)).toMatchObject({
      anchor: { headId: row.id, headHash: row.hash, count: 1 },
    });
  });

  it('does not anchor a row appended inside a transaction that rolls back', () => {
    const store = temp.open({ audit: { anchorIntervalMs: 0 } });
    decide(store.db);
    expect(() =>
      store.db.transaction(() => {
        decide(store.db, 'rolled back');
        throw new Error('caller failed');
      })(),
    ).toThrow('caller failed');
    expect(readAnchor(auditFilesFor(store.file).anchorFile, store.audit.key!.key)).toMatchObject({ anchor: { headId: 1, count: 1 } });
    decide(store.db);
    expect(verifyAuditChain(store.db)).toMatchObject({ ok: true, count: 2, anchor: { count: 2, lag: 0 } });
  });

  it("anchors rows appended in a caller's transaction once it committed, not while it is open", () => {
    const store = temp.open({ audit: { anchorIntervalMs: 0 } });
    const { anchorFile } = auditFilesFor(store.file);
    const key = store.audit.key!.key;
    store.db.transaction(() => {
      decide(store.db);
      decide(store.db);
      expect(readAnchor(anchorFile, key)).toMatchObject({ anchor: { headId: 0 } });
    })();
    store.close();
    expect(readAnchor(anchorFile, key)).toMatchObject({ anchor: { headId: 2, count: 2 } });
  });

  it('finishes a key creation a crash interrupted after the anchor was written, and discards one that never got its anchor', () => {
    const dir = temp.dir();
    const file = join(dir, 'skilldesk.db');
    const { keyFile, anchorFile } = auditFilesFor(file);
    let created: Buffer | undefined;
    expect(() =>
      createAuditKey(keyFile, 0, 1_000, (k) => {
        created = k.key;
        writeAnchor(anchorFile, k.key, { headId: 0, headHash: AUDIT_GENESIS_HASH, count: 0, writtenAt: 1_000 });
        throw new Error('crash before the rename');
      }),
    ).toThrow('crash before the rename');
    expect(existsSync(keyFile)).toBe(false);
    const store = temp.open({ file });
    expect(store.audit.key?.key.equals(created!)).toBe(true);
    expect(verifyAuditChain(store.db)).toMatchObject({ ok: true });

    const other = temp.dir();
    const otherFiles = auditFilesFor(join(other, 'skilldesk.db'));
    writeFileSync(`${otherFiles.keyFile}.new`, '{"format":"skilldesk-audit-key/1"}');
    const fresh = temp.open({}, other);
    expect(existsSync(`${otherFiles.keyFile}.new`)).toBe(false);
    expect(verifyAuditChain(fresh.db)).toMatchObject({ ok: true, count: 0 });
  });
});
