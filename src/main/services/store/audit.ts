import { createHmac } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { describeValue } from '../../../shared/errors';
import { AUDIT_ANSWERS, type AuditAnswer, type AuditFilter, type AuditView } from '../../../shared/permissions/audit';
import { AUDIT_GENESIS_HASH } from './auditAnchor';
import { iterateAudit } from './auditQuery';
import { auditTrailOf } from './auditTrail';
import { StoreError } from './errors';
import { canonicalJson, sha256Hex } from './json';
import { cachedTransaction, prepared, type StoreDb } from './statements';
import { expectInteger, expectOneOf, expectOptionalText, expectText } from './validate';

export type { AuditAnswer } from '../../../shared/permissions/audit';
export type AuditDecision = AuditView['decision'];

export { AUDIT_GENESIS_HASH } from './auditAnchor';

interface AuditFields {
  /** Epoch ms. @default Date.now() */
  ts?: number;
  sessionId: string;
  runId?: string | null;
  skillId?: string | null;
  nodeId?: string | null;
  capability: string;
  /** What the action touches: a path, a URL, a window ("mousepad: Untitled 1"). */
  target?: string | null;
  reason: string;
  /** Which policy entry or grant decided (`skill:mousepad.save_as#permissions[1]`, `default-deny`). */
  policySource: string;
  /** `digestArgs(args)`: arguments are digested, never stored, so secrets stay out of the trail. */
  argsDigest?: string | null;
}

/** A decision to append. A 'confirm' says how it was answered; the others have no answer. */
export type AuditEntry = AuditFields & ({ decision: 'allow' | 'deny'; answer?: null } | { decision: 'confirm'; answer: AuditAnswer });

/**
 * A stored audit row: what readers see, plus the chain. `hash` is the HMAC-SHA256, under the
 * store's audit key, of the canonical JSON of every other field except `id` (so `prevHash`, the
 * previous row's hash, is part of what is MACed); rows written before the store had a key carry
 * the plain SHA-256 of the same JSON instead (`legacyAuditHash`).
 */
export interface AuditRow extends AuditView {
  argsDigest: string | null;
  prevHash: string;
  hash: string;
}

/** The fields a row's hash covers, in canonical JSON: every field but `id` and `hash`. */
function hashedJson(row: Omit<AuditRow, 'id' | 'hash'>): string {
  const { ts, sessionId, runId, skillId, nodeId, capability, target, decision, answer, reason, policySource, argsDigest, prevHash } = row;
  return canonicalJson({
    ts,
    sessionId,
    runId,
    skillId,
    nodeId,
    capability,
    target,
    decision,
    answer,
    reason,
    policySource,
    argsDigest,
    prevHash,
  });
}

/** A keyed row's hash: HMAC-SHA256 with the audit key; without the key, no one can compute it for an edited row. */
export function keyedAuditHash(key: Buffer, row: Omit<AuditRow, 'id' | 'hash'>): string {
  return createHmac('sha256', key).update(hashedJson(row)).digest('hex');
}

/** A legacy row's hash (written before the store had an audit key): plain SHA-256, which anyone can recompute. */
export function legacyAuditHash(row: Omit<AuditRow, 'id' | 'hash'>): string {
  return sha256Hex(hashedJson(row));
}

/** SHA-256 of the canonical JSON of a primitive's arguments, for `argsDigest`. */
export function digestArgs(args: unknown): string {
  return sha256Hex(canonicalJson(args));
}

/**
 * Appends a decision, chained to the previous row's hash and MACed with the store's audit key.
 * The read of the previous hash and the insert share one IMMEDIATE transaction, so concurrent
 * writers (app and CLI) cannot fork the chain; the anchor is updated after the commit.
 * Throws `store.audit_key` when the key is missing or unsafe, and `store.audit_no_trail` on a
 * connection `openStore` did not open (it has no key).
 */
export function appendAudit(db: StoreDb, entry: AuditEntry): AuditRow {
  const ts = entry.ts ?? Date.now();
  expectInteger(ts, 'ts');
  expectText(entry.sessionId, 'sessionId');
  expectText(entry.capability, 'capability');
  expectOneOf(entry.decision, ['allow', 'confirm', 'deny'] as const, 'decision');
  // Callers outside TypeScript can still send an answer with 'allow' or 'deny'.
  const { decision, answer } = entry as { decision: AuditDecision; answer?: unknown };
  if (decision === 'confirm') expectOneOf(answer, AUDIT_ANSWERS, 'answer');
  else if (answer != null) {
    throw new StoreError(
      'store.invalid_argument',
      `Expected \`answer\` to be absent for a '${decision}' decision (only 'confirm' is answered), got ${describeValue(answer)}`,
    );
  }
  expectText(entry.reason, 'reason');
  expectText(entry.policySource, 'policySource');
  for (const key of ['runId', 'skillId', 'nodeId', 'target', 'argsDigest'] as const) expectOptionalText(entry[key], key);
  const trail = auditTrailOf(db);
  if (!trail) {
    throw new StoreError(
      'store.audit_no_trail',
      `The connection to ${db.name} has no audit key: open the store with openStore(), which opens its key and anchor`,
    );
  }
  const key = trail.requireKey().key;
  const { row, count } = cachedTransaction(db, 'appendAudit', appendInTransaction).immediate(db, { ...entry, ts }, key, trail);
  trail.appended({ headId: row.id, headHash: row.hash, count });
  return row;
}

function appendInTransaction(
  db: StoreDb,
  entry: AuditEntry & { ts: number },
  key: Buffer,
  trail: { rowsThrough(lastId: number | undefined): number },
): { row: AuditRow; count: number } {
  const last = prepared<{ id: number; hash: string }>(db, 'SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1').get();
  const count = trail.rowsThrough(last?.id) + 1;
  const fields = {
    ts: entry.ts,
    sessionId: entry.sessionId,
    runId: entry.runId ?? null,
    skillId: entry.skillId ?? null,
    nodeId: entry.nodeId ?? null,
    capability: entry.capability,
    target: entry.target ?? null,
    decision: entry.decision,
    answer: entry.answer ?? null,
    reason: entry.reason,
    policySource: entry.policySource,
    argsDigest: entry.argsDigest ?? null,
    prevHash: last?.hash ?? AUDIT_GENESIS_HASH,
  };
  const hash = keyedAuditHash(key, fields);
  const info = prepared(
    db,
    `INSERT INTO audit (ts, session_id, run_id, skill_id, node_id, capability, target, decision, answer, reason, policy_source, args_digest, prev_hash, hash)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    fields.ts,
    fields.sessionId,
    fields.runId,
    fields.skillId,
    fields.nodeId,
    fields.capability,
    fields.target,
    fields.decision,
    fields.answer,
    fields.reason,
    fields.policySource,
    fields.argsDigest,
    fields.prevHash,
    hash,
  );
  return { row: { id: Number(info.lastInsertRowid), ...fields, hash }, count };
}

/** Writes matching rows to `file` as JSON Lines (one `AuditRow` per line, append order); returns the count. */
export function exportAuditJsonl(db: StoreDb, file: string, filter: AuditFilter = {}): { count: number } {
  const fd = openSync(file, 'w');
  let count = 0;
  try {
    for (const row of iterateAudit(db, filter)) {
      writeSync(fd, `${JSON.stringify(row)}\n`);
      count++;
    }
  } finally {
    closeSync(fd);
  }
  return { count };
}
