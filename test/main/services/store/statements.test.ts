import { describe, expect, it } from 'vitest';
import { whereClause } from '../../../../src/main/services/store/statements';

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
});
