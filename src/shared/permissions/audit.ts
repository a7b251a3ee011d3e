import { z } from 'zod';
import { EffectSchema, type Effect } from './manifest';

/** How a `confirm` was answered; `timeout` and `no_user` count as deny. */
export const AUDIT_ANSWERS = ['allow_once', 'allow_session', 'allow_persistent', 'deny', 'timeout', 'no_user'] as const;
export type AuditAnswer = (typeof AUDIT_ANSWERS)[number];

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
  answer?: AuditAnswer;
  reason: string;
  policySource: string;
  /** SHA-256 of the resolved primitive and arguments (never the values themselves). */
  argsDigest?: string;
}

/** Where decisions are written (the SQLite audit table in the app). */
export interface AuditSink {
  append(record: AuditRecord): void;
}

/**
 * A recorded decision as it is read back: the audit table in the UI, the CLI listing. The store's
 * row adds the chain fields (digest and hashes) to this; absent fields read as null.
 */
export interface AuditView {
  id: number;
  /** Epoch ms. */
  ts: number;
  sessionId: string;
  runId: string | null;
  skillId: string | null;
  nodeId: string | null;
  capability: string;
  /** What the action touches: a path, a URL, a window ("mousepad: Untitled 1"). */
  target: string | null;
  decision: Effect;
  answer: AuditAnswer | null;
  reason: string;
  /** Which policy entry or grant decided (`skill:mousepad.save_as#permissions[1]`, `default-deny`). */
  policySource: string;
}

const FilterText = z.string().min(1).max(200);
const EpochMs = z.number().int().nonnegative();

/** What a reader can narrow the audit to (UI, CLI, IPC); the fields combine with AND. */
export const AuditFilter = z
  .object({
    /** Decisions at or after this time (epoch ms). */
    since: EpochMs.optional(),
    /** Decisions before this time (epoch ms). */
    until: EpochMs.optional(),
    decision: EffectSchema.optional(),
    /** Exact skill id. */
    skill: FilterText.optional(),
    /** Exact capability (`file.write`). */
    capability: FilterText.optional(),
    runId: FilterText.optional(),
    sessionId: FilterText.optional(),
    /** Substring of the capability, target, reason, skill, policy source or answer; case-insensitive for ASCII letters. */
    text: FilterText.optional(),
  })
  .strict();
export type AuditFilter = z.output<typeof AuditFilter>;

/**
 * One page of the audit, newest first. `nextCursor` asks for the rows after this page (older);
 * it is null when no older row matches. A page may be short and still have a cursor (the store
 * bounds how many rows one call examines).
 */
export interface AuditPage<Row = AuditView> {
  rows: Row[];
  nextCursor: string | null;
}
