import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { cachedTransaction, prepared, whereClause } from '../../../../src/main/services/store/statements';

describe('src/main/services/store/statements', () => {
  it('keeps the conditions whose value is defined, in order, with their values as parameters', () => {
    expect(
      whereClause([
        ['app = ?', 'notepad'],
        ['kind = ?', undefined],
        ['started_at < ?', 0],
      ]),
    ).toEqual({ sql: 'WHERE app = ? AND started_at < ?', params: ['notepad', 0] });
  });

  it('is empty when no filter is set, and keeps null as a value', () => {
    expect(whereClause([['app = ?', undefined]])).toEqual({ sql: '', params: [] });
    expect(whereClause([['app IS ?', null]])).toEqual({ sql: 'WHERE app IS ?', params: [null] });
  });

  it('prepares a statement and builds a transaction once per connection', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    try {
      expect(prepared(a, 'SELECT 1')).toBe(prepared(a, 'SELECT 1'));
      expect(prepared(a, 'SELECT 1')).not.toBe(prepared(b, 'SELECT 1'));
      const fn = () => 1;
      expect(cachedTransaction(a, 'one', fn)).toBe(cachedTransaction(a, 'one', fn));
      expect(cachedTransaction(a, 'one', fn)).not.toBe(cachedTransaction(b, 'one', fn));
    } finally {
      a.close();
      b.close();
    }
  });
});
