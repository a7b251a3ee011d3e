import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../src/main/services/store';

describe('src/main/services/store/json', () => {
  it('sorts keys at every depth and drops undefined members, as JSON does', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('formats numbers and strings like ECMAScript JSON (RFC 8785)', () => {
    expect(canonicalJson([1e21, 0.1, -0, 'é\n"', true])).toBe('[1e+21,0.1,0,"é\\n\\"",true]');
  });

  it('refuses values that JSON cannot represent faithfully', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(/finite number/);
    expect(() => canonicalJson(10n)).toThrow(/JSON value/);
  });
});
