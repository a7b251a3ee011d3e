import mvdan, { type ShNode } from 'mvdan-sh';
import type { BashScope } from './bashVars';
import { wordLiteral } from './bashVars';
import { DYNAMIC, DYNAMIC_MANY, lit } from './effects';
import type { Word } from './types';

/**
 * Bash words as the shell expands them: `$'\x63url'` decoded, `{curl,-d,@f}` brace-expanded,
 * unquoted expansions split into fields (an unknown unquoted value may be several words, options
 * included), `"$@"` as the script's arguments, `~` as `$HOME`. A glob in the command name, or a
 * value only known at run time where it decides what runs, makes the word dynamic.
 */

const syntax = mvdan.syntax;

export interface WordEnv {
  scope: BashScope;
  /** POSIX sh has no brace expansion. */
  braces: boolean;
  /** The folder of the script (`$(dirname "$0")`). */
  dir: string;
  /** Something in the word cannot be analysed (`${x@P}`, an indirect `${!x}` of an unknown name). */
  fail(reason: string): void;
}

interface Field {
  text: string;
  dynamic: boolean;
  many?: boolean;
  glob?: boolean;
}

/** The fields a word expands to (brace expansion and field splitting applied). */
export function expandWord(w: ShNode, env: WordEnv): Word[] {
  const parts = (w.Parts as ShNode[]) ?? [];
  if (env.braces && parts.length === 1 && syntax.NodeType(parts[0]!) === 'Lit') {
    const text = unescape(String(parts[0]!.Value), false);
    if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(text))
      return expandBraces(text).map((t) => ({ ...lit(tilde(t, env, w)), ...(isGlob(t) && { glob: true }) }));
  }
  const fields: Field[] = [{ text: '', dynamic: false }];
  let sawQuoted = false;
  let allArgs: readonly Word[] | undefined;
  const cur = () => fields.at(-1)!;
  const add = (text: string, dynamic: boolean, quoted: boolean, many = false) => {
    if (quoted || !/\s/.test(text)) {
      cur().text += text;
      cur().dynamic ||= dynamic;
      if (many) cur().many = true;
      if (!quoted && isGlob(text)) cur().glob = true;
      return;
    }
    const pieces = text.split(/[ \t\n]+/);
    pieces.forEach((piece, i) => {
      if (i > 0) fields.push({ text: '', dynamic: false });
      cur().text += piece;
      cur().dynamic ||= dynamic;
    });
  };
  const visit = (list: ShNode[], quoted: boolean) => {
    for (const part of list) {
      const t = syntax.NodeType(part);
      if (t === 'Lit') {
        const text = unescape(String(part.Value), quoted);
        // Literal text has no blanks to split on; a brace expansion mixed with expansions is not followed.
        if (!quoted && env.braces && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(text)) add(text, true, true, true);
        else add(fields.length === 1 && cur().text === '' && !quoted ? tilde(text, env, w) : text, false, true);
        if (!quoted && isGlob(text)) cur().glob = true;
      } else if (t === 'SglQuoted') {
        sawQuoted = true;
        add(part.Dollar ? decodeAnsiC(String(part.Value)) : String(part.Value), false, true);
      } else if (t === 'DblQuoted') {
        sawQuoted = true;
        const inner = (part.Parts as ShNode[]) ?? [];
        // "$@" alone: each argument a word of its own.
        if (inner.length === 1 && isAllArgs(inner[0]!) && list.length === 1) {
          const all = env.scope.positionalAll(part.Pos().Offset());
          if (!all) return void add('\u0000', true, true, true);
          allArgs = all;
          return;
        }
        visit(inner, true);
      } else if (t === 'ParamExp') {
        const v = paramValue(part, env, quoted);
        add(v.text, v.dynamic, quoted, v.many);
        if (!quoted && ((v.dynamic && !v.numeric) || env.scope.ifsChanged)) cur().many = true;
      } else if (t === 'CmdSubst' && isOwnDirname(part)) add(env.dir, false, true);
      else if (t === 'ArithmExp') add('\u0000', true, true);
      else {
        // Command and process substitutions, extended globs: only known at run time.
        add('\u0000', true, true);
        if (!quoted && t !== 'ProcSubst') cur().many = true;
      }
    }
  };
  visit(parts, false);
  if (allArgs) return [...allArgs];
  // An unquoted expansion that is empty vanishes; `""` stays an (empty) word.
  const kept = fields.filter((f) => f.text !== '' || f.dynamic || (sawQuoted && fields.length === 1));
  return kept.map((f) => ({ text: f.text, dynamic: f.dynamic, ...(f.many && { many: true }), ...(f.glob && { glob: true }) }));
}

/** Quote removal: unquoted, a backslash keeps the next character; in double quotes only before `$`, `` ` ``, `"`, `\`. */
function unescape(text: string, quoted: boolean): string {
  return quoted
    ? text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c))
    : text.replace(/\\(.)/gs, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Pattern characters the shell expands to file names: `*`, `?`, or a bracket expression `[...]`. */
function isGlob(text: string): boolean {
  return /[*?]|\[[^\]]+\]/.test(text);
}

/** A word's value without field splitting (assignments, redirection targets, here-documents). */
export function wordValue(w: ShNode, env: WordEnv): Word {
  let text = '';
  let dynamic = false;
  const visit = (list: ShNode[], quoted: boolean) => {
    for (const part of list) {
      const t = syntax.NodeType(part);
      if (t === 'Lit')
        text += !quoted && text === '' ? tilde(unescape(String(part.Value), false), env, w) : unescape(String(part.Value), quoted);
      else if (t === 'SglQuoted') text += part.Dollar ? decodeAnsiC(String(part.Value)) : String(part.Value);
      else if (t === 'DblQuoted') visit((part.Parts as ShNode[]) ?? [], true);
      else if (t === 'ParamExp') {
        const v = paramValue(part, env, true);
        text += v.text;
        dynamic ||= v.dynamic;
      } else if (t === 'CmdSubst' && isOwnDirname(part)) text += env.dir;
      else {
        text += '\u0000';
        dynamic = true;
      }
    }
  };
  visit((w.Parts as ShNode[]) ?? [], false);
  return { text, dynamic };
}

function isAllArgs(p: ShNode): boolean {
  return (
    syntax.NodeType(p) === 'ParamExp' &&
    String((p.Param as ShNode).Value) === '@' &&
    !p.Exp &&
    !p.Slice &&
    !p.Repl &&
    !p.Index &&
    !p.Excl &&
    !p.Length
  );
}

/** `~` and `~/x` at the start of an unquoted word: the home folder (`$HOME` when the script sets it). */
function tilde(text: string, env: WordEnv, w: ShNode): string {
  if (text !== '~' && !text.startsWith('~/')) return text;
  const home = env.scope.value('HOME', w.Pos().Offset(), (node) => wordValue(node, env));
  return home.dynamic ? `\u0000${text.slice(1)}` : home.text + text.slice(1);
}

function paramValue(p: ShNode, env: WordEnv, quoted: boolean): Word & { numeric?: boolean } {
  const name = String((p.Param as ShNode).Value);
  const at = p.Pos().Offset();
  const exp = p.Exp as ShNode | null;
  if (exp && exp.Op === 84 && wordLiteral(exp.Word as ShNode) === 'P') {
    env.fail('`${x@P}` expands a value as a prompt, which runs the command substitutions in it');
    return DYNAMIC;
  }
  if (p.Excl) {
    if (Number(p.Names) !== 0 || p.Index) return DYNAMIC_MANY;
    // `${!ref}`: the variable named by ref's value; evaluating a name like `a[$(cmd)]` runs cmd.
    const target = env.scope.value(name, at, (node) => wordValue(node, env));
    if (target.dynamic || !/^[A-Za-z_]\w*$/.test(target.text)) {
      env.fail(`\`\${!${name}}\` expands a variable whose name is only known at run time`);
      return DYNAMIC;
    }
    return env.scope.value(target.text, at, (node) => wordValue(node, env));
  }
  if (p.Length) return { ...DYNAMIC, numeric: true };
  if (exp || p.Repl || p.Slice || p.Width) return DYNAMIC;
  if (p.Index) return name === '@' || quoted ? DYNAMIC_MANY : DYNAMIC;
  if (name === '@' || name === '*') {
    const all = env.scope.positionalAll(at);
    if (!all) return DYNAMIC_MANY;
    return { text: all.map((a) => a.text).join(' '), dynamic: all.some((a) => a.dynamic) };
  }
  if (name === '#') {
    const all = env.scope.positionalAll(at);
    return all ? lit(String(all.length)) : { ...DYNAMIC, numeric: true };
  }
  if (/^\d+$/.test(name)) return env.scope.positional(Number(name), at);
  if (/^[?$!-]$/.test(name)) return { ...DYNAMIC, numeric: true };
  const v = env.scope.value(name, at, (node) => wordValue(node, env));
  return v.dynamic && env.scope.numeric(name, at) ? { ...v, numeric: true } : v;
}

/** Whether a command substitution is `dirname` of the script's own path (`$0` or `BASH_SOURCE`). */
export function isOwnDirname(subst: ShNode): boolean {
  const stmts = (subst.Stmts as ShNode[] | undefined) ?? [];
  const call = stmts.length === 1 ? (stmts[0]!.Cmd as ShNode | null) : null;
  if (!call || syntax.NodeType(call) !== 'CallExpr') return false;
  const args = call.Args as ShNode[];
  if (args.length !== 2 || wordLiteral(args[0]) !== 'dirname') return false;
  const params: string[] = [];
  const collect = (parts: ShNode[]) => {
    for (const p of parts) {
      const t = syntax.NodeType(p);
      if (t === 'DblQuoted') collect(p.Parts as ShNode[]);
      else if (t === 'ParamExp') params.push(String((p.Param as ShNode | null)?.Value ?? ''));
      else params.push('\u0000');
    }
  };
  collect(args[1]!.Parts as ShNode[]);
  return params.length === 1 && (params[0] === '0' || params[0] === 'BASH_SOURCE');
}

/** Decodes the escapes of a `$'...'` string. */
export function decodeAnsiC(s: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (m, e: string) => {
    if (simple[e] !== undefined) return simple[e]!;
    if (/^x/.test(e)) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[uU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (/^c/.test(e)) return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return m;
  });
}

/** Bash brace expansion of an unquoted word: `{a,b}c` → `ac bc`, `{1..3}` → `1 2 3`. */
export function expandBraces(s: string, limit = 512): string[] {
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '{' || s[i - 1] === '$' || s[i - 1] === '\\') continue;
    let depth = 0;
    const commas: number[] = [];
    let end = -1;
    for (let j = i; j < s.length; j++) {
      if (s[j] === '\\') j++;
      else if (s[j] === '{') depth++;
      else if (s[j] === '}' && --depth === 0) {
        end = j;
        break;
      } else if (s[j] === ',' && depth === 1) commas.push(j);
    }
    if (end < 0) return [s];
    const pre = s.slice(0, i);
    const post = s.slice(end + 1);
    const body = s.slice(i + 1, end);
    let items: string[] | undefined;
    if (commas.length) items = [i, ...commas].map((c, k) => s.slice(c + 1, k < commas.length ? commas[k] : end));
    else {
      const r = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(body);
      if (r) items = range(r[1]!, r[2]!, Number(r[3] ?? 1), limit);
    }
    if (!items) continue;
    const out = items.flatMap((it) => expandBraces(pre + it + post, limit));
    return out.length > limit ? [s] : out;
  }
  return [s];
}

function range(a: string, b: string, step: number, limit: number): string[] {
  const num = /^-?\d+$/.test(a);
  const from = num ? Number(a) : a.charCodeAt(0);
  const to = num ? Number(b) : b.charCodeAt(0);
  const inc = Math.max(1, Math.abs(step)) * (to >= from ? 1 : -1);
  const out: string[] = [];
  for (let x = from; inc > 0 ? x <= to : x >= to; x += inc) {
    out.push(num ? String(x) : String.fromCharCode(x));
    if (out.length > limit) break;
  }
  return out;
}
