import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createRun,
  getRun,
  getSetting,
  LATEST_SCHEMA_VERSION,
  openStore,
  setSetting,
  STORE_FILE_NAME,
} from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

describe('src/main/services/store/SqliteStore', () => {
  it('creates the data dir and the file, migrated, with WAL, foreign keys and a busy timeout', () => {
    const dataDir = join(temp.dir(), 'nested', 'data');
    const store = temp.open({ busyTimeoutMs: 1234 }, dataDir);
    expect(store.file).toBe(join(dataDir, STORE_FILE_NAME));
    expect(existsSync(store.file)).toBe(true);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(store.migrations.applied).toEqual(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1));
    expect(store.journalMode).toBe('wal');
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
  });

  it('opens an explicit file path', () => {
    const file = join(temp.dir(), 'sub', 'custom.sqlite');
    const store = openStore({ file });
    try {
      expect(store.file).toBe(file);
      expect(existsSync(file)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('keeps committed data across close and reopen, and migrates only once', () => {
    const dataDir = temp.dir();
    const first = openStore({ dataDir });
    const run = createRun(first.db, { skillId: 'mousepad.save_as', args: { path: '/tmp/a.txt' } });
    setSetting(first.db, 'defaultApps', { TextEditor: 'mousepad' });
    first.close();
    first.close(); // closing twice is harmless

    const second = temp.open({}, dataDir);
    expect(second.migrations).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION, applied: [] });
    expect(getRun(second.db, run.id)?.args).toEqual({ path: '/tmp/a.txt' });
    expect(getSetting(second.db, 'defaultApps')).toEqual({ TextEditor: 'mousepad' });
  });

  it('passes nativeBinding through to better-sqlite3 and explains a wrong addon', () => {
    const bogus = join(temp.dir(), 'better_sqlite3.node');
    writeFileSync(bogus, 'not an ELF file');
    expect(() => openStore({ dataDir: temp.dir(), nativeBinding: bogus })).toThrow(
      expect.objectContaining({
        code: 'store.native_binding',
        message: expect.stringMatching(/Cannot load better-sqlite3's native addon from .*better_sqlite3\.node in Node .*Rebuild it/),
      }),
    );
  });

  it('opens with an explicit nativeBinding that matches this runtime', () => {
    const addon = join(process.cwd(), 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const store = temp.open({ nativeBinding: addon });
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  it('reports a data dir that cannot be created', () => {
    const file = join(temp.dir(), 'a-file');
    writeFileSync(file, '');
    expect(() => openStore({ dataDir: join(file, 'data') })).toThrow(
      expect.objectContaining({ code: 'store.open_failed', message: expect.stringMatching(/--data-dir/) }),
    );
  });

  it('rejects a negative busy timeout with what it got', () => {
    expect(() => openStore({ dataDir: temp.dir(), busyTimeoutMs: -3 })).toThrow(
      'Expected `busyTimeoutMs` to be a non-negative integer, got `-3`',
    );
  });
});
