import { evaluateArithmetic } from '../arithmetic';
import type { MethodModel, Pick } from './types';

/**
 * An expression of the Calculator domain (+ - * /, parentheses, sqrt) with a result every
 * calculator shows exactly: integers, halves and quarters, square roots of perfect squares.
 */
function expression(pick: Pick): string {
  const n = () => pick([2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 24, 36, 48, 99, 125, 398]);
  const shapes: (() => string)[] = [
    () => `${n()} + ${n()}`,
    () => `${n()} - ${n()}`,
    () => `${n()} * ${n()}`,
    () => `${n()} * 4 / ${pick([2, 4, 8])}`,
    () => `(${n()} + ${n()}) * ${n()}`,
    () => `${n()} - ${n()} * ${n()}`,
    () => `sqrt(${pick([4, 9, 16, 25, 36, 49, 64, 81, 144, 169])}) + ${n()}`,
    () => `${n()} / 4`,
  ];
  return pick(shapes)();
}

/** The Calculator interface: what `evaluate` returns is the expression's value. */
export const CALCULATOR_MODELS: Record<string, MethodModel> = {
  'Calculator.evaluate': {
    bind: (_w, _ctx, pick) => ({ expression: expression(pick) }),
    apply: (_w, _ctx, a) => ({ result: evaluateArithmetic(String(a.expression)) }),
  },
};
