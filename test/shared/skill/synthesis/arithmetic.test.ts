import { describe, expect, it } from 'vitest';
import { evaluateArithmetic } from '../../../../src/shared/skill/synthesis/arithmetic';

describe('src/shared/skill/synthesis/arithmetic', () => {
  it('evaluates the Calculator domain with the usual precedence', () => {
    expect(evaluateArithmetic('398 - 174 * sqrt(505)')).toBeCloseTo(398 - 174 * Math.sqrt(505), 12);
    expect(evaluateArithmetic('(1 + 2) * 3')).toBe(9);
    expect(evaluateArithmetic('10 / 4')).toBe(2.5);
    expect(evaluateArithmetic('2 - 3 - 4')).toBe(-5);
    expect(evaluateArithmetic('-(2 + 2) * sqrt(16)')).toBe(-16);
  });

  it('refuses what it cannot read instead of guessing', () => {
    expect(() => evaluateArithmetic('(1 + 2')).toThrow(/expected `\)`/);
    expect(() => evaluateArithmetic('2 2')).toThrow(/trailing `2`/);
  });
});
