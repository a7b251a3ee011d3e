import type { Word } from './types';

/**
 * Command-line option parsing for the program models: which options a program was given, with
 * their values, and its operands. Getopt rules: `-abc` bundles short flags, a short option that
 * takes a value takes the rest of its bundle or the next word, `--name=value` or `--name value`,
 * `--` ends options. With `abbrev`, a long option may be any unambiguous prefix (getopt_long:
 * `wget --post-f=x` is `--post-file=x`), so models never miss an option spelled short.
 */

export interface OptionSpec {
  /** Short letters and long names that take a value (`o`, `output`). */
  value?: readonly string[];
  /** Short letters and long names that take no value. */
  flag?: readonly string[];
  /** Long options may be abbreviated to an unambiguous prefix. @default false */
  abbrev?: boolean;
  /** Options stop at the first operand (`timeout 5 cmd -x`: `-x` is the command's). @default false */
  stopAtOperand?: boolean;
  /** Single-dash long options (`-name value`, find/openssl style): `-xyz` is one option, not a bundle. @default false */
  singleDashLong?: boolean;
}

export interface ParsedOption {
  /** The canonical name: a short letter or a long name (without dashes). */
  name: string;
  value?: Word;
  /** The word as written. */
  raw: Word;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: Word[];
  /** Options the spec does not know (as written). */
  unknown: Word[];
  /** Words only known at run time that may be options (or several words). */
  dynamicOptions: Word[];
  /** Index in the input where operands start when `stopAtOperand` (the rest is a command). */
  rest: number;
}

/** Parses `args` against `spec`. */
export function parseOptions(args: readonly Word[], spec: OptionSpec): ParsedArgs {
  const value = new Set(spec.value ?? []);
  const flag = new Set(spec.flag ?? []);
  const out: ParsedArgs = { options: [], operands: [], unknown: [], dynamicOptions: [], rest: args.length };
  const longName = (n: string): string | undefined => {
    if (value.has(n) || flag.has(n)) return n;
    if (!spec.abbrev) return undefined;
    const hits = [...value, ...flag].filter((k) => k.length > 1 && k.startsWith(n));
    return hits.length === 1 ? hits[0] : undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (!a.dynamic && t === '--') {
      out.operands.push(...args.slice(i + 1));
      if (spec.stopAtOperand) out.rest = i + 1;
      break;
    }
    if (a.many || t.startsWith('\u0000') || (a.dynamic && t.startsWith('-'))) {
      // `"$X"` may be `-o/etc/x`, or several words: the model decides what that means.
      out.dynamicOptions.push(a);
      if (spec.stopAtOperand) {
        out.rest = i;
        break;
      }
      continue;
    }
    if (!t.startsWith('-') || t === '-') {
      if (spec.stopAtOperand) {
        out.rest = i;
        break;
      }
      out.operands.push(a);
      continue;
    }
    const long = t.startsWith('--') || spec.singleDashLong;
    if (long) {
      const body = t.replace(/^--?/, '');
      const eq = body.indexOf('=');
      const written = eq < 0 ? body : body.slice(0, eq);
      const name = longName(written) ?? (spec.singleDashLong && written.length === 1 ? longName(written) : undefined);
      if (!name) {
        out.unknown.push(a);
        continue;
      }
      if (value.has(name)) {
        const v = eq >= 0 ? { text: body.slice(eq + 1), dynamic: a.dynamic } : args[++i];
        out.options.push({ name, raw: a, ...(v && { value: v }) });
      } else out.options.push({ name, raw: a });
      continue;
    }
    // A bundle of short options.
    for (let k = 1; k < t.length; k++) {
      const c = t[k]!;
      if (value.has(c)) {
        const restText = t.slice(k + 1);
        const v = restText ? { text: restText.replace(/^=/, ''), dynamic: a.dynamic } : args[++i];
        out.options.push({ name: c, raw: a, ...(v && { value: v }) });
        break;
      }
      if (flag.has(c)) out.options.push({ name: c, raw: a });
      else {
        out.unknown.push(a);
        break;
      }
    }
  }
  return out;
}

/** The values given to any of `names`. */
export function optionValues(p: ParsedArgs, ...names: string[]): Word[] {
  return p.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}

/** Whether any of `names` was given. */
export function hasOption(p: ParsedArgs, ...names: string[]): boolean {
  return p.options.some((o) => names.includes(o.name));
}
