/** Base error for SkillDesk: a stable `code` for programs and an actionable message for people. */
export class SkillDeskError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SkillDeskError';
  }
}

/** Describes a received value for error messages: `` `-3` (number) ``. */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  let shown: string;
  try {
    shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = String(value);
  }
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  return `\`${shown}\` (${type})`;
}

/** Exhaustiveness guard for discriminated unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new SkillDeskError('internal.unreachable', `Unexpected ${what}: ${describeValue(value)}`);
}
