import { existsSync } from 'node:fs';
import { AUDIT_GENESIS_HASH, readAnchor, writeAnchor, type AuditAnchor } from './auditAnchor';
import { auditFilesFor, syncFiles } from './auditFiles';
import { completeAuditKey, createAuditKey, readAuditKey, type AuditKey, type AuditKeyProblem } from './auditKey';
import { StoreError } from './errors';
import { prepared, type StoreDb } from './statements';

/** Options of the audit trail a store opens. */
export interface AuditTrailOptions {
  /**
   * How often, at most, the anchor is rewritten while rows are appended. Each write flushes the
   * database and the anchor to disk (a few ms), so appends are anchored in batches: after a crash
   * the anchor lags by the rows of the last interval at most, which verification accepts.
   * 0 writes it after every append. @default 250
   */
  anchorIntervalMs?: number;
}

/** The head of the chain after a committed append. */
export type AuditHead = Omit<AuditAnchor, 'writtenAt'>;

const trails = new WeakMap<StoreDb, AuditTrail>();

/** The audit trail opened for this connection (by `openStore`), if any. */
export function auditTrailOf(db: StoreDb): AuditTrail | undefined {
  return trails.get(db);
}

/**
 * Opens the key and anchor of the store at `db.name` and binds them to `db`, so `appendAudit(db)`
 * and `verifyAuditChain(db)` use them. The first open of a store creates both; the rows already
 * there stay as they were, verified as legacy (un-keyed) rows.
 */
export function openAuditTrail(db: StoreDb, opts: AuditTrailOptions = {}): AuditTrail {
  const trail = new AuditTrail(db, opts);
  trails.set(db, trail);
  return trail;
}

/**
 * A connection's audit key and anchor. Appends report each new head here; the anchor is
 * rewritten from it, at most every `anchorIntervalMs`, and never over an anchor that the chain
 * no longer extends (that is evidence, left for `verify` to report).
 */
export class AuditTrail {
  readonly keyFile: string;
  readonly anchorFile: string;
  private readonly keyState: AuditKey | AuditKeyProblem;
  private readonly intervalMs: number;
  /**
   * The newest head this connection appended, to count rows without a table scan. It may name a
   * row that later rolled back: harmless, since the count is looked up by the previous row's id,
   * and any row with that id, after the same rows, is at the same position.
   */
  private head: { id: number; count: number } | undefined;
  /** Rows were appended since the anchor was last written. */
  private dirty = false;
  private lastWriteMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: StoreDb,
    opts: AuditTrailOptions,
  ) {
    ({ keyFile: this.keyFile, anchorFile: this.anchorFile } = auditFilesFor(db.name));
    this.intervalMs = opts.anchorIntervalMs ?? 250;
    if (!Number.isSafeInteger(this.intervalMs) || this.intervalMs < 0) {
      throw new StoreError(
        'store.invalid_argument',
        `Expected \`anchorIntervalMs\` to be a non-negative integer, got \`${this.intervalMs}\``,
      );
    }
    this.keyState = readAuditKey(this.keyFile) ?? this.createKey();
    this.lastWriteMs = Date.now();
  }

  /** The key, when it is usable. */
  get key(): AuditKey | undefined {
    return 'key' in this.keyState ? this.keyState : undefined;
  }

  /** Why the key cannot be used, if it cannot. */
  get keyProblem(): AuditKeyProblem | undefined {
    return 'reason' in this.keyState ? this.keyState : undefined;
  }

  /** The key to append with; throws when it is missing or unsafe (an un-keyed row would be a forgery's cover). */
  requireKey(): AuditKey {
    const problem = this.keyProblem;
    if (problem)
      throw new StoreError('store.audit_key', `Cannot append to the audit trail. ${problem.message}`, { reason: problem.reason });
    return this.key!;
  }

  /** Rows before the one being appended (inside the append's transaction): no scan when this connection made the last append. */
  rowsThrough(lastId: number | undefined): number {
    if (lastId === undefined) return 0;
    if (this.head?.id === lastId) return this.head.count;
    return prepared<{ n: number }>(this.db, 'SELECT count(*) AS n FROM audit').get()!.n;
  }

  /** Called after an append: anchors the chain's head now, or within `anchorIntervalMs`. */
  appended(head: AuditHead): void {
    this.head = { id: head.headId, count: head.count };
    this.dirty = true;
    const wait = this.lastWriteMs + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), wait).unref();
  }

  /**
   * Writes the chain's committed head to the anchor, if the chain still extends the anchored head.
   * A failed write (disk full) is retried later; the anchor only lags meanwhile.
   */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const key = this.key;
    if (!this.dirty || !key || !this.db.open) return;
    if (this.db.inTransaction) {
      // A caller's transaction is open: its rows may still roll back, and an anchor naming one
      // could lead the chain. Try again once it is over.
      this.timer = setTimeout(() => this.flush(), Math.max(this.intervalMs, 1)).unref();
      return;
    }
    try {
      const last = prepared<{ id: number; hash: string }>(this.db, 'SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1').get();
      const target: AuditHead = { headId: last?.id ?? 0, headHash: last?.hash ?? AUDIT_GENESIS_HASH, count: this.rowsThrough(last?.id) };
      if (this.extendsAnchor(key, target)) this.writeAnchor(key, target);
      this.dirty = false;
    } catch {
      this.lastWriteMs = Date.now();
    }
  }

  /** Anchors the head after verification checked the rows committed since the anchor (by another process, or a crashed one). */
  anchorVerified(): void {
    this.dirty = true;
    this.flush();
  }

  /** Anchors `head` whatever the anchor says: `reanchorAudit` only, after the user accepted the chain. */
  replaceAnchor(head: AuditHead): void {
    this.writeAnchor(this.requireKey(), head);
    this.head = { id: head.headId, count: head.count };
    this.dirty = false;
  }

  /** Anchors the head if rows were appended, and stops the timer (the store is closing). */
  close(): void {
    this.flush();
    clearTimeout(this.timer);
  }

  private extendsAnchor(key: AuditKey, target: AuditHead): boolean {
    const current = readAnchor(this.anchorFile, key.key);
    if (current.state !== 'ok') return false; // missing or forged: reported by verify, never papered over
    const a = current.anchor;
    if (a.headId >= target.headId) return false; // another process anchored a newer head already
    const anchored =
      a.headId === 0 ? AUDIT_GENESIS_HASH : prepared<{ hash: string }>(this.db, 'SELECT hash FROM audit WHERE id = ?').get(a.headId)?.hash;
    const added = prepared<{ n: number }>(this.db, 'SELECT count(*) AS n FROM audit WHERE id > ? AND id <= ?').get(
      a.headId,
      target.headId,
    )!.n;
    if (anchored === a.headHash && a.count + added === target.count) return true;
    // The anchored head was removed or rewritten: leave the anchor as evidence, and recount next time.
    this.head = undefined;
    return false;
  }

  private writeAnchor(key: AuditKey, head: AuditHead): void {
    // Only the WAL: a checkpoint syncs the main file itself, and without WAL every commit is synced.
    syncFiles([`${this.db.name}-wal`]);
    writeAnchor(this.anchorFile, key.key, { ...head, writtenAt: Date.now() });
    this.lastWriteMs = Date.now();
  }

  private createKey(): AuditKey | AuditKeyProblem {
    // IMMEDIATE: no row is appended between reading the head and anchoring it, and two processes
    // opening a new store do not both create a key.
    return this.db
      .transaction((): AuditKey | AuditKeyProblem => {
        const existing = readAuditKey(this.keyFile);
        if (existing) return existing;
        const completed = completeAuditKey(this.keyFile, (k) => readAnchor(this.anchorFile, k.key).state === 'ok');
        if (completed) return completed;
        if (existsSync(this.anchorFile)) {
          return {
            reason: 'key_missing',
            message:
              `The audit key ${this.keyFile} is missing, but the anchor ${this.anchorFile} shows the trail was keyed with it: ` +
              'keyed rows cannot be verified and no row can be appended. Restore the key file from a backup; if it is lost, ' +
              'move the database, its anchor and key aside (keep them for review) to start a new trail.',
          };
        }
        const last = prepared<{ id: number; hash: string }>(this.db, 'SELECT id, hash FROM audit ORDER BY id DESC LIMIT 1').get();
        const count = prepared<{ n: number }>(this.db, 'SELECT count(*) AS n FROM audit').get()!.n;
        const head: AuditHead = { headId: last?.id ?? 0, headHash: last?.hash ?? AUDIT_GENESIS_HASH, count };
        return createAuditKey(this.keyFile, head.headId, Date.now(), (key) => this.writeAnchor(key, head));
      })
      .immediate();
  }
}
