import { SkillDeskError } from '../../../shared/errors';

/** Codes the store raises; callers branch on these, people read the message. */
export type StoreErrorCode =
  | 'store.open_failed'
  | 'store.damaged'
  | 'store.native_binding'
  | 'store.schema_too_new'
  | 'store.migration_failed'
  | 'store.bad_migrations'
  | 'store.invalid_argument'
  | 'store.run_not_found'
  | 'store.run_already_finished'
  | 'store.duplicate_run'
  | 'store.duplicate_step'
  | 'store.duplicate_skill'
  | 'store.audit_key'
  | 'store.audit_no_trail'
  | 'store.audit_not_verified';

/** A store failure with a stable `code` and a message that says what to do. */
export class StoreError extends SkillDeskError {
  constructor(
    override readonly code: StoreErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
    this.name = 'StoreError';
  }
}

/** The SQLite extended result code of a better-sqlite3 error (`SQLITE_CONSTRAINT_FOREIGNKEY`), if any. */
export function sqliteCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
