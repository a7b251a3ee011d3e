import Database from 'better-sqlite3';
import { migrate, schemaVersion, type MigrationReport, type StoreDb } from '../../../../../src/main/services/store';

/**
 * The pattern every migration test follows: open a real database file at version N-1, seed it
 * with rows as that version stored them (raw SQL, since today's query functions speak the newest
 * schema), upgrade to N, and assert the rows came through.
 *
 * @example
 *   const db = openAtVersion(file, 1);
 *   db.prepare('INSERT INTO runs ...').run(...);     // data as version 1 wrote it
 *   const report = upgrade(db, 2);
 *   expect(report.applied).toEqual([2]);
 *   expect(db.prepare('SELECT new_column FROM runs').get()).toEqual(...);
 */
export function openAtVersion(file: string, version: number): StoreDb {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db, { target: version });
  if (schemaVersion(db) !== version) throw new Error(`Expected the harness database at version ${version}, got ${schemaVersion(db)}`);
  return db;
}

/** Runs the migrations up to `version` on a database opened by `openAtVersion`. */
export function upgrade(db: StoreDb, version: number): MigrationReport {
  return migrate(db, { target: version });
}

/** Table names, then `name: column type` lists, to compare schemas in assertions. */
export function describeSchema(db: StoreDb): Record<string, string[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((t) => [
      t,
      (db.prepare(`PRAGMA table_info(${t})`).all() as { name: string; type: string }[]).map((c) => `${c.name}: ${c.type}`),
    ]),
  );
}
