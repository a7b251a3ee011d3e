import { z } from 'zod';
import { describeValue } from '../errors';
import { editDistance } from '../text';

/**
 * The key vocabulary of `key` and `hotkey` primitives: canonical key names plus single printable
 * ASCII characters. Skill files are checked against it when they load, so a misspelt key is a
 * load error with its file and line, not a failure in the middle of a run.
 */
export const NAMED_KEYS = [
  'Control',
  'Shift',
  'Alt',
  'Super',
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'Insert',
  'Space',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
  'Menu',
  'PrintScreen',
  'CapsLock',
] as const;

export type NamedKey = (typeof NAMED_KEYS)[number];
/** A named key or a single printable ASCII character. */
export type KeyName = NamedKey | string;

/** True when `key` is a named key or one printable ASCII character. */
export function isKeyName(key: string): boolean {
  return (NAMED_KEYS as readonly string[]).includes(key) || /^[\x21-\x7e]$/.test(key);
}

/** Why `key` is not a key name, with the closest names; undefined when it is one. */
export function keyNameProblem(key: string): string | undefined {
  if (isKeyName(key)) return undefined;
  const lower = key.toLowerCase();
  const close = NAMED_KEYS.filter((k) => k.toLowerCase() === lower || editDistance(k.toLowerCase(), lower) <= 2);
  const hint = close.length ? `; did you mean ${close.map((k) => `\`${k}\``).join(' or ')}?` : '';
  return `Expected a key name (${NAMED_KEYS.slice(0, 8).join(', ')}, ... F1-F12) or one printable character, got ${describeValue(key)}${hint}`;
}

/**
 * A key field of a primitive: a key name, or a `${arg}` template whose value is checked when the
 * step runs (the argument's own domain should constrain it).
 */
export const KeySchema = z
  .string()
  .min(1)
  .superRefine((key, ctx) => {
    if (key.includes('${')) return;
    const problem = keyNameProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
