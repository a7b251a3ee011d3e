import type { AuditRecord, AuditSink } from '../../../shared/permissions/audit';
import { appendAudit, type StoreDb } from '../store';

/** Appends decisions to the store's hash-chained audit table. */
export class SqliteAuditSink implements AuditSink {
  constructor(private readonly db: StoreDb) {}

  append(r: AuditRecord): void {
    const common = {
      ts: r.ts,
      sessionId: r.sessionId,
      runId: r.runId ?? null,
      skillId: r.skillId ?? null,
      nodeId: r.nodeId ?? null,
      capability: r.capability,
      target: r.target ?? null,
      reason: r.reason,
      policySource: r.policySource,
      argsDigest: r.argsDigest ?? null,
    };
    if (r.decision === 'confirm') appendAudit(this.db, { ...common, decision: 'confirm', answer: r.answer ?? 'deny' });
    else appendAudit(this.db, { ...common, decision: r.decision });
  }
}

/** Keeps decisions in memory (tests, dry runs without a store). */
export class MemoryAuditSink implements AuditSink {
  readonly records: AuditRecord[] = [];

  append(r: AuditRecord): void {
    this.records.push(r);
  }
}
