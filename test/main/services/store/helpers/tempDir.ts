import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openStore, type OpenStoreOptions, type SqliteStore } from '../../../../../src/main/services/store';

/**
 * Per-test temp folders and stores on the real file system (never `:memory:`), closed and
 * removed after each test. Call once at the top of a test file.
 */
export function useTempStores(): { dir(): string; open(opts?: Partial<OpenStoreOptions>, dir?: string): SqliteStore } {
  const dirs: string[] = [];
  const stores: SqliteStore[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'skilldesk-store-'));
    dirs.push(d);
    return d;
  };
  return {
    dir,
    open(opts = {}, dataDir = dir()) {
      const store = openStore({ dataDir, ...opts } as OpenStoreOptions);
      stores.push(store);
      return store;
    },
  };
}
