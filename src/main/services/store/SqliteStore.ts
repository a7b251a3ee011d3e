import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { openAuditTrail, type AuditTrail, type AuditTrailOptions } from './auditTrail';
import { StoreError } from './errors';
import { LATEST_SCHEMA_VERSION, migrate, type MigrationReport } from './migrations';
import { storeFile } from './paths';
import { recoverInterruptedRuns } from './runRecovery';
import type { StoreDb } from './statements';

/** Where the store lives: a data dir (the file is `<dataDir>/skilldesk.db`) or an explicit file. */
export type StoreLocation = { dataDir: string } | { file: string };

export type OpenStoreOptions = StoreLocation & {
  /**
   * Path to the better-sqlite3 addon to load instead of the one in node_modules: the Electron
   * build of the addon may live elsewhere than the Node build the CLI and tests use.
   */
  nativeBinding?: string;
  /** How long a writer waits for another process's lock before failing. @default 5000 */
  busyTimeoutMs?: number;
  /** Clock for interrupted-run recovery. @default Date.now */
  now?: () => number;
  /** The audit trail's key and anchor (`<name>.audit-key`, `<name>.audit-anchor` beside the file). */
  audit?: AuditTrailOptions;
};

/** An open store: the connection every query function takes first, and what opening it found. */
export interface SqliteStore {
  readonly db: StoreDb;
  /** Absolute path of the SQLite file. */
  readonly file: string;
  /** `PRAGMA user_version` after migrations. */
  readonly schemaVersion: number;
  readonly migrations: MigrationReport;
  /** Runs a crashed process left 'running', marked 'aborted' (reason 'interrupted') by this open. */
  readonly recoveredRunIds: readonly string[];
  /** `wal` normally; another mode only where the file system cannot do WAL. */
  readonly journalMode: string;
  /** The audit trail's key and anchor, bound to `db` (appendAudit and verifyAuditChain find them there). */
  readonly audit: AuditTrail;
  /** Closes the connection (runs `PRAGMA optimize` first, as SQLite recommends). */
  close(): void;
}

/**
 * Opens (creating the folder and file if needed) and migrates the store, recovers runs left
 * 'running' by a crashed process, and opens the audit trail's key and anchor (creating them for
 * a new store, or one written before audit keys existed). WAL with synchronous=NORMAL: a committed transaction
 * survives a process crash; only an OS crash or power loss can drop the last commits.
 */
export function openStore(opts: OpenStoreOptions): SqliteStore {
  const file = 'file' in opts ? resolve(opts.file) : storeFile(opts.dataDir);
  const busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new StoreError('store.invalid_argument', `Expected \`busyTimeoutMs\` to be a non-negative integer, got \`${busyTimeoutMs}\``);
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (err) {
    throw new StoreError(
      'store.open_failed',
      `Cannot create the data folder ${dirname(file)}: ${(err as Error).message}. Choose a writable folder with --data-dir.`,
      { file },
    );
  }
  const db = connect(file, opts.nativeBinding, busyTimeoutMs);
  try {
    const journalMode = String(db.pragma('journal_mode = WAL', { simple: true }));
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const migrations = migrate(db);
    checkTables(db, file);
    const now = opts.now ?? Date.now;
    const recoveredRunIds = recoverInterruptedRuns(db, { now: now() });
    const audit = openAuditTrail(db, opts.audit);
    return {
      db,
      file,
      journalMode,
      migrations,
      recoveredRunIds,
      audit,
      schemaVersion: migrations.to,
      close() {
        if (!db.open) return;
        try {
          audit.close();
          db.pragma('optimize');
        } finally {
          db.close();
        }
      },
    };
  } catch (err) {
    db.close();
    throw damaged(err, file) ?? err;
  }
}

/** The tables the migrations create; a store missing one was damaged or edited outside SkillDesk. */
const TABLES = ['audit', 'embeddings', 'grants', 'memory', 'runs', 'settings', 'skill_index', 'steps'];

function checkTables(db: StoreDb, file: string): void {
  const have = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  const missing = TABLES.filter((t) => !have.has(t));
  if (missing.length)
    throw new StoreError(
      'store.damaged',
      `The store ${file} has no table ${missing.map((t) => `\`${t}\``).join(', ')}: it was damaged or edited outside SkillDesk. ${moveAside(file)}`,
      { file, missing },
    );
}

/** SQLite's own verdict that the file is not a database, or a damaged one, as a store error; undefined otherwise. */
function damaged(err: unknown, file: string): StoreError | undefined {
  const code = (err as { code?: unknown }).code;
  if (code !== 'SQLITE_NOTADB' && code !== 'SQLITE_CORRUPT') return undefined;
  return new StoreError(
    'store.damaged',
    `The store ${file} is not a SQLite database, or is damaged (${(err as Error).message}). ${moveAside(file)}`,
    { file },
  );
}

const moveAside = (file: string) =>
  `Keep it for inspection and start a new store by moving it aside (mv "${file}" "${file}.damaged"); runs and audit rows in it are then no longer shown, and \`skilldesk audit --verify\` reports the old chain as missing.`;

function connect(file: string, nativeBinding: string | undefined, timeout: number): StoreDb {
  try {
    return new Database(file, { timeout, ...(nativeBinding !== undefined && { nativeBinding }) });
  } catch (err) {
    const message = (err as Error).message;
    // better-sqlite3 compiled for Electron cannot load in Node and vice versa; say which runtime wants what.
    if (
      /NODE_MODULE_VERSION|was compiled against|Could not locate the bindings|invalid ELF|not a valid Win32|Cannot find module|ERR_DLOPEN_FAILED/i.test(
        message,
      ) ||
      (err as { code?: string }).code === 'ERR_DLOPEN_FAILED'
    ) {
      throw new StoreError(
        'store.native_binding',
        `Cannot load better-sqlite3's native addon${nativeBinding ? ` from ${nativeBinding}` : ''} in ${runtimeName()}: ${firstLine(message)}. ` +
          'Rebuild it for this runtime (npm rebuild better-sqlite3, or the Electron rebuild step) or pass `nativeBinding` pointing at a matching build.',
        { file, nativeBinding },
      );
    }
    throw new StoreError('store.open_failed', `Cannot open the store ${file}: ${message}`, { file });
  }
}

function runtimeName(): string {
  const electron = process.versions.electron;
  return electron
    ? `Electron ${electron} (ABI ${process.versions.modules})`
    : `Node ${process.versions.node} (ABI ${process.versions.modules})`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}

/** The schema version this build creates. */
export const STORE_SCHEMA_VERSION = LATEST_SCHEMA_VERSION;
