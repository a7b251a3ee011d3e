import { describeValue } from '../../../shared/errors';
import { StoreError } from './errors';

// Queries are called from IPC handlers and the CLI with values that TypeScript never saw;
// these checks turn a bad value into an actionable error before SQLite gives a terse one.

/** Throws unless `value` is a non-empty string. */
export function expectText(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) throw bad(name, 'a non-empty string', value);
}

/** Throws unless `value` is absent or a non-empty string. */
export function expectOptionalText(value: unknown, name: string): asserts value is string | undefined | null {
  if (value !== undefined && value !== null) expectText(value, name);
}

/** Throws unless `value` is an integer >= `min` (epoch ms, sequence numbers, limits). */
export function expectInteger(value: unknown, name: string, min = 0): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw bad(name, min === 0 ? 'a non-negative integer' : `an integer >= ${min}`, value);
  }
}

/** Throws unless `value` is one of `allowed`. */
export function expectOneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): asserts value is T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw bad(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
}

function bad(name: string, expected: string, value: unknown): StoreError {
  return new StoreError('store.invalid_argument', `Expected \`${name}\` to be ${expected}, got ${describeValue(value)}`);
}
