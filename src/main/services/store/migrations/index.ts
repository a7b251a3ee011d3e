import { StoreError } from '../errors';
import type { StoreDb } from '../statements';
import { migration001 } from './001-initial';
import { migration002 } from './002-audit-pages';
import { migration003 } from './003-grant-skill-hash';
import { migration004 } from './004-step-lifecycle';
import { migration005 } from './005-composition-graph';
import type { Migration } from './types';

export type { Migration } from './types';

/**
 * Every migration, in order. Append new ones; never edit or reorder a shipped one.
 * To add version N: create `NNN-name.ts` exporting a `Migration` with `version: N`, append it
 * here, and add `test/main/services/store/migrations/NNN-name.test.ts` that seeds a database
 * opened with `openAtVersion(file, N - 1)` (test/main/services/store/helpers/migrationHarness.ts)
 * and asserts the rows after `upgrade(db, N)`.
 */
export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005];

/** The schema version this build writes. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.length;

/** What `migrate` did. */
export interface MigrationReport {
  from: number;
  to: number;
  applied: number[];
}

/** The database's `PRAGMA user_version`. */
export function schemaVersion(db: StoreDb): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings `db` up to `target` (default: the latest), one transaction per migration.
 * Each transaction is IMMEDIATE and re-reads `user_version`, so two processes opening the
 * same new file do not both run a migration.
 */
export function migrate(db: StoreDb, opts: { target?: number; migrations?: readonly Migration[] } = {}): MigrationReport {
  const migrations = opts.migrations ?? MIGRATIONS;
  checkMigrationList(migrations);
  const latest = migrations.length;
  const target = opts.target ?? latest;
  if (!Number.isSafeInteger(target) || target < 0 || target > latest) {
    throw new StoreError('store.invalid_argument', `Expected \`target\` to be an integer from 0 to ${latest}, got \`${target}\``);
  }
  const from = schemaVersion(db);
  if (from > latest) {
    throw new StoreError(
      'store.schema_too_new',
      `The store ${db.name} has schema version ${from}, but this SkillDesk knows versions up to ${latest}. ` +
        'Upgrade SkillDesk, or point --data-dir at another folder.',
      { file: db.name, found: from, latest },
    );
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    const step = db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return false;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    try {
      if (step.immediate()) applied.push(migration.version);
    } catch (err) {
      throw new StoreError(
        'store.migration_failed',
        `Migration ${String(migration.version).padStart(3, '0')}-${migration.name} failed on ${db.name}: ${(err as Error).message}. ` +
          `The store was left at schema version ${schemaVersion(db)}; nothing of this migration was kept.`,
        { file: db.name, version: migration.version },
      );
    }
  }
  return { from, to: schemaVersion(db), applied };
}

/** Versions must be 1, 2, 3, ...: a gap or duplicate means a file was lost or renumbered. */
export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new StoreError(
        'store.bad_migrations',
        `Expected migration #${i + 1} (${m.name}) to have version ${i + 1}, got ${m.version}; versions must increase by one`,
      );
    }
  });
}
