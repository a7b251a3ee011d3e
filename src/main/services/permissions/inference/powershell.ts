import { analyzeCommand, DYNAMIC, lit, touchPath, type Word } from './commands';
import type { InferenceSink } from './types';

/**
 * PowerShell, by tokenizer. No maintained PowerShell parser exists on npm (the real one is
 * .NET's System.Management.Automation.Language.Parser), so this tokenizes strings, here-strings,
 * comments, variables and operators exactly, groups tokens into pipeline elements and maps
 * cmdlets, their aliases, native programs and .NET calls to capabilities. Unterminated strings
 * or comments fail closed, as does code run from strings built at run time.
 */

type Tok =
  | { t: 'word'; v: string; line: number }
  | { t: 'str'; v: string; dynamic: boolean; line: number }
  | { t: 'var'; v: string; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'sep'; v: string; line: number };

export function tokenizePowerShell(src: string): { tokens: Tok[]; error?: string } {
  const tokens: Tok[] = [];
  let i = 0;
  let line = 1;
  const at = (k = 0) => src[i + k] ?? '';
  while (i < src.length) {
    const c = at();
    if (c === '\n') {
      tokens.push({ t: 'sep', v: '\n', line });
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '`' && (at(1) === '\n' || at(1) === '\r')) {
      i += at(1) === '\r' ? 3 : 2;
      line++;
      continue;
    } // line continuation
    if (c === '<' && at(1) === '#') {
      const end = src.indexOf('#>', i + 2);
      if (end < 0) return { tokens, error: `unterminated block comment starting on line ${line}` };
      line += countLines(src.slice(i, end));
      i = end + 2;
      continue;
    }
    if (c === '#') {
      while (i < src.length && at() !== '\n') i++;
      continue;
    }
    if (c === '@' && (at(1) === '"' || at(1) === "'") && (at(2) === '\n' || at(2) === '\r')) {
      const q = at(1);
      const end = src.indexOf(`\n${q}@`, i);
      if (end < 0) return { tokens, error: `unterminated here-string starting on line ${line}` };
      const body = src.slice(src.indexOf('\n', i) + 1, end).replace(/\r$/, '');
      tokens.push({ t: 'str', v: body, dynamic: q === '"' && /\$[\w{(]/.test(body), line });
      line += countLines(src.slice(i, end + 3));
      i = end + 3;
      continue;
    }
    if (c === "'" || c === '\u2018' || c === '\u2019') {
      let v = '';
      let j = i + 1;
      for (; ; j++) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${line}` };
        if (src[j] === "'" && src[j + 1] === "'") {
          v += "'";
          j++;
          continue;
        }
        if (src[j] === "'" || src[j] === '\u2019') break;
        v += src[j];
      }
      tokens.push({ t: 'str', v, dynamic: false, line });
      line += countLines(v);
      i = j + 1;
      continue;
    }
    if (c === '"' || c === '\u201c' || c === '\u201d') {
      let v = '';
      let j = i + 1;
      for (; ; j++) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${line}` };
        if (src[j] === '`') {
          v += src[j + 1] ?? '';
          j++;
          continue;
        }
        if (src[j] === '"' && src[j + 1] === '"') {
          v += '"';
          j++;
          continue;
        }
        if (src[j] === '"' || src[j] === '\u201d') break;
        v += src[j];
      }
      tokens.push({ t: 'str', v, dynamic: /\$[\w{(]/.test(v), line });
      line += countLines(v);
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$(\{[^}]*\}|[\w:?^$]+)/.exec(src.slice(i));
      if (m) {
        tokens.push({ t: 'var', v: m[1]!.replace(/^\{|\}$/g, ''), line });
        i += m[0].length;
        continue;
      }
      if (at(1) === '(') {
        tokens.push({ t: 'op', v: '$(', line });
        i += 2;
        continue;
      }
    }
    if (c === ';' || c === '|' || c === '{' || c === '}' || c === '(' || c === ')') {
      if (c === '|' && at(1) === '|') {
        tokens.push({ t: 'sep', v: '||', line });
        i += 2;
        continue;
      }
      tokens.push(c === ';' || c === '|' ? { t: 'sep', v: c, line } : { t: 'op', v: c, line });
      i++;
      continue;
    }
    if (c === '&' && at(1) === '&') {
      tokens.push({ t: 'sep', v: '&&', line });
      i += 2;
      continue;
    }
    if (c === '>' || (c === '2' && at(1) === '>') || (c === '*' && at(1) === '>')) {
      const m = /^[*2]?>>?(&[12])?/.exec(src.slice(i))!;
      tokens.push({ t: 'op', v: m[0], line });
      i += m[0].length;
      continue;
    }
    if (c === '=' || c === ',' || c === '&' || (c === '+' && at(1) === '=')) {
      tokens.push({ t: 'op', v: c === '+' ? '+=' : c, line });
      i += c === '+' ? 2 : 1;
      continue;
    }
    const m = /^[^\s;|{}()'"=,`<>]+/.exec(src.slice(i));
    if (!m) {
      tokens.push({ t: 'op', v: c, line });
      i++;
      continue;
    }
    tokens.push({ t: 'word', v: m[0], line });
    i += m[0].length;
  }
  return { tokens };
}

function countLines(s: string): number {
  return s.split('\n').length - 1;
}

const ALIASES: Record<string, string> = {
  iwr: 'invoke-webrequest',
  irm: 'invoke-restmethod',
  gc: 'get-content',
  cat: 'get-content',
  type: 'get-content',
  sc: 'set-content',
  ac: 'add-content',
  ri: 'remove-item',
  rm: 'remove-item',
  del: 'remove-item',
  erase: 'remove-item',
  rd: 'remove-item',
  rmdir: 'remove-item',
  cp: 'copy-item',
  copy: 'copy-item',
  cpi: 'copy-item',
  mv: 'move-item',
  move: 'move-item',
  mi: 'move-item',
  ni: 'new-item',
  saps: 'start-process',
  start: 'start-process',
  spps: 'stop-process',
  kill: 'stop-process',
  iex: 'invoke-expression',
  gcb: 'get-clipboard',
  scb: 'set-clipboard',
  sp: 'set-itemproperty',
  echo: 'write-output',
};

const NET_POST =
  /\.(UploadString|UploadFile|UploadData|UploadValues|UploadStringAsync|UploadFileAsync|PostAsync|PutAsync|SendAsync|GetStream|Send)\s*\(/i;
const NET_FETCH = /\.(DownloadString|DownloadFile|DownloadData|GetAsync|GetStringAsync|OpenRead)\s*\(/i;

/** Analyses PowerShell source through the sink. */
export function analyzePowerShell(source: string, sink: InferenceSink): void {
  const { tokens, error } = tokenizePowerShell(source);
  if (error) return sink.fail(`cannot tokenize as PowerShell: ${error}`);
  const vars = new Map<string, Word>([
    ['psscriptroot', lit(sink.dir)],
    ['home', lit('~')],
    ['env:userprofile', lit('~')],
    ['env:home', lit('~')],
    ['profile', lit('~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1')],
  ]);
  const value = (tok: Tok | undefined): Word => {
    if (!tok) return DYNAMIC;
    if (tok.t === 'word') return lit(tok.v.replace(/^~/, '~'));
    if (tok.t === 'str') {
      if (!tok.dynamic) return lit(tok.v);
      let dynamic = false;
      const text = tok.v.replace(/\$\{?([\w:]+)\}?/g, (_m, name: string) => {
        const v = vars.get(name.toLowerCase());
        if (v && !v.dynamic) return v.text;
        dynamic = true;
        return '\u0000';
      });
      return { text, dynamic };
    }
    if (tok.t === 'var') return vars.get(tok.v.toLowerCase()) ?? DYNAMIC;
    return DYNAMIC;
  };

  // .NET calls and type names are found on the raw text of each line outside comments.
  tokens.forEach((tok, idx) => {
    if (tok.t !== 'word') return;
    const ev = tok.v.slice(0, 120);
    if (NET_POST.test(tok.v + (tokens[idx + 1]?.v === '(' ? '(' : '')))
      sink.emit('web.post', { kind: 'unknown', hint: '.NET network call' }, ev, tok.line);
    else if (NET_FETCH.test(tok.v + (tokens[idx + 1]?.v === '(' ? '(' : '')))
      sink.emit('web.fetch', { kind: 'unknown', hint: '.NET network call' }, ev, tok.line);
    if (/Net\.Sockets\.(TcpClient|UdpClient|Socket)\b/i.test(tok.v))
      sink.emit('web.post', { kind: 'unknown', hint: 'socket' }, ev, tok.line);
    if (/Environment\]::SetEnvironmentVariable/i.test(tok.v)) sink.emit('env_var.write', { kind: 'none' }, ev, tok.line);
    if (/(IO\.)?File\]::(ReadAll(Text|Bytes|Lines)|OpenRead)/i.test(tok.v))
      touchPath(sink, 'read', value(firstArg(tokens, idx)), ev, tok.line);
    if (/(IO\.)?File\]::(WriteAll(Text|Bytes|Lines)|AppendAll(Text|Lines)|Create|OpenWrite)/i.test(tok.v))
      touchPath(sink, 'write', value(firstArg(tokens, idx)), ev, tok.line);
    if (/(IO\.)?(File|Directory)\]::Delete/i.test(tok.v)) touchPath(sink, 'delete', value(firstArg(tokens, idx)), ev, tok.line);
    if (/ProtectedData\]::Unprotect|CredentialManager|PasswordVault/i.test(tok.v))
      sink.emit('secrets.read', { kind: 'unknown', hint: 'credential store' }, ev, tok.line);
    if (/Windows\.Forms\.Clipboard\]::GetText/i.test(tok.v)) sink.emit('clipboard.read', { kind: 'none' }, ev, tok.line);
    if (/ScriptBlock\]::Create|\.InvokeScript\(|AddScript/i.test(tok.v)) sink.fail(`builds code at run time (${ev})`, tok.line);
  });

  // Statements: tokens between separators; `&` and `.` invoke what follows.
  let stmt: Tok[] = [];
  const flush = () => {
    if (stmt.length) statement(stmt);
    stmt = [];
  };
  for (const tok of tokens) {
    if (tok.t === 'sep' || (tok.t === 'op' && (tok.v === '{' || tok.v === '}' || tok.v === '(' || tok.v === ')' || tok.v === '$(')))
      flush();
    else stmt.push(tok);
  }
  flush();

  function statement(toks: Tok[]): void {
    const line = toks[0]!.line;
    // Assignment: `$x = 'literal'` records the value; the right-hand side is analysed as a statement.
    if (toks[0]!.t === 'var' && toks[1]?.t === 'op' && (toks[1].v === '=' || toks[1].v === '+=')) {
      const rhs = toks.slice(2);
      const name = toks[0]!.v.toLowerCase();
      vars.set(name, rhs.length === 1 && toks[1].v === '=' ? value(rhs[0]) : DYNAMIC);
      if (rhs.length && rhs[0]!.t === 'word') statement(rhs);
      return;
    }
    let rest = toks;
    const redirects: { op: string; target: Word }[] = [];
    const plain: Tok[] = [];
    for (let k = 0; k < rest.length; k++) {
      const t = rest[k]!;
      if (t.t === 'op' && /^[*2]?>>?$/.test(t.v)) {
        redirects.push({ op: t.v, target: value(rest[k + 1]) });
        k++;
      } else plain.push(t);
    }
    rest = plain;
    for (const r of redirects) touchPath(sink, 'write', r.target, `redirect to ${r.target.text}`, line);
    const invoked = rest[0]?.t === 'op' && rest[0].v === '&';
    if (invoked) rest = rest.slice(1);
    const head = rest[0];
    if (!head) return;
    if (head.t === 'var') {
      // `& $cmd`: what runs is only known at run time. `$x.Method(...)` is a .NET call, handled above.
      if (invoked) return sink.fail(`invokes a command held in variable $${head.v}`, line);
      return;
    }
    if (head.t === 'str' || (head.t === 'word' && /^\.?[.\\/~]|\.ps1$/i.test(head.v) && head.v !== '.')) {
      const target = value(head);
      if (target.dynamic) return sink.fail(`runs a script whose path is computed at run time`, line);
      if (head.t === 'str' && !/\.(ps1|exe|cmd|bat|py|sh)$/i.test(target.text)) return;
      if (/\.ps1$/i.test(target.text)) return sink.follow(target.text.replace(/\\/g, '/'), 'powershell', line);
      return analyzeCommand([target, ...rest.slice(1).map(value)], sink, line);
    }
    if (head.t === 'word' && head.v === '.' && rest[1]) {
      const target = value(rest[1]);
      return target.dynamic
        ? sink.fail('dot-sources a script whose path is computed at run time', line)
        : sink.follow(target.text.replace(/\\/g, '/'), 'powershell', line);
    }
    if (head.t !== 'word') return;
    // Expressions, not commands: `[Type]::Member(...)` (analysed above), numbers, operators, `@(...)`.
    if (/^[[\d@+\-!]/.test(head.v)) return;
    const name = ALIASES[head.v.toLowerCase()] ?? head.v.toLowerCase();
    const args = rest.slice(1);
    cmdlet(name, head.v, args, line);
  }

  function param(args: Tok[], ...names: string[]): Word | undefined {
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a.t === 'word' && a.v.startsWith('-')) {
        const n = a.v.slice(1).toLowerCase().replace(/:.*$/, '');
        if (names.some((x) => (x.startsWith(n) && n.length >= 2) || x === n)) {
          const inline = /:(.+)$/.exec(a.v)?.[1];
          return inline ? lit(inline) : value(args[k + 1]);
        }
      }
    }
    return undefined;
  }
  function positional(args: Tok[]): Word[] {
    const out: Word[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k]!;
      if (a.t === 'word' && a.v.startsWith('-')) {
        if (!/^-(recurse|force|raw|append|nonewline|confirm|whatif|wait|passthru|usebasicparsing)$/i.test(a.v)) k++;
        continue;
      }
      if (a.t === 'op') continue;
      out.push(value(a));
    }
    return out;
  }

  function cmdlet(name: string, written: string, args: Tok[], line: number): void {
    const ev = `${written} ${args.map((a) => (a.t === 'str' ? `'${a.v}'` : a.t === 'var' ? `$${a.v}` : a.v)).join(' ')}`.slice(0, 160);
    const path = () => param(args, 'path', 'literalpath', 'filepath') ?? positional(args)[0];
    switch (name) {
      case 'invoke-webrequest':
      case 'invoke-restmethod':
      case 'curl':
      case 'wget': {
        const psStyle =
          name.startsWith('invoke-') || args.some((a) => a.t === 'word' && /^-(uri|method|body|infile|outfile|headers)/i.test(a.v));
        if (!psStyle) return analyzeCommand([lit(name), ...args.map(value)], sink, line);
        const method = param(args, 'method')?.text.toLowerCase();
        const body = param(args, 'body');
        const inFile = param(args, 'infile');
        const outFile = param(args, 'outfile');
        const uri = param(args, 'uri') ?? positional(args)[0];
        const post = (method !== undefined && /^(post|put|patch)$/.test(method)) || body !== undefined || inFile !== undefined;
        if (inFile) touchPath(sink, 'read', inFile, ev, line);
        if (outFile) touchPath(sink, 'write', outFile, ev, line);
        sink.emit(
          post ? 'web.post' : 'web.fetch',
          uri && !uri.dynamic ? { kind: 'url', url: uri.text } : { kind: 'unknown', hint: 'URL computed at run time' },
          ev,
          line,
        );
        return;
      }
      case 'send-mailmessage':
        return sink.emit('web.post', { kind: 'unknown', hint: 'mail' }, ev, line);
      case 'get-content':
      case 'import-csv':
      case 'import-clixml':
      case 'select-string':
      case 'get-filehash':
      case 'import-powershelldatafile': {
        const p = path();
        return touchPath(sink, 'read', p ?? DYNAMIC, ev, line);
      }
      case 'set-content':
      case 'add-content':
      case 'out-file':
      case 'export-csv':
      case 'export-clixml':
      case 'new-item':
      case 'set-item': {
        const p = path() ?? DYNAMIC;
        if (/^(hk(lm|cu|cr|u|cc)|registry)::?/i.test(p.text)) return sink.emit('registry.write', { kind: 'path', path: p.text }, ev, line);
        return touchPath(sink, 'write', p, ev, line);
      }
      case 'copy-item':
      case 'move-item':
      case 'rename-item': {
        const src = param(args, 'path', 'literalpath') ?? positional(args)[0];
        const dest = param(args, 'destination', 'newname') ?? positional(args)[1];
        if (src) touchPath(sink, 'read', src, ev, line);
        if (src && name !== 'copy-item') touchPath(sink, 'delete', src, ev, line);
        if (dest) touchPath(sink, 'write', dest, ev, line);
        return;
      }
      case 'remove-item':
      case 'clear-content': {
        const p = path() ?? DYNAMIC;
        if (/^(hk(lm|cu|cr|u|cc)|registry)::?/i.test(p.text)) return sink.emit('registry.write', { kind: 'path', path: p.text }, ev, line);
        return touchPath(sink, 'delete', p, ev, line);
      }
      case 'set-itemproperty':
      case 'new-itemproperty':
      case 'remove-itemproperty':
      case 'rename-itemproperty':
      case 'new-psdrive':
        return sink.emit('registry.write', { kind: 'path', path: (path() ?? DYNAMIC).text }, ev, line);
      case 'register-scheduledtask':
      case 'register-scheduledjob':
      case 'new-scheduledtask':
      case 'set-scheduledtask':
        sink.finding('persistence', `schedules a task: ${ev}`);
        return sink.emit('scheduled_job.create', { kind: 'command', command: ev }, ev, line);
      case 'install-module':
      case 'install-package':
      case 'install-script':
      case 'add-appxpackage':
      case 'install-windowsfeature':
      case 'enable-windowsoptionalfeature':
        return sink.emit('package.install', { kind: 'command', command: ev }, ev, line);
      case 'start-process': {
        const file = param(args, 'filepath') ?? positional(args)[0];
        const argList = param(args, 'argumentlist');
        if (file && !file.dynamic && /^(https?:)/i.test(file.text))
          return sink.emit('web.navigate', { kind: 'url', url: file.text }, ev, line);
        if (param(args, 'verb')?.text.toLowerCase() === 'runas') sink.finding('privilege_escalation', `runs elevated: ${ev}`);
        sink.emit('shell.execute', { kind: 'command', command: ev }, ev, line);
        if (file && !file.dynamic) analyzeCommand([file, ...(argList ? argList.text.split(/\s+/).map(lit) : [])], sink, line);
        else sink.fail(`starts a program computed at run time (${ev})`, line);
        return;
      }
      case 'stop-process':
        return sink.emit('process.kill', { kind: 'command', command: ev }, ev, line);
      case 'get-clipboard':
        return sink.emit('clipboard.read', { kind: 'none' }, ev, line);
      case 'set-clipboard':
        return sink.emit('clipboard.write', { kind: 'none' }, ev, line);
      case 'get-storedcredential':
      case 'get-secret':
      case 'get-secretinfo':
      case 'unprotect-cmsmessage':
        return sink.emit('secrets.read', { kind: 'command', command: ev }, ev, line);
      case 'set-executionpolicy':
      case 'set-mppreference':
      case 'add-mppreference':
      case 'set-netfirewallprofile':
      case 'new-netfirewallrule':
        return sink.emit('settings.write', { kind: 'command', command: ev }, ev, line);
      case 'invoke-expression':
      case 'invoke-command': {
        const code = param(args, 'command', 'scriptblock') ?? positional(args)[0];
        if (!code || code.dynamic || args[0]?.t === 'var') return sink.fail(`\`${written}\` runs code computed at run time (${ev})`, line);
        return sink.inline(code.text, 'powershell', line);
      }
      case 'new-object': {
        const type = (param(args, 'typename') ?? positional(args)[0])?.text ?? '';
        if (/Net\.Sockets\.(TcpClient|UdpClient|Socket)/i.test(type)) sink.emit('web.post', { kind: 'unknown', hint: 'socket' }, ev, line);
        return;
      }
      default:
        if (/^[a-z]+-[a-z]+$/.test(name)) return; // other cmdlets: reading state, formatting, output
        return analyzeCommand([lit(written), ...args.filter((a) => a.t !== 'op').map(value)], sink, line);
    }
  }
}

function firstArg(tokens: Tok[], idx: number): Tok | undefined {
  for (let k = idx + 1; k < Math.min(tokens.length, idx + 4); k++) {
    const t = tokens[k]!;
    if (t.t === 'str' || t.t === 'var') return t;
  }
  return undefined;
}
