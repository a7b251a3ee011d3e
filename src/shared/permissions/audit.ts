import type { Effect } from './manifest';

/**
 * One audit-trail record: every mediation decision, whatever its outcome. The store chains
 * records by hash; `answer` is set exactly when the decision was `confirm`.
 */
export interface AuditRecord {
  ts: number;
  sessionId: string;
  runId?: string;
  skillId?: string;
  nodeId?: string;
  capability: string;
  /** Rendered target; digested for `redact`-level capabilities. */
  target?: string;
  decision: Effect;
  answer?: 'allow_once' | 'allow_session' | 'allow_persistent' | 'deny' | 'timeout' | 'no_user';
  reason: string;
  policySource: string;
  /** SHA-256 of the resolved primitive and arguments (never the values themselves). */
  argsDigest?: string;
}

/** Where decisions are written (the SQLite audit table in the app). */
export interface AuditSink {
  append(record: AuditRecord): void;
}
