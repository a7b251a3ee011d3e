import { z } from 'zod';
import { describeValue } from '../errors';
import { firstUntypable } from '../text';
import { INTERPRETERS } from './interpreters';

/**
 * Feasible domains of skill arguments (CUA-Skill): every argument is either finite (an enum,
 * or a choice list queried at run time) or open with constraints. The configurator and the
 * CLI validate against these; the task synthesizer samples from them.
 */

const common = {
  description: z.string().optional(),
  /** Whether the argument may be omitted. @default false */
  optional: z.boolean().optional(),
  /** Sample values; required where no sample can be derived (pattern strings, choices). */
  examples: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
};

export const EnumArgSchema = z
  .object({
    type: z.literal('enum'),
    values: z.array(z.union([z.string(), z.number()])).min(1),
    default: z.union([z.string(), z.number()]).optional(),
    ...common,
  })
  .strict();

/** A finite domain whose members are only known at run time. */
export const ChoiceSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('directory'), path: z.string(), pattern: z.string().optional() }).strict(),
  z.object({ kind: z.literal('windows'), app: z.string().optional() }).strict(),
  z
    .object({
      kind: z.literal('command'),
      interpreter: z.enum(INTERPRETERS),
      script: z.string(),
    })
    .strict(),
]);

export const ChoiceArgSchema = z
  .object({
    type: z.literal('choice'),
    source: ChoiceSourceSchema,
    default: z.string().optional(),
    ...common,
  })
  .strict();

export const StringArgSchema = z
  .object({
    type: z.literal('string'),
    pattern: z.string().optional(),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().positive().optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict()
  .refine((s) => !s.pattern || (s.examples?.length ?? 0) > 0, {
    message: 'a string argument with a `pattern` needs `examples` so that samples can be generated',
    path: ['examples'],
  });

export const TextArgSchema = z
  .object({
    type: z.literal('text'),
    maxLength: z.number().int().positive().optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict();

export const NumberArgSchema = z
  .object({
    type: z.literal('number'),
    min: z.number().optional(),
    max: z.number().optional(),
    integer: z.boolean().optional(),
    default: z.number().optional(),
    ...common,
  })
  .strict();

export const BooleanArgSchema = z
  .object({
    type: z.literal('boolean'),
    default: z.boolean().optional(),
    ...common,
  })
  .strict();

export const PathArgSchema = z
  .object({
    type: z.literal('path'),
    /** What the path names. @default 'file' */
    target: z.enum(['file', 'directory', 'any']).optional(),
    /** @default true */
    absolute: z.boolean().optional(),
    /** The path must already exist when the skill starts. @default false */
    mustExist: z.boolean().optional(),
    /** Allowed extensions, with the dot: ['.txt']. */
    extensions: z.array(z.string().regex(/^\.[A-Za-z0-9]+$/)).optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict();

/** A calendar date, `YYYY-MM-DD` (ISO 8601), optionally within [min, max]. */
export const DateArgSchema = z
  .object({
    type: z.literal('date'),
    min: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    max: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict();

/** A time of day on a 24-hour clock, `HH:MM` (or `HH:MM:SS` with `seconds: true`). */
export const TimeArgSchema = z
  .object({
    type: z.literal('time'),
    /** Whether seconds are given (`HH:MM:SS`). @default false */
    seconds: z.boolean().optional(),
    default: z.string().optional(),
    ...common,
  })
  .strict();

/** What a list holds: one scalar domain per item (paths, names, numbers, enum members, dates). */
const ListItemSchema = z.union([EnumArgSchema, StringArgSchema, NumberArgSchema, PathArgSchema, DateArgSchema, TimeArgSchema]);

/**
 * Several values of one domain, in order: files to copy, items of a bulleted list. From a command
 * line, a JSON array (`["/a","/b"]`) or one item per line.
 */
export const ListArgSchema = z
  .object({
    type: z.literal('list'),
    items: ListItemSchema,
    /** @default 1 */
    minItems: z.number().int().nonnegative().optional(),
    /** @default 100 */
    maxItems: z.number().int().positive().max(1000).optional(),
    default: z.array(z.union([z.string(), z.number()])).optional(),
    description: z.string().optional(),
    optional: z.boolean().optional(),
    examples: z.array(z.array(z.union([z.string(), z.number()]))).optional(),
  })
  .strict();

export const ArgSpecSchema = z.union([
  EnumArgSchema,
  ChoiceArgSchema,
  StringArgSchema,
  TextArgSchema,
  NumberArgSchema,
  BooleanArgSchema,
  PathArgSchema,
  DateArgSchema,
  TimeArgSchema,
  ListArgSchema,
]);
export type ArgSpec = z.infer<typeof ArgSpecSchema>;
export type ArgType = ArgSpec['type'];
export type ListItemSpec = z.infer<typeof ListItemSchema>;

export const ArgSpecsSchema = z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'argument names are snake_case'), ArgSpecSchema);
export type ArgSpecs = z.infer<typeof ArgSpecsSchema>;

export type ArgValue = string | number | boolean | (string | number)[];
export type ArgValues = Record<string, ArgValue>;

export type ArgCheck = { ok: true; value: ArgValue } | { ok: false; message: string };

/** Facts a domain check needs from outside: run-time choices, the path style of the target platform. */
export interface DomainContext {
  /** Members of `choice` domains, resolved by the executor before validation. */
  choices?: Record<string, readonly string[]>;
  /** Path style of the platform the skill runs on. @default 'posix' */
  pathStyle?: 'posix' | 'win32';
}

/** Checks (and coerces, for strings from a command line) one argument against its domain. */
export function checkArg(name: string, spec: ArgSpec, raw: unknown, ctx: DomainContext = {}): ArgCheck {
  const fail = (expected: string): ArgCheck => ({
    ok: false,
    message: `Expected \`${name}\` to be ${expected}, got ${describeValue(raw)}`,
  });
  switch (spec.type) {
    case 'enum': {
      // As said in words too: "document start" is document_start.
      const loose = (v: unknown) =>
        String(v)
          .toLowerCase()
          .replace(/[\s-]+/g, '_');
      const hit = spec.values.find((v) => v === raw || String(v) === String(raw)) ?? spec.values.find((v) => loose(v) === loose(raw));
      return hit === undefined ? fail(`one of ${spec.values.map((v) => `\`${v}\``).join(', ')}`) : { ok: true, value: hit };
    }
    case 'choice': {
      const members = ctx.choices?.[name];
      if (typeof raw !== 'string') return fail('a string');
      if (!members) return { ok: true, value: raw };
      return members.includes(raw) ? { ok: true, value: raw } : fail(`one of the current choices (${members.slice(0, 10).join(', ')})`);
    }
    case 'string': {
      if (typeof raw !== 'string') return fail('a string');
      if (spec.minLength !== undefined && raw.length < spec.minLength) return fail(`at least ${spec.minLength} characters long`);
      if (spec.maxLength !== undefined && raw.length > spec.maxLength) return fail(`at most ${spec.maxLength} characters long`);
      if (spec.pattern && !new RegExp(spec.pattern, 'u').test(raw)) return fail(`a string matching /${spec.pattern}/`);
      return { ok: true, value: raw };
    }
    case 'text': {
      if (typeof raw !== 'string') return fail('text');
      if (spec.maxLength !== undefined && raw.length > spec.maxLength) return fail(`text of at most ${spec.maxLength} characters`);
      const bad = firstUntypable(raw);
      if (bad) return fail(`text without control characters other than tab and line breaks (${bad.name} at position ${bad.index})`);
      return { ok: true, value: raw };
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      const range = `${spec.integer ? 'an integer' : 'a number'}${spec.min !== undefined ? ` >= ${spec.min}` : ''}${spec.max !== undefined ? ` <= ${spec.max}` : ''}`;
      if (!Number.isFinite(n)) return fail(range);
      if (spec.integer && !Number.isInteger(n)) return fail(range);
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) return fail(range);
      return { ok: true, value: n };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return fail('`true` or `false`');
    }
    case 'date': {
      if (typeof raw !== 'string' || !isCalendarDate(raw)) return fail('a date `YYYY-MM-DD` that exists in the calendar');
      if ((spec.min && raw < spec.min) || (spec.max && raw > spec.max))
        return fail(`a date${spec.min ? ` from ${spec.min}` : ''}${spec.max ? ` until ${spec.max}` : ''}`);
      return { ok: true, value: raw };
    }
    case 'time': {
      const shape = spec.seconds ? /^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/ : /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
      if (typeof raw !== 'string' || !shape.test(raw)) return fail(`a 24-hour time \`${spec.seconds ? 'HH:MM:SS' : 'HH:MM'}\``);
      return { ok: true, value: raw };
    }
    case 'list': {
      const items = listItems(raw);
      if (!items) return fail('a list (a JSON array, or one item per line)');
      const [min, max] = [spec.minItems ?? 1, spec.maxItems ?? 100];
      if (items.length < min || items.length > max) return fail(`a list of ${min} to ${max} items (it has ${items.length})`);
      const out: (string | number)[] = [];
      for (const [i, item] of items.entries()) {
        const r = checkArg(`${name}[${i}]`, spec.items, item, ctx);
        if (!r.ok) return r;
        out.push(r.value as string | number);
      }
      return { ok: true, value: out };
    }
    case 'path': {
      if (typeof raw !== 'string' || raw.length === 0) return fail('a path');
      if (/[\0]/.test(raw)) return fail('a path without NUL characters');
      const style = ctx.pathStyle ?? 'posix';
      const absolute = style === 'win32' ? /^([A-Za-z]:[\\/]|\\\\)/.test(raw) : raw.startsWith('/');
      if ((spec.absolute ?? true) && !absolute) return fail(`an absolute ${style === 'win32' ? 'Windows' : 'POSIX'} path`);
      if (spec.extensions && !spec.extensions.some((e) => raw.toLowerCase().endsWith(e.toLowerCase()))) {
        return fail(`a path ending in ${spec.extensions.join(' or ')}`);
      }
      return { ok: true, value: raw };
    }
  }
}

/** A list's items: an array as given, a JSON array in a string, or a string's non-empty lines. */
function listItems(raw: unknown): unknown[] | undefined {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return undefined;
  if (raw.trimStart().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return raw.split(/\r?\n/).filter((line) => line.trim() !== '');
}

/** `YYYY-MM-DD` naming a real day (no 2023-02-30). */
function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}

export type ArgsCheck = { ok: true; values: ArgValues } | { ok: false; errors: string[] };

/** Checks a whole argument set: unknown names, missing required ones, defaults, each domain. */
export function checkArgs(specs: ArgSpecs, raw: Record<string, unknown>, ctx: DomainContext = {}): ArgsCheck {
  const errors: string[] = [];
  const values: ArgValues = {};
  for (const key of Object.keys(raw)) {
    // Own names only: `__proto__`, `constructor` or `toString` are not arguments of any skill.
    if (!Object.hasOwn(specs, key))
      errors.push(`Unknown argument \`${key}\`; expected one of: ${Object.keys(specs).join(', ') || '(none)'}`);
  }
  for (const [name, spec] of Object.entries(specs)) {
    const given = raw[name];
    if (given === undefined) {
      if (spec.default !== undefined) values[name] = spec.default;
      else if (!spec.optional) errors.push(`Missing argument \`${name}\` (${spec.type}${spec.description ? `: ${spec.description}` : ''})`);
      continue;
    }
    const res = checkArg(name, spec, given, ctx);
    if (res.ok) values[name] = res.value;
    else errors.push(res.message);
  }
  return errors.length ? { ok: false, errors } : { ok: true, values };
}

/** Tricky but legal free text, used when a text argument gives no examples. */
const TEXT_SAMPLES = ['hello world', 'Line 1\nLine 2', 'Symbols: ~!@#$%^&*()_+{}|:"<>?', 'tab\tseparated'];

/** A deterministic pseudo-random generator (mulberry32) so samples are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Sample values from a domain (the task synthesizer and dry-run tests use these).
 * Every sample satisfies `checkArg` for the same spec.
 */
export function sampleArg(spec: ArgSpec, rand: () => number, ctx: { tempDir: string; pathStyle?: 'posix' | 'win32' }): ArgValue {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  if (spec.examples?.length) return pick<ArgValue>(spec.examples);
  switch (spec.type) {
    case 'list': {
      const min = Math.max(spec.minItems ?? 1, 1);
      const max = Math.max(min, Math.min(spec.maxItems ?? 3, 3));
      const n = min + Math.floor(rand() * (max - min + 1));
      return Array.from({ length: n }, () => sampleArg(spec.items, rand, ctx) as string | number);
    }
    case 'date': {
      const lo = Date.parse(spec.min ?? '2020-01-01');
      const hi = Date.parse(spec.max ?? '2030-12-31');
      return new Date(lo + Math.floor(rand() * ((hi - lo) / 86_400_000 + 1)) * 86_400_000).toISOString().slice(0, 10);
    }
    case 'time': {
      const two = (n: number) => String(n).padStart(2, '0');
      const hm = `${two(Math.floor(rand() * 24))}:${two(Math.floor(rand() * 60))}`;
      return spec.seconds ? `${hm}:${two(Math.floor(rand() * 60))}` : hm;
    }
    case 'enum':
      return pick(spec.values);
    case 'choice':
      return spec.default ?? '';
    case 'string':
      return 'sample'.slice(0, spec.maxLength ?? 6).padEnd(spec.minLength ?? 0, 'x');
    case 'text':
      return pick(TEXT_SAMPLES).slice(0, spec.maxLength ?? Infinity);
    case 'number': {
      const lo = spec.min ?? 0;
      const hi = spec.max ?? lo + 100;
      const n = lo + rand() * (hi - lo);
      return spec.integer ? Math.min(hi, Math.max(lo, Math.round(n))) : n;
    }
    case 'boolean':
      return rand() < 0.5;
    case 'path': {
      const ext = spec.extensions?.[0] ?? (spec.target === 'directory' ? '' : '.txt');
      const sep = ctx.pathStyle === 'win32' ? '\\' : '/';
      return `${ctx.tempDir}${sep}skilldesk-sample-${Math.floor(rand() * 1e6)}${ext}`;
    }
  }
}
