import type { Invocation, ProgramModel } from './commands';
import { lit, names } from './effects';
import { optionValues, parseOptions } from './options';
import type { Word } from './types';

/**
 * sed and awk carry programs of their own that can run commands and write files (sed's `e`
 * command and `s///e` flag, `w`; awk's `system()`, pipes, `print > file`, gawk's `/inet/`).
 * Their programs are parsed here; what cannot be parsed fails closed.
 */

interface ProgramEffects {
  reads: string[];
  writes: string[];
  /** Commands run: their text, or undefined when only known at run time. */
  runs: (string | undefined)[];
  sends: boolean;
  error?: string;
}

/** Parses a GNU sed script for its commands that touch files or run programs. */
export function scanSed(script: string): ProgramEffects {
  const fx: ProgramEffects = { reads: [], writes: [], runs: [], sends: false };
  let i = 0;
  const s = script;
  const toEol = () => {
    const end = s.indexOf('\n', i);
    const text = s.slice(i, end < 0 ? s.length : end);
    i = end < 0 ? s.length : end + 1;
    return text;
  };
  const delimited = (count: number): boolean => {
    const d = s[i++];
    if (!d || d === '\n' || d === '\\') return false;
    for (let part = 0; part < count; part++) {
      for (;;) {
        const c = s[i++];
        if (c === undefined || (c === '\n' && part === 0)) return false;
        if (c === '\\') i++;
        else if (c === d) break;
      }
    }
    return true;
  };
  const address = (): boolean => {
    if (/\d/.test(s[i] ?? '')) while (/[\d~]/.test(s[i] ?? '')) i++;
    else if (s[i] === '$') i++;
    else if (s[i] === '/' || s[i] === '\\') {
      if (s[i] === '\\') i++;
      if (!delimited(1)) return false;
      while (/[IM]/.test(s[i] ?? '')) i++;
    }
    return true;
  };
  while (i < s.length) {
    while (/[\s;]/.test(s[i] ?? '')) i++;
    if (i >= s.length) break;
    if (s[i] === '#') {
      toEol();
      continue;
    }
    if (!address()) return { ...fx, error: 'unterminated address' };
    if (s[i] === ',') {
      i++;
      if (/[+~]/.test(s[i] ?? '')) i++;
      if (!address()) return { ...fx, error: 'unterminated address' };
    }
    while (/[\s!]/.test(s[i] ?? '')) i++;
    const cmd = s[i++];
    if (cmd === undefined) break;
    if ('{}=dDgGhHnNpPxzF'.includes(cmd)) continue;
    if ('lLqQ'.includes(cmd)) {
      while (/[\d ]/.test(s[i] ?? '')) i++;
      continue;
    }
    if ('aic'.includes(cmd)) {
      // Text up to an unescaped newline.
      while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
      continue;
    }
    if ('btT:v'.includes(cmd)) {
      while (i < s.length && !/[;\n]/.test(s[i]!)) i++;
      continue;
    }
    if ('rRwW'.includes(cmd)) {
      const file = toEol().trim();
      (cmd === 'r' || cmd === 'R' ? fx.reads : fx.writes).push(file);
      continue;
    }
    if (cmd === 'e') {
      const command = toEol().trim();
      fx.runs.push(command || undefined);
      continue;
    }
    if (cmd === 'y') {
      if (!delimited(2)) return { ...fx, error: 'unterminated y command' };
      continue;
    }
    if (cmd === 's') {
      if (!delimited(2)) return { ...fx, error: 'unterminated s command' };
      while (/[gpiImMe\d]/.test(s[i] ?? '')) if (s[i++] === 'e') fx.runs.push(undefined);
      if (s[i] === 'w') {
        i++;
        fx.writes.push(toEol().trim());
      }
      continue;
    }
    return { ...fx, error: `unknown sed command \`${cmd}\`` };
  }
  return fx;
}

/** Tokenizes an awk program just enough to find `system()`, pipes, redirections, `getline <` and `/inet/` files. */
export function scanAwk(program: string): ProgramEffects {
  const fx: ProgramEffects = { reads: [], writes: [], runs: [], sends: false };
  type T = { t: 'str' | 'name' | 'op' | 'num' | 'nl'; v: string };
  const toks: T[] = [];
  let i = 0;
  const s = program;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\n' || c === ';') {
      toks.push({ t: 'nl', v: c });
      i++;
    } else if (/\s/.test(c) || (c === '\\' && s[i + 1] === '\n')) i += c === '\\' ? 2 : 1;
    else if (c === '#') while (i < s.length && s[i] !== '\n') i++;
    else if (c === '"') {
      let v = '';
      for (i++; i < s.length && s[i] !== '"'; i++) v += s[i] === '\\' ? s[++i] : s[i];
      if (i >= s.length) return { ...fx, error: 'unterminated string' };
      i++;
      toks.push({ t: 'str', v });
    } else if (c === '/' && !/^(name|num|str)$|^[)\]$]$/.test(toks.at(-1)?.t === 'op' ? toks.at(-1)!.v : (toks.at(-1)?.t ?? ''))) {
      // A regular expression literal (not a division: nothing that ends an operand precedes it).
      for (i++; i < s.length && s[i] !== '/'; i++) if (s[i] === '\\') i++;
      if (i >= s.length) return { ...fx, error: 'unterminated regular expression' };
      i++;
      toks.push({ t: 'num', v: 're' });
    } else if (/^@?[A-Za-z_]/.test(s.slice(i, i + 2))) {
      const m = /^@?[A-Za-z_]\w*/.exec(s.slice(i))!;
      toks.push({ t: 'name', v: m[0] });
      i += m[0].length;
    } else if (/\d/.test(c)) {
      const m = /^[\d.]+([eE][-+]?\d+)?/.exec(s.slice(i))!;
      toks.push({ t: 'num', v: m[0] });
      i += m[0].length;
    } else {
      const m = /^(\|&|\|\||&&|>>|>=|<=|==|!=|\+\+|--|[-+*/%^!<>|?:,=(){}[\]$~])/.exec(s.slice(i));
      toks.push({ t: 'op', v: m ? m[0] : c });
      i += m ? m[0].length : 1;
    }
  }
  const strOr = (t: T | undefined) => (t?.t === 'str' ? t.v : undefined);
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.t === 'str' && /^\/inet/.test(t.v)) fx.sends = true;
    if (t.t === 'name' && /^@(include|load|namespace)$/.test(t.v) && t.v !== '@namespace') return { ...fx, error: `\`${t.v}\` loads code` };
    if (t.t === 'name' && t.v === 'system' && toks[k + 1]?.v === '(') {
      const arg = toks[k + 2];
      fx.runs.push(toks[k + 3]?.v === ')' ? strOr(arg) : undefined);
    }
    if (t.t === 'op' && (t.v === '|' || t.v === '|&')) {
      if (t.v === '|&') return { ...fx, error: 'a coprocess (`|&`)' };
      // `"cmd" | getline` (command on the left) or `print ... | "cmd"` (on the right).
      fx.runs.push(toks[k + 1]?.v === 'getline' ? strOr(toks[k - 1]) : strOr(toks[k + 1]));
    }
    if (t.t === 'name' && t.v === 'getline') {
      const lt = toks[k + 1]?.v === '<' ? k + 1 : toks[k + 2]?.v === '<' ? k + 2 : -1;
      if (lt > 0) fx.reads.push(strOr(toks[lt + 1]) ?? '\u0000');
    }
    if (t.t === 'name' && (t.v === 'print' || t.v === 'printf')) {
      let depth = 0;
      for (let j = k + 1; j < toks.length && toks[j]!.t !== 'nl' && !(depth === 0 && toks[j]!.v === '}'); j++) {
        const v = toks[j]!.v;
        if (v === '(') depth++;
        if (v === ')') depth--;
        if (depth === 0 && (v === '>' || v === '>>')) fx.writes.push(strOr(toks[j + 1]) ?? '\u0000');
      }
    }
  }
  return fx;
}

function apply(inv: Invocation, fx: ProgramEffects, what: string): void {
  if (fx.error) return inv.fail(`the ${what} program cannot be analysed: ${fx.error}`);
  for (const r of fx.reads) inv.touch('read', r === '\u0000' ? { text: r, dynamic: true } : lit(r));
  for (const w of fx.writes) inv.touch('write', w === '\u0000' ? { text: w, dynamic: true } : lit(w));
  if (fx.sends) inv.emit('web.post', { kind: 'unknown', hint: `${what} /inet network file` });
  for (const r of fx.runs) {
    if (r === undefined) inv.fail(`the ${what} program runs a command only known at run time`);
    else inv.runCode(lit(r), 'sh');
  }
}

const sed: ProgramModel = (inv) => {
  // `-i[SUFFIX]` and `--in-place[=SUFFIX]` take an optional suffix glued on.
  const args = inv.args.map((w) =>
    !w.dynamic && /^-[nErsuzl]*i/.test(w.text)
      ? lit(w.text.replace(/i.*$/, 'i'))
      : !w.dynamic && /^--in-place=/.test(w.text)
        ? lit('--in-place')
        : w,
  );
  const p = parseOptions(args, {
    value: names('e f l expression file line-length'),
    flag: names(
      'n E r s u z i quiet silent regexp-extended separate unbuffered null-data in-place posix debug sandbox follow-symlinks version help',
    ),
  });
  if (p.unknown.length || p.dynamicOptions.length) return inv.fail('`sed` is given options this analysis does not read');
  if (optionValues(p, 'f', 'file').length) return inv.fail('`sed -f` reads its program from a file');
  const scripts = optionValues(p, 'e', 'expression');
  const operands = [...p.operands];
  if (scripts.length === 0 && operands.length) scripts.push(operands.shift()!);
  if (scripts.some((w) => w.dynamic)) return inv.fail('the sed program is only known at run time');
  apply(inv, scanSed(scripts.map((w) => w.text).join('\n')), 'sed');
  const inPlace = p.options.some((o) => o.name === 'i' || o.name === 'in-place');
  for (const f of operands) {
    inv.touch('read', f);
    if (inPlace) inv.touch('write', f);
  }
};

const awk: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, {
    value: names('F v f e i l E field-separator assign file source include load exec'),
    flag: names(
      'b c C g M N O P r s S t V characters-as-bytes traditional posix re-interval sandbox lint bignum use-lc-numeric optimize no-optimize version help',
    ),
  });
  if (p.unknown.length || p.dynamicOptions.length) return inv.fail(`\`${inv.name}\` is given options this analysis does not read`);
  if (optionValues(p, 'f', 'file', 'i', 'include', 'l', 'load', 'E', 'exec').length)
    return inv.fail(`\`${inv.name}\` loads its program or an extension from a file`);
  const programs = optionValues(p, 'e', 'source');
  const operands = [...p.operands];
  if (programs.length === 0 && operands.length) programs.push(operands.shift()!);
  if (programs.some((w) => w.dynamic)) return inv.fail(`the ${inv.name} program is only known at run time`);
  apply(inv, scanAwk(programs.map((w) => w.text).join('\n')), inv.name);
  operands.filter((w) => w.dynamic || !/^[A-Za-z_]\w*=/.test(w.text)).forEach((w) => inv.touch('read', w));
};

const SEARCH_FLAGS = names(
  'i v c l L n h H o q s r R w x E F P G z Z a b u U T y I N S j ignore-case invert-match count files-with-matches files-without-match line-number no-filename with-filename only-matching quiet silent no-messages recursive dereference-recursive word-regexp line-regexp extended-regexp fixed-strings perl-regexp basic-regexp null null-data text byte-offset initial-tab smart-case hidden no-ignore follow',
);

/** Pattern searchers: the first operand is the pattern unless `-e`/`-f` gives it. */
function searcher(value: string[], exec: string[] = []): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, { value, flag: SEARCH_FLAGS });
    if (p.dynamicOptions.length) inv.touch('read', { text: '\u0000', dynamic: true });
    const pre = p.options.find((o) => exec.includes(o.name));
    if (pre) return inv.fail(`\`${inv.name} --${pre.name}\` runs a program on each file`);
    optionValues(p, 'f', 'file').forEach((w) => inv.touch('read', w));
    const patternGiven = p.options.some((o) => ['e', 'f', 'regexp', 'file'].includes(o.name));
    // Unknown options may take a value: then every operand counts as a file read.
    const files = patternGiven || p.unknown.length ? p.operands : p.operands.slice(1);
    files.forEach((w) => inv.touch('read', w));
    if (files.length === 0 && p.options.some((o) => /^(r|R|recursive|dereference-recursive)$/.test(o.name))) inv.touch('read', lit('.'));
  };
}

const GREP_VALUE = names(
  'e f m A B C d D regexp file max-count after-context before-context context include exclude exclude-dir exclude-from label binary-files devices directories color colour',
);

export const TEXT_PROGRAMS: Record<string, ProgramModel> = {
  sed,
  gsed: sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  grep: searcher(GREP_VALUE),
  egrep: searcher(GREP_VALUE),
  fgrep: searcher(GREP_VALUE),
  zgrep: searcher(GREP_VALUE),
  rg: searcher(
    names(
      'e f g glob iglob t type T type-not m max-count A B C r replace j threads M max-columns E encoding regexp file pre pre-glob sort sortr max-depth d color colors ignore-file path-separator type-add',
    ),
    ['pre'],
  ),
};

/** `jq FILTER [FILES]`, `jq -f PROGRAM [FILES]`, `--rawfile NAME FILE`: jq runs no programs. */
export const jq: ProgramModel = (inv) => {
  const a = inv.args;
  const files: Word[] = [];
  let filter = false;
  for (let i = 0; i < a.length; i++) {
    const t = a[i]!.text;
    if (/^--(arg|argjson)$/.test(t)) i += 2;
    else if (/^--(rawfile|slurpfile)$/.test(t)) {
      if (a[i + 2]) inv.touch('read', a[i + 2]!);
      i += 2;
    } else if (/^(-f|--from-file)$/.test(t)) {
      if (a[i + 1]) inv.touch('read', a[i + 1]!);
      filter = true;
      i++;
    } else if (/^(-L|--indent|--tab)$/.test(t) && t !== '--tab') i++;
    else if (t.startsWith('-') && !a[i]!.dynamic) continue;
    else if (!filter) filter = true;
    else files.push(a[i]!);
  }
  files.forEach((w) => inv.touch('read', w));
};
