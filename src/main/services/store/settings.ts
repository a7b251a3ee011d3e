import { toJson } from './json';
import { prepared, type StoreDb } from './statements';
import { expectInteger, expectText } from './validate';

/** A stored setting. */
export interface SettingRow {
  key: string;
  value: unknown;
  updatedAt: number;
}

/**
 * A setting's value, or undefined when unset. Pass `parse` (a zod schema's `parse`) to type and
 * check it: the file may have been written by another version or edited by hand.
 * @example getSetting(db, 'defaultApps', DefaultAppsSchema.parse)
 */
export function getSetting<T = unknown>(db: StoreDb, key: string, parse?: (value: unknown) => T): T | undefined {
  const row = prepared<{ value_json: string }>(db, 'SELECT value_json FROM settings WHERE key = ?').get(key);
  if (!row) return undefined;
  const value: unknown = JSON.parse(row.value_json);
  return parse ? parse(value) : (value as T);
}

/** Sets a setting to any JSON value. */
export function setSetting(db: StoreDb, key: string, value: unknown, updatedAt: number = Date.now()): void {
  expectText(key, 'key');
  expectInteger(updatedAt, 'updatedAt');
  prepared(
    db,
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  ).run(key, toJson(value, key), updatedAt);
}

/** Removes a setting. */
export function deleteSetting(db: StoreDb, key: string): 'deleted' | 'absent' {
  return prepared(db, 'DELETE FROM settings WHERE key = ?').run(key).changes > 0 ? 'deleted' : 'absent';
}

/** Every setting, sorted by key. */
export function listSettings(db: StoreDb): SettingRow[] {
  return prepared<{ key: string; value_json: string; updated_at: number }>(
    db,
    'SELECT key, value_json, updated_at FROM settings ORDER BY key',
  )
    .all()
    .map((r) => ({ key: r.key, value: JSON.parse(r.value_json) as unknown, updatedAt: r.updated_at }));
}
