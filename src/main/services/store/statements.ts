import type Database from 'better-sqlite3';

/** The better-sqlite3 connection every query function takes first. */
export type StoreDb = Database.Database;

// Preparing a statement costs a parse and plan; hot paths (audit appends, step journaling)
// run thousands of times, so each connection keeps its statements. A WeakMap lets a closed,
// dropped connection take its cache with it.
const statementCache = new WeakMap<StoreDb, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, prepared once per connection. */
export function prepared<Row = unknown>(db: StoreDb, sql: string): Database.Statement<unknown[], Row> {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt as Database.Statement<unknown[], Row>;
}

const transactionCache = new WeakMap<StoreDb, Map<string, Database.Transaction<(...args: never[]) => unknown>>>();

/** `db.transaction(fn)` built once per connection and `key` (the wrapper itself has a cost). */
export function cachedTransaction<F extends (...args: never[]) => unknown>(db: StoreDb, key: string, fn: F): Database.Transaction<F> {
  let cache = transactionCache.get(db);
  if (!cache) {
    cache = new Map();
    transactionCache.set(db, cache);
  }
  let tx = cache.get(key);
  if (!tx) {
    tx = db.transaction(fn);
    cache.set(key, tx);
  }
  return tx as unknown as Database.Transaction<F>;
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
