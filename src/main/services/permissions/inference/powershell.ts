import { analyzeCommand } from './commands';
import { DYNAMIC, entry, lit, touchPath, unknown } from './effects';
import { ALIASES, cmdlet } from './psCmdlets';
import { tokenizePowerShell, type Tok } from './psTokens';
import { applyType, DANGEROUS_METHODS, typeRule } from './psTypes';
import type { InferenceSink, Word } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * PowerShell, by tokenizer (psTokens.ts), on an allowlist: cmdlets are modelled or known inert
 * (psCmdlets.ts), .NET types and COM classes likewise (psTypes.ts), native programs go to the
 * shared command analysis, and everything else fails closed. So does code reached by name at
 * run time: `& (...)`, `& $var`, `iex` of anything but literal text, a member named by an
 * expression (`$x.('Down'+'load')`), `$ExecutionContext`, reflection and compilation.
 */

const NET_POST =
  /^(UploadString|UploadFile|UploadData|UploadValues|UploadStringAsync|UploadFileAsync|UploadDataAsync|PostAsync|PutAsync|PatchAsync|SendAsync|GetStream|Send|SendMail|Connect|ConnectAsync|BeginConnect)$/i;
const NET_FETCH =
  /^(DownloadString|DownloadFile|DownloadData|DownloadStringAsync|DownloadFileAsync|DownloadDataAsync|GetAsync|GetStringAsync|GetByteArrayAsync|GetStreamAsync|OpenRead|GetResponse)$/i;
const KEYWORDS =
  /^(if|elseif|else|while|do|until|for|foreach|switch|function|filter|param|begin|process|end|try|catch|finally|trap|return|break|continue|throw|exit|class|enum|data|dynamicparam|default|in|hidden|static)$/i;

export function analyzePowerShell(source: string, sink: InferenceSink): void {
  const { tokens, error } = tokenizePowerShell(source);
  if (error) return sink.fail(`cannot tokenize as PowerShell: ${error}`);
  const functions = new Set(
    tokens.flatMap((t, i) =>
      t.t === 'word' && /^(function|filter|workflow)$/i.test(t.v) && tokens[i + 1]?.t === 'word' ? [tokens[i + 1]!.v.toLowerCase()] : [],
    ),
  );
  const known = knownVariables(tokens, sink);
  const value = (tok: Tok | undefined): Word => {
    if (!tok) return DYNAMIC;
    if (tok.t === 'word') return lit(tok.v);
    if (tok.t === 'str') {
      if (!tok.dynamic) return lit(tok.v);
      let dynamic = false;
      const text = tok.v.replace(/\$\{?([\w:]+)\}?/g, (_m, name: string) => {
        const v = known.get(name.toLowerCase());
        if (v && !v.dynamic) return v.text;
        dynamic = true;
        return '\u0000';
      });
      return { text, dynamic: dynamic || /\$\(/.test(tok.v) };
    }
    if (tok.t === 'var') return known.get(tok.v.toLowerCase()) ?? DYNAMIC;
    return DYNAMIC;
  };
  const typeCtx = (ev: string, line: number) => ({
    emit: (cap: Parameters<InferenceSink['emit']>[0], target: Parameters<InferenceSink['emit']>[1]) => sink.emit(cap, target, ev, line),
    touch: (access: 'read' | 'write' | 'delete' | 'permissions', w: Word) => touchPath(sink, access, w, ev, line),
    fail: (why: string) => sink.fail(`${why} (${ev})`, line),
  });

  // Types and members, wherever they appear in an expression.
  tokens.forEach((tok, idx) => {
    if (tok.t === 'var' && /^executioncontext$/i.test(tok.v))
      return sink.fail('uses `$ExecutionContext`, which runs commands and code named at run time', tok.line);
    if (tok.t !== 'word') return;
    const ev = tok.v.slice(0, 120);
    const type = /^\[([A-Za-z_][\w.+]*(?:\[[^\]]*\])?)\](?:::(\w+))?/.exec(tok.v);
    if (type) {
      if (type[2] !== undefined) applyType(type[1]!, type[2], callArgs(idx), typeCtx(ev, tok.line));
      else if (typeRule(type[1]!) === undefined) sink.fail(`uses .NET type \`${type[1]}\`, which this analysis does not model`, tok.line);
      else if (typeRule(type[1]!) === 'fail') sink.fail(`uses \`${type[1]}\`, which can load or build code at run time`, tok.line);
      const rest = tok.v.slice(type[0].length);
      if (rest.startsWith('.')) members(rest.slice(1).split('.'), idx, ev);
      return;
    }
    const prev = tokens[idx - 1];
    if (
      tok.v.startsWith('.') &&
      !tok.sp &&
      prev &&
      (prev.t === 'var' || prev.t === 'str' || prev.v === ')' || prev.v === '}' || (prev.t === 'word' && !prev.v.startsWith('-')))
    )
      members(tok.v.slice(1).split('.'), idx, ev);
  });

  /** `$x.A.B(...)`: each member name is judged; a name given as an expression fails closed. */
  function members(names: string[], idx: number, ev: string): void {
    const line = tokens[idx]!.line;
    const next = tokens[idx + 1];
    if (names.length === 1 && names[0] === '') {
      if (next?.t === 'str' && !next.dynamic) names = [next.v];
      else return sink.fail('reaches a member named by an expression, only known at run time', line);
    }
    const called = (i: number) => i === names.length - 1 && (tokens[idx + 1]?.v === '(' || tokens[idx + 2]?.v === '(');
    names.forEach((name, i) => {
      if (DANGEROUS_METHODS.test(name) && !(name.toLowerCase() === 'invoke' && tokens[idx - 1]?.v === '}'))
        return sink.fail(`calls \`.${name}\`, which runs or loads code named at run time`, line);
      if (!called(i)) return;
      const args = callArgs(next?.t === 'str' ? idx + 1 : idx);
      if (NET_POST.test(name)) sink.emit('web.post', unknown('.NET network call'), ev, line);
      else if (NET_FETCH.test(name)) {
        sink.emit(
          'web.fetch',
          args[0] && !args[0].dynamic && /^\w+:\/\//.test(args[0].text) ? { kind: 'url', url: args[0].text } : unknown('.NET network call'),
          ev,
          line,
        );
        if (/^DownloadFile/i.test(name)) touchPath(sink, 'write', args[1] ?? DYNAMIC, ev, line);
      } else if (/^CopyFromScreen$/i.test(name)) sink.emit('screen.capture', { kind: 'none' }, ev, line);
    });
  }

  /** The literal arguments of a call whose `(` follows token `idx`. */
  function callArgs(idx: number): Word[] {
    if (tokens[idx + 1]?.v !== '(') return [];
    const out: Word[] = [];
    let depth = 0;
    let part: Tok[] = [];
    for (let k = idx + 1; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.v === '(' || t.v === '$(') depth++;
      if (t.v === ')' && --depth === 0) break;
      if (depth === 1 && t.v === ',' && t.t === 'op') {
        out.push(part.length === 1 ? value(part[0]) : DYNAMIC);
        part = [];
      } else if (!(depth === 1 && t.v === '(')) part.push(t);
    }
    if (part.length) out.push(part.length === 1 ? value(part[0]) : DYNAMIC);
    return out;
  }

  // Statements: tokens between separators; `&` and `.` invoke what follows.
  let stmt: Tok[] = [];
  const flush = () => {
    if (stmt.length) statement(stmt);
    stmt = [];
  };
  for (const tok of tokens) {
    const boundary = tok.t === 'sep' || (tok.t === 'op' && ['{', '}', '(', ')', '$('].includes(tok.v));
    if (boundary && (tok.v === '(' || tok.v === '$(')) {
      const last = stmt.at(-1);
      if (last && ((last.t === 'op' && last.v === '&') || (last.t === 'word' && last.v === '.' && last.sp)))
        sink.fail('invokes a command computed by an expression (`& (...)`)', tok.line);
    }
    if (boundary) flush();
    else stmt.push(tok);
  }
  flush();

  function statement(toks: Tok[]): void {
    const line = toks[0]!.line;
    let rest = toks;
    while (rest[0]?.t === 'word' && /^\[[^\]]+\]$/.test(rest[0].v) && rest[1]?.t === 'var') rest = rest.slice(1); // [string]$x = ...
    if (rest[0]?.t === 'var' && rest[1]?.t === 'op' && /^(=|\+=)$/.test(rest[1].v)) {
      const name = rest[0].v.toLowerCase();
      if (name.startsWith('env:') && isCodeLoadingEnv(name.slice(4)))
        sink.fail(`sets \`$${rest[0].v}\`, which makes programs load code this analysis does not see`, line);
      const rhs = rest.slice(2);
      if (rhs[0]?.t === 'word' || (rhs[0]?.t === 'op' && rhs[0].v === '&')) statement(rhs);
      return;
    }
    const plain: Tok[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k]!;
      if (t.t === 'op' && /^[*2]?>>?$/.test(t.v)) {
        const target = value(rest[k + 1]);
        touchPath(sink, 'write', target, `redirect to ${target.text}`, line);
        k++;
      } else plain.push(t);
    }
    rest = plain;
    const invoked = rest[0]?.t === 'op' && rest[0].v === '&';
    if (invoked) rest = rest.slice(1);
    const head = rest[0];
    if (!head) return;
    if (head.t === 'var') {
      if (invoked) sink.fail(`invokes a command held in variable $${head.v}`, line);
      return;
    }
    // A string alone is a value (it is printed); only `& 'path'` runs it.
    if (head.t === 'str' && !invoked) return;
    if (head.t === 'str' || (head.t === 'word' && /^\.?[.\\/~]|\.ps1$/i.test(head.v) && head.v !== '.')) {
      const target = value(head);
      if (target.dynamic) return sink.fail('runs a script whose path is computed at run time', line);
      if (/\.ps1$/i.test(target.text)) return sink.follow(target.text.replace(/\\/g, '/'), 'powershell', line, rest.slice(1).map(value));
      return analyzeCommand([target, ...rest.slice(1).map(value)], sink, { shell: 'exec', line });
    }
    if (head.t === 'word' && head.v === '.' && rest[1]) {
      const target = value(rest[1]);
      return target.dynamic
        ? sink.fail('dot-sources a script whose path is computed at run time', line)
        : sink.follow(target.text.replace(/\\/g, '/'), 'powershell', line, []);
    }
    if (head.t !== 'word') return;
    // Expressions and keywords, not commands: `[Type]::Member(...)`, numbers, operators, `@(...)`, `if`, `foreach`...
    if (/^[[\d@+\-!.]/.test(head.v) || (KEYWORDS.test(head.v) && !invoked)) return;
    if (/^using$/i.test(head.v))
      return /^namespace$/i.test(rest[1]?.v ?? '') ? undefined : sink.fail('`using module`/`using assembly` loads code', line);
    if (functions.has(head.v.toLowerCase())) return;
    const name = entry(ALIASES, head.v.toLowerCase()) ?? head.v.toLowerCase();
    cmdlet(name, head.v, rest.slice(1), line, { sink, value });
  }
}

/**
 * Variables whose value is known: assigned exactly once, to a literal, and never named anywhere
 * else (`Set-Variable x`, `foreach ($x in ...)`, `[ref]$x`, `$x++`). Plus the automatic ones.
 */
function knownVariables(tokens: Tok[], sink: InferenceSink): Map<string, Word> {
  const known = new Map<string, Word>([
    ['psscriptroot', lit(sink.dir)],
    ['home', lit('~')],
    ['env:userprofile', lit('~')],
    ['env:home', lit('~')],
    ['env:homepath', lit('~')],
    ['env:appdata', lit('~/AppData/Roaming')],
    ['env:localappdata', lit('~/AppData/Local')],
    ['profile', lit('~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1')],
    ['true', lit('True')],
    ['false', lit('False')],
    ['null', lit('')],
  ]);
  if (sink.args) known.set('args', { text: sink.args.map((a) => a.text).join(' '), dynamic: sink.args.some((a) => a.dynamic) });
  const assigned = new Map<string, number>();
  const values = new Map<string, Word>();
  tokens.forEach((t, i) => {
    if (t.t !== 'var') return;
    const name = t.v.toLowerCase().replace(/^(script|global|local|private):/, '');
    const next = tokens[i + 1];
    const changes =
      (next?.t === 'op' && /^(=|\+=)$/.test(next.v)) ||
      /^(\+\+|--)/.test(next?.v ?? '') ||
      tokens[i - 1]?.v === '[ref]' ||
      /^(foreach|param)$/i.test(tokens[i - 2]?.v ?? '') ||
      tokens[i + 1]?.v === 'in';
    if (!changes) return;
    assigned.set(name, (assigned.get(name) ?? 0) + (next?.v === '=' ? 1 : 2));
    const rhs = [tokens[i + 2], tokens[i + 3]];
    const arg = rhs[0]?.t === 'var' && rhs[0].v.toLowerCase() === 'args' && /^\[(\d+)\]$/.exec(rhs[1]?.v ?? '');
    if (arg) values.set(name, sink.args ? (sink.args[Number(arg[1])] ?? lit('')) : DYNAMIC);
    else if (rhs[0] && (rhs[0].t === 'str' || rhs[0].t === 'word') && (!rhs[1] || rhs[1].t === 'sep'))
      values.set(name, rhs[0].t === 'str' && rhs[0].dynamic ? DYNAMIC : lit(rhs[0].v));
  });
  const mentioned = new Set(tokens.filter((t) => t.t === 'word' || t.t === 'str').map((t) => t.v.toLowerCase()));
  for (const [name, count] of assigned) {
    known.delete(name);
    if (count === 1 && values.has(name) && !mentioned.has(name)) known.set(name, values.get(name)!);
  }
  return known;
}
