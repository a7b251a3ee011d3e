import type Database from 'better-sqlite3';

/** The better-sqlite3 connection every query function takes first. */
export type StoreDb = Database.Database;

// Preparing a statement costs a parse and plan; hot paths (audit appends, step journaling)
// run thousands of times, so each connection keeps its statements (and transaction wrappers,
// which have a cost too). A WeakMap lets a closed, dropped connection take its caches with it.
const statementCache = new WeakMap<StoreDb, Map<string, Database.Statement>>();
const transactionCache = new WeakMap<StoreDb, Map<string, Database.Transaction<(...args: never[]) => unknown>>>();

function perConnection<T>(caches: WeakMap<StoreDb, Map<string, T>>, db: StoreDb, key: string, make: () => T): T {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/** The prepared statement for `sql` on `db`, prepared once per connection. */
export function prepared<Row = unknown>(db: StoreDb, sql: string): Database.Statement<unknown[], Row> {
  return perConnection(statementCache, db, sql, () => db.prepare(sql)) as Database.Statement<unknown[], Row>;
}

/** `db.transaction(fn)` built once per connection and `key` (the wrapper itself has a cost). */
export function cachedTransaction<F extends (...args: never[]) => unknown>(db: StoreDb, key: string, fn: F): Database.Transaction<F> {
  return perConnection(transactionCache, db, key, () => db.transaction(fn)) as unknown as Database.Transaction<F>;
}

/**
 * The WHERE clause of a filtered list: each condition whose value is defined is kept, its value
 * becoming the parameter. Only which filters are set varies the SQL text, so the statement cache
 * stays small.
 * @example whereClause([['app = ?', 'notepad'], ['kind = ?', undefined]]) // { sql: 'WHERE app = ?', params: ['notepad'] }
 */
export function whereClause(conditions: readonly (readonly [sql: string, value: unknown])[]): { sql: string; params: unknown[] } {
  const kept = conditions.filter(([, value]) => value !== undefined);
  return { sql: kept.length ? `WHERE ${kept.map(([sql]) => sql).join(' AND ')}` : '', params: kept.map(([, value]) => value) };
}
