import { timingSafeEqual } from 'node:crypto';
import { appendAudit, keyedAuditHash, legacyAuditHash, type AuditRow } from './audit';
import { AUDIT_GENESIS_HASH, readAnchor, type AuditAnchor } from './auditAnchor';
import { iterateAudit } from './auditQuery';
import { auditTrailOf, type AuditTrail } from './auditTrail';
import { StoreError } from './errors';
import { prepared, type StoreDb } from './statements';

/** What is wrong with a trail, one distinct reason per kind of damage. */
export type AuditProblem =
  /** A row's content no longer matches its MAC. */
  | 'row_modified'
  /** A row does not link to the one before it: a row was deleted, inserted or reordered before it. */
  | 'chain_broken'
  /** A row after the key was created carries a plain SHA-256 hash: re-chained without the key. */
  | 'unkeyed_row'
  /** The chain ends before the anchored head: rows were deleted from its end. */
  | 'truncated'
  /** The table is empty, but the anchor recorded rows. */
  | 'emptied'
  /** The anchored head row exists with another hash or position: the trail was replaced (ids reused) or rebuilt with the key. */
  | 'rewritten'
  | 'anchor_missing'
  /** The anchor does not authenticate with the key. */
  | 'anchor_forged'
  | 'key_missing'
  | 'key_exposed'
  | 'key_unreadable';

/** How rows are checked: keyed rows after `legacyThroughId`, plain SHA-256 up to it. */
export interface AuditKeying {
  /** The audit key; without it, keyed rows cannot be checked. */
  key?: Buffer;
  legacyThroughId: number;
}

/** Checks every row as legacy: data written before audit keys existed (old exports, old stores). */
export const LEGACY_AUDIT_KEYING: AuditKeying = { legacyThroughId: Number.MAX_SAFE_INTEGER };

/** The chain itself, row by row. */
export type AuditChainCheck =
  | { ok: true; count: number; headId: number; headHash: string }
  | { ok: false; reason: AuditProblem; firstBadId: number; count: number; message: string };

/** The whole verification: the chain, then the anchor kept outside the database. */
export type AuditVerification =
  | {
      ok: true;
      count: number;
      headId: number;
      headHash: string;
      /** Rows up to this id are un-keyed legacy rows (0: none). */
      legacyThroughId: number;
      /** The anchor and how many rows were committed after it was last written. */
      anchor: AuditAnchor & { lag: number };
      message: string;
    }
  | { ok: false; reason: AuditProblem; message: string; count: number; firstBadId?: number };

/**
 * Verifies rows in append order (from the store or a JSONL export): each must link to the one
 * before it and match its hash, HMAC-SHA256 with the key after `legacyThroughId`, plain SHA-256
 * up to it. Truncating the newest rows leaves a valid shorter chain: `verifyAuditChain` compares
 * the head with the anchor to catch that.
 */
export function verifyAuditRows(rows: Iterable<AuditRow>, keying: AuditKeying): AuditChainCheck {
  let prev = AUDIT_GENESIS_HASH;
  let headId = 0;
  let count = 0;
  const bad = (row: AuditRow, reason: AuditProblem, message: string): AuditChainCheck => ({
    ok: false,
    reason,
    firstBadId: row.id,
    count,
    message,
  });
  for (const row of rows) {
    if (row.prevHash !== prev) {
      return bad(
        row,
        'chain_broken',
        `Audit row ${row.id} does not follow the row before it: a row was deleted, inserted or reordered before it`,
      );
    }
    if (row.id <= keying.legacyThroughId) {
      if (!sameHex(legacyAuditHash(row), row.hash)) {
        return bad(row, 'row_modified', `Audit row ${row.id} was modified after it was written: its content no longer matches its hash`);
      }
    } else if (!keying.key) {
      return bad(row, 'key_missing', `Audit row ${row.id} is keyed, and the audit key is needed to check it`);
    } else if (!sameHex(keyedAuditHash(keying.key, row), row.hash)) {
      if (sameHex(legacyAuditHash(row), row.hash)) {
        return bad(
          row,
          'unkeyed_row',
          `Audit row ${row.id} carries a plain SHA-256 hash, though rows after ${keying.legacyThroughId} are keyed: ` +
            'the chain was recomputed from there by someone without the audit key (or an older SkillDesk wrote to this store)',
        );
      }
      return bad(row, 'row_modified', `Audit row ${row.id} was modified after it was written: its content no longer matches its MAC`);
    }
    prev = row.hash;
    headId = row.id;
    count++;
  }
  return { ok: true, count, headId, headHash: prev };
}

/**
 * Verifies the store's trail: every row against the key, then the head against the anchor. The
 * anchor may lag the chain (rows appended since it was written each carry a MAC) but the chain
 * must still contain the anchored head, at the anchored position.
 */
export function verifyAuditChain(db: StoreDb): AuditVerification {
  const trail = requireTrail(db);
  trail.flush(); // this connection's own appends first, so the anchor is as fresh as it can be
  const key = trail.key;
  if (!key) {
    const problem = trail.keyProblem!;
    return { ok: false, reason: problem.reason, message: problem.message, count: 0 };
  }
  const chain = verifyAuditRows(iterateAudit(db), { key: key.key, legacyThroughId: key.legacyThroughId });
  if (!chain.ok) return chain;
  const read = readAnchor(trail.anchorFile, key.key);
  const fail = (reason: AuditProblem, message: string): AuditVerification => ({ ok: false, reason, message, count: chain.count });
  const reanchor = 'After investigating, `skilldesk audit --reanchor` accepts the trail as it is now and records that it did.';
  if (read.state === 'missing') {
    return fail(
      'anchor_missing',
      `The audit anchor ${trail.anchorFile} is missing, so rows deleted from the end of the trail cannot be detected. ` +
        `Restore it from a backup if it was moved. ${reanchor}`,
    );
  }
  if (read.state === 'forged') {
    return fail('anchor_forged', `The audit anchor ${trail.anchorFile} is not trustworthy: ${read.detail}. ${reanchor}`);
  }
  const a = read.anchor;
  const when = new Date(a.writtenAt).toISOString();
  if (a.count > 0 && chain.count === 0) {
    return fail(
      'emptied',
      `The audit trail is empty, but its anchor recorded ${a.count} row(s) up to row ${a.headId} at ${when}: every row was deleted. ${reanchor}`,
    );
  }
  const anchored =
    a.headId === 0 ? { hash: AUDIT_GENESIS_HASH } : prepared<{ hash: string }>(db, 'SELECT hash FROM audit WHERE id = ?').get(a.headId);
  if (!anchored) {
    return fail(
      'truncated',
      `The audit trail has no row ${a.headId}, which its anchor recorded at ${when} as the newest of ${a.count} row(s); it now ends at row ${chain.headId} ` +
        `with ${chain.count} row(s): rows were deleted from the end of the trail. Restore the database from a backup. ${reanchor}`,
    );
  }
  const position = prepared<{ n: number }>(db, 'SELECT count(*) AS n FROM audit WHERE id <= ?').get(a.headId)!.n;
  if (anchored.hash !== a.headHash || position !== a.count) {
    return fail(
      'rewritten',
      `Audit row ${a.headId} is not the row the anchor recorded at ${when} (${anchored.hash !== a.headHash ? 'its hash differs' : `it is row ${position} of the chain, not ${a.count}`}): ` +
        'the trail up to it was replaced: its rows were deleted and new ones written under the same ids, or someone holding ' +
        `the audit key ${trail.keyFile} rebuilt it (then treat the key as compromised). ${reanchor}`,
    );
  }
  const lag = chain.count - a.count;
  // Rows committed after the anchor (by a crashed process, or another one) are verified now: anchor them.
  if (lag > 0) trail.anchorVerified();
  return {
    ok: true,
    count: chain.count,
    headId: chain.headId,
    headHash: chain.headHash,
    legacyThroughId: key.legacyThroughId,
    anchor: { ...a, lag },
    message: okMessage(chain, a, lag, key.legacyThroughId, key.createdAt),
  };
}

function okMessage(
  chain: { count: number; headId: number; headHash: string },
  a: AuditAnchor,
  lag: number,
  legacyThroughId: number,
  keyCreatedAt: number,
): string {
  const parts = [
    `Audit trail verified: ${chain.count} row(s), newest row ${chain.headId} (${chain.headHash.slice(0, 16)}...); ` +
      `the anchor written at ${new Date(a.writtenAt).toISOString()} matches${lag ? ` (${lag} row(s) appended since, each checked by its MAC)` : ''}.`,
  ];
  if (legacyThroughId > 0) {
    parts.push(
      `Rows up to ${legacyThroughId} are unkeyed legacy rows, written before the audit key was created at ${new Date(keyCreatedAt).toISOString()}: ` +
        'their chain is intact, but an edit made to them before that time, with the chain recomputed, could not be detected.',
    );
  }
  return parts.join(' ');
}

/** Problems of the rows themselves: re-anchoring cannot accept them. */
const ROW_PROBLEMS: readonly AuditProblem[] = ['row_modified', 'chain_broken', 'unkeyed_row'];

/**
 * Accepts the chain as it is now: appends a row saying so (and what verification found), then
 * anchors the new head whatever the old anchor said. For a person who investigated a missing,
 * forged or outrun anchor (a database restored from a backup). Refuses a chain whose rows fail.
 */
export function reanchorAudit(db: StoreDb, now = Date.now()): { previous: AuditVerification; row: AuditRow } {
  const trail = requireTrail(db);
  trail.requireKey();
  const previous = verifyAuditChain(db);
  if (!previous.ok && ROW_PROBLEMS.includes(previous.reason)) {
    throw new StoreError(
      'store.audit_not_verified',
      `Cannot re-anchor an audit trail whose rows fail verification: ${previous.message}. Export it for review and move the database aside to start a new trail.`,
      { reason: previous.reason },
    );
  }
  const row = appendAudit(db, {
    ts: now,
    sessionId: 'audit',
    capability: 'audit.reanchor',
    decision: 'allow',
    reason: previous.ok
      ? 'The anchor was rewritten on request; the trail verified'
      : `The trail was re-anchored after: ${previous.message}`,
    policySource: 'user:audit --reanchor',
  });
  const count = prepared<{ n: number }>(db, 'SELECT count(*) AS n FROM audit').get()!.n;
  trail.replaceAnchor({ headId: row.id, headHash: row.hash, count });
  return { previous, row };
}

function requireTrail(db: StoreDb): AuditTrail {
  const trail = auditTrailOf(db);
  if (!trail) {
    throw new StoreError(
      'store.audit_no_trail',
      `The connection to ${db.name} has no audit key or anchor: open the store with openStore(), or check exported rows with verifyAuditRows`,
    );
  }
  return trail;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
