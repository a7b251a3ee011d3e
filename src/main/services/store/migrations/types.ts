import type { StoreDb } from '../statements';

/**
 * One schema step. A shipped migration is never edited: fix forward with a new file.
 * `up` runs inside a transaction together with the `user_version` bump, so a failure leaves
 * the database at the previous version.
 */
export interface Migration {
  /** The `PRAGMA user_version` after this migration; versions only increase, by one. */
  version: number;
  /** Short name for errors and logs (`initial`). */
  name: string;
  up(db: StoreDb): void;
}
