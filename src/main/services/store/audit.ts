import { closeSync, openSync, writeSync } from 'node:fs';
import { describeValue } from '../../../shared/errors';
import { AUDIT_ANSWERS, type AuditAnswer, type AuditFilter, type AuditView } from '../../../shared/permissions/audit';
import { iterateAudit } from './auditQuery';
import { StoreError } from './errors';
import { canonicalJson, sha256Hex } from './json';
import { cachedTransaction, prepared, type StoreDb } from './statements';
import { expectInteger, expectOneOf, expectOptionalText, expectText } from './validate';

export type { AuditAnswer } from '../../../shared/permissions/audit';
export type AuditDecision = AuditView['decision'];

/** The `prev_hash` of the first row. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

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

/** A stored audit row: what readers see, plus the chain. `hash` = SHA-256 of the canonical JSON of every other field except `id`. */
export interface AuditRow extends AuditView {
  argsDigest: string | null;
  prevHash: string;
  hash: string;
}

export type AuditVerification =
  | { ok: true; count: number; headHash: string }
  | { ok: false; firstBadId: number; reason: 'row_modified' | 'chain_broken'; message: string; count: number };

/** The hash of a row: SHA-256 over the canonical JSON of all fields but `id` and `hash` (so `prevHash` chains it). */
export function auditHash(row: Omit<AuditRow, 'id' | 'hash'>): string {
  const { ts, sessionId, runId, skillId, nodeId, capability, target, decision, answer, reason, policySource, argsDigest, prevHash } = row;
  return sha256Hex(
    canonicalJson({
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
    }),
  );
}

/** SHA-256 of the canonical JSON of a primitive's arguments, for `argsDigest`. */
export function digestArgs(args: unknown): string {
  return sha256Hex(canonicalJson(args));
}

/**
 * Appends a decision, chained to the previous row's hash. The read of the previous hash and
 * the insert share one IMMEDIATE transaction, so concurrent writers (app and CLI) cannot fork the chain.
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
  return cachedTransaction(db, 'appendAudit', appendInTransaction).immediate(db, { ...entry, ts });
}

function appendInTransaction(db: StoreDb, entry: AuditEntry & { ts: number }): AuditRow {
  const last = prepared<{ hash: string }>(db, 'SELECT hash FROM audit ORDER BY id DESC LIMIT 1').get();
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
  const hash = auditHash(fields);
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
  return { id: Number(info.lastInsertRowid), ...fields, hash };
}

/** Recomputes every hash and link; reports the first row that was edited, or where rows were removed. */
export function verifyAuditChain(db: StoreDb): AuditVerification {
  return verifyAuditRows(iterateAudit(db));
}

/**
 * Verifies rows in append order (from the store or a JSONL export). A row whose content no longer
 * matches its hash was modified; a row whose `prevHash` is not the previous row's hash follows a
 * deleted, inserted or reordered row. Truncating the newest rows leaves a valid shorter chain:
 * compare `headHash` with a copy kept elsewhere to detect that.
 */
export function verifyAuditRows(rows: Iterable<AuditRow>): AuditVerification {
  let prev = AUDIT_GENESIS_HASH;
  let count = 0;
  for (const row of rows) {
    if (row.prevHash !== prev) {
      return {
        ok: false,
        firstBadId: row.id,
        reason: 'chain_broken',
        count,
        message: `Audit row ${row.id} does not follow the row before it: a row was deleted, inserted or reordered before it`,
      };
    }
    if (auditHash(row) !== row.hash) {
      return {
        ok: false,
        firstBadId: row.id,
        reason: 'row_modified',
        count,
        message: `Audit row ${row.id} was modified after it was written: its content no longer matches its hash`,
      };
    }
    prev = row.hash;
    count++;
  }
  return { ok: true, count, headHash: prev };
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
