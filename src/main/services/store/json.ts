import { createHash } from 'node:crypto';
import { describeValue } from '../../../shared/errors';
import { StoreError } from './errors';

/**
 * Canonical JSON (RFC 8785 style): object keys sorted by UTF-16 code units, no whitespace,
 * ECMAScript number and string formatting. The same value always gives the same bytes,
 * which is what a hash chain needs; `JSON.stringify` alone depends on key insertion order.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw invalid('a finite number', value);
      return JSON.stringify(value);
    case 'object': {
      const withJson = value as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') return canonicalJson(withJson.toJSON());
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
      const entries = Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
      return `{${entries.join(',')}}`;
    }
    default:
      throw invalid('a JSON value', value);
  }
}

/** SHA-256 of a string as lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Serialises a value for a `*_json` column; rejects what JSON cannot carry instead of storing `undefined`. */
export function toJson(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new StoreError(
      'store.invalid_argument',
      `Expected \`${what}\` to be JSON-serialisable, got ${describeValue(value)}: ${(err as Error).message}`,
    );
  }
  if (text === undefined)
    throw new StoreError('store.invalid_argument', `Expected \`${what}\` to be a JSON value, got ${describeValue(value)}`);
  return text;
}

/** Parses a nullable `*_json` column. */
export function fromJson<T = unknown>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

function invalid(expected: string, value: unknown): StoreError {
  return new StoreError('store.invalid_argument', `Expected ${expected} in canonical JSON, got ${describeValue(value)}`);
}
