import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMigrationList, migrate, MIGRATIONS, schemaVersion, type Migration } from '../../../../../src/main/services/store';
import { describeSchema, openAtVersion, upgrade } from '../helpers/migrationHarness';
import { useTempStores } from '../helpers/tempDir';

const temp = useTempStores();

describe('src/main/services/store/migrations/001-initial', () => {
  it('creates every table as STRICT from an empty file (version 0 -> 1)', () => {
    const db = openAtVersion(join(temp.dir(), 'v0.db'), 0);
    try {
      expect(describeSchema(db)).toEqual({});
      const report = upgrade(db, 1);
      expect(report).toEqual({ from: 0, to: 1, applied: [1] });
      expect(schemaVersion(db)).toBe(1);
      const tables = Object.keys(describeSchema(db));
      expect(tables).toEqual(['audit', 'embeddings', 'grants', 'memory', 'runs', 'settings', 'skill_index', 'steps']);
      const strict = db
        .prepare("SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all();
      expect(strict).toEqual(tables.map((name) => ({ name, strict: 1 })));
      const indexes = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .pluck()
        .all();
      expect(indexes).toEqual(
        expect.arrayContaining([
          'audit_by_ts',
          'audit_by_skill',
          'runs_by_skill',
          'runs_by_status',
          'memory_by_session',
          'grants_by_skill',
        ]),
      );
    } finally {
      db.close();
    }
  });

  it('rejects a wrongly typed value because the tables are STRICT', () => {
    const db = openAtVersion(join(temp.dir(), 'strict.db'), 1);
    try {
      expect(() => db.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('k', '1', 'yesterday')").run()).toThrow(
        /cannot store TEXT value in INTEGER column/,
      );
      expect(() =>
        db
          .prepare(
            "INSERT INTO audit (ts, session_id, capability, decision, reason, policy_source, prev_hash, hash) VALUES (1, 's', 'c', 'maybe', 'r', 'p', ?, ?)",
          )
          .run('0'.repeat(64), '1'.repeat(64)),
      ).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it('does nothing when the database is already at the latest version', () => {
    const db = openAtVersion(join(temp.dir(), 'latest.db'), MIGRATIONS.length);
    try {
      db.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('kept', '1', 1)").run();
      expect(migrate(db)).toEqual({ from: MIGRATIONS.length, to: MIGRATIONS.length, applied: [] });
      expect(db.prepare("SELECT value_json FROM settings WHERE key = 'kept'").pluck().get()).toBe('1');
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back entirely and keeps the previous version', () => {
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER) STRICT');
        db.exec('ALTER TABLE no_such_table ADD COLUMN y INTEGER');
      },
    };
    const db = openAtVersion(join(temp.dir(), 'fail.db'), MIGRATIONS.length);
    try {
      expect(() => migrate(db, { migrations: [...MIGRATIONS, broken] })).toThrow(
        expect.objectContaining({ code: 'store.migration_failed' }),
      );
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('refuses a migration list whose versions skip or repeat', () => {
    const [first] = MIGRATIONS as [Migration];
    expect(() => checkMigrationList([first, { ...first, name: 'again' }])).toThrow(/to have version 2, got 1/);
    expect(() => checkMigrationList([{ ...first, version: 2 }])).toThrow(expect.objectContaining({ code: 'store.bad_migrations' }));
    expect(() => checkMigrationList(MIGRATIONS)).not.toThrow();
  });

  it('refuses to open a store written by a newer schema', () => {
    const dataDir = temp.dir();
    temp.open({}, dataDir).db.pragma('user_version = 99');
    expect(() => temp.open({}, dataDir)).toThrow(
      expect.objectContaining({ code: 'store.schema_too_new', message: expect.stringMatching(/schema version 99.*Upgrade SkillDesk/) }),
    );
  });
});
