import { analyzeCommand, DYNAMIC, lit, touchPath, type Word } from './commands';
import { isSecretPath } from './paths';
import type { InferenceSink } from './types';

/**
 * Python, by a careful tokenizer (no Python parser is available to Node without a Python
 * runtime): string literals with every prefix and triple quotes, comments, bracket nesting and
 * line continuations are exact, so calls and their literal arguments are found reliably.
 * Imports build an alias table (`from requests import post as p`); literal assignments are
 * propagated. Unterminated strings, unbalanced brackets and dynamic code fail closed.
 */

type Tok =
  | { t: 'name'; v: string; line: number }
  | { t: 'str'; v: string; fmt: boolean; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'nl'; v: '\n'; line: number };

export function tokenizePython(src: string): { tokens: Tok[]; error?: string } {
  const tokens: Tok[] = [];
  let i = 0;
  let line = 1;
  const depth: string[] = [];
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      if (depth.length === 0) tokens.push({ t: 'nl', v: '\n', line });
      line++;
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const sm = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (sm && (sm[1] === '' || /^(r|b|u|f|rb|br|fr|rf)$/i.test(sm[1]!))) {
      const prefix = sm[1]!.toLowerCase();
      const q = sm[2]!;
      const raw = prefix.includes('r');
      let j = i + sm[0].length;
      let v = '';
      const startLine = line;
      for (;;) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${startLine}` };
        if (src.startsWith(q, j)) break;
        const ch = src[j]!;
        if (ch === '\n') {
          if (q.length === 1) return { tokens, error: `unterminated string on line ${startLine}` };
          line++;
        }
        if (ch === '\\' && j + 1 < src.length) {
          const nx = src[j + 1]!;
          if (nx === '\n') line++;
          v += raw ? ch + nx : (({ n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', '\n': '' } as Record<string, string>)[nx] ?? ch + nx);
          j += 2;
          continue;
        }
        v += ch;
        j++;
      }
      tokens.push({ t: 'str', v, fmt: prefix.includes('f'), line: startLine });
      i = j + q.length;
      continue;
    }
    const nm = /^[A-Za-z_\u00c0-\uffff][\w\u00c0-\uffff]*/.exec(src.slice(i));
    if (nm) {
      tokens.push({ t: 'name', v: nm[0], line });
      i += nm[0].length;
      continue;
    }
    const num = /^(0[xXoObB][\da-fA-F_]+|\d[\d_]*\.?[\d_]*([eE][+-]?\d+)?j?|\.\d[\d_]*)/.exec(src.slice(i));
    if (num) {
      i += num[0].length;
      continue;
    }
    if ('([{'.includes(c)) depth.push(c);
    if (')]}'.includes(c)) {
      const open = depth.pop();
      if (open !== { ')': '(', ']': '[', '}': '{' }[c]) return { tokens, error: `unbalanced \`${c}\` on line ${line}` };
    }
    const op = /^(\*\*=?|\/\/=?|->|:=|[-+*/%@&|^<>!=]=|<<=?|>>=?|[-+*/%@&|^~<>=.,:;()[\]{}])/.exec(src.slice(i));
    tokens.push({ t: 'op', v: op ? op[0] : c, line });
    i += op ? op[0].length : 1;
  }
  if (depth.length) return { tokens, error: `unclosed \`${depth.at(-1)}\` at end of file` };
  return { tokens };
}

interface Call {
  name: string;
  line: number;
  args: Tok[][];
  kwargs: Map<string, Tok[]>;
}

const NET_MODULES = /^(requests|httpx|aiohttp|urllib3|urllib\.request|http\.client|pycurl)\b/;

/** Analyses Python source through the sink. */
export function analyzePython(source: string, sink: InferenceSink): void {
  const { tokens, error } = tokenizePython(source);
  if (error) return sink.fail(`cannot tokenize as Python: ${error}`);
  const alias = new Map<string, string>();
  const vars = new Map<string, Word>();
  let usesNet = false;

  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    const atStmt = k === 0 || tokens[k - 1]!.t === 'nl' || tokens[k - 1]!.v === ';' || tokens[k - 1]!.v === ':';
    if (t.t === 'name' && atStmt && (t.v === 'import' || t.v === 'from')) {
      k = imports(k);
      continue;
    }
    if (t.t === 'str' && !t.fmt && isSecretPath(t.v)) sink.emit('secrets.read', { kind: 'path', path: t.v }, `'${t.v}'`, t.line);
    // `name = <literal>` (one token, or a call whose result is a literal path).
    if (t.t === 'name' && atStmt && tokens[k + 1]?.v === '=') {
      const rhs = statementTokens(k + 2);
      vars.set(t.v, rhs.length === 1 ? value(rhs[0]) : (expandUser(rhs) ?? DYNAMIC));
    }
    if (t.t === 'name' && tokens[k + 1]?.v !== undefined) {
      // A call: dotted name followed by `(`.
      let end = k;
      let name = t.v;
      while (tokens[end + 1]?.v === '.' && tokens[end + 2]?.t === 'name') {
        name += `.${tokens[end + 2]!.v}`;
        end += 2;
      }
      const prev = tokens[k - 1];
      if (
        tokens[end + 1]?.v === '(' &&
        !(prev && prev.v === '.') &&
        !(prev && prev.t === 'name' && (prev.v === 'def' || prev.v === 'class'))
      ) {
        const call = parseCall(name, end + 1, t.line);
        handle(call);
      } else if (prev?.v === '.' && tokens[end + 1]?.v === '(') {
        // Method on an expression (`Path(p).unlink()`, `s.sendall(...)`): judged by method name.
        handle({ ...parseCall(`.${name}`, end + 1, t.line) });
      }
      k = end;
    }
  }

  function imports(k: number): number {
    const toks = statementTokens(k);
    const words = toks.map((x) => x.v);
    if (words[0] === 'import') {
      for (const part of splitOn(toks.slice(1), ',')) {
        const dotted = part.filter((x) => x.v !== 'as').map((x) => x.v);
        const asIdx = part.findIndex((x) => x.v === 'as');
        const mod = (asIdx < 0 ? part : part.slice(0, asIdx)).map((x) => x.v).join('');
        const local = asIdx < 0 ? mod.split('.')[0]! : part[asIdx + 1]!.v;
        alias.set(local, asIdx < 0 ? local : mod);
        if (NET_MODULES.test(mod)) usesNet = true;
        void dotted;
      }
    } else {
      const impIdx = toks.findIndex((x) => x.v === 'import');
      const mod = toks
        .slice(1, impIdx)
        .map((x) => x.v)
        .join('');
      if (NET_MODULES.test(mod)) usesNet = true;
      for (const part of splitOn(
        toks.slice(impIdx + 1).filter((x) => x.v !== '(' && x.v !== ')'),
        ',',
      )) {
        const name = part[0]?.v;
        if (!name) continue;
        if (name === '*') continue;
        const local = part[1]?.v === 'as' ? part[2]!.v : name;
        alias.set(local, `${mod}.${name}`);
      }
    }
    return k + toks.length - 1;
  }

  function statementTokens(k: number): Tok[] {
    const out: Tok[] = [];
    for (let j = k; j < tokens.length && tokens[j]!.t !== 'nl' && tokens[j]!.v !== ';'; j++) out.push(tokens[j]!);
    return out;
  }

  function parseCall(name: string, open: number, line: number): Call {
    const args: Tok[][] = [];
    const kwargs = new Map<string, Tok[]>();
    let cur: Tok[] = [];
    let depth = 0;
    for (let j = open + 1; j < tokens.length; j++) {
      const x = tokens[j]!;
      if (x.v === '(' || x.v === '[' || x.v === '{') depth++;
      if (x.v === ')' || x.v === ']' || x.v === '}') {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && x.v === ',') {
        push();
        continue;
      }
      cur.push(x);
    }
    push();
    return { name, line, args, kwargs };
    function push() {
      if (cur.length >= 2 && cur[0]!.t === 'name' && cur[1]!.v === '=') kwargs.set(cur[0]!.v, cur.slice(2));
      else if (cur.length) args.push(cur);
      cur = [];
    }
  }

  function value(tok: Tok | undefined): Word {
    if (!tok) return DYNAMIC;
    if (tok.t === 'str') {
      if (!tok.fmt) return lit(tok.v);
      let dynamic = false;
      const text = tok.v.replace(/\{([^{}]*)\}/g, (_m, e: string) => {
        const v = vars.get(e.trim());
        if (v && !v.dynamic) return v.text;
        dynamic = true;
        return '\u0000';
      });
      return { text, dynamic };
    }
    if (tok.t === 'name') return vars.get(tok.v) ?? DYNAMIC;
    return DYNAMIC;
  }

  /** `os.path.expanduser('~/x')`, `Path('~/x').expanduser()`, `Path.home() / '.ssh'`: a literal path. */
  function expandUser(toks: Tok[]): Word | undefined {
    const strs = toks.filter((x) => x.t === 'str');
    if (strs.length === 0 || strs.some((s) => (s as { fmt: boolean }).fmt)) return undefined;
    const names = toks.filter((x) => x.t === 'name').map((x) => x.v);
    if (!names.every((n) => /^(os|path|expanduser|Path|home|expandvars|join|pathlib|str|abspath|realpath)$/.test(n))) return undefined;
    const prefix = names.includes('home') ? '~/' : '';
    return lit(prefix + strs.map((s) => s.v).join('/'));
  }

  function argWord(call: Call, index: number, ...kw: string[]): Word | undefined {
    for (const k of kw) if (call.kwargs.has(k)) return exprWord(call.kwargs.get(k)!);
    const a = call.args[index];
    return a ? exprWord(a) : undefined;
  }

  function exprWord(toks: Tok[]): Word {
    if (toks.length === 1) return value(toks[0]);
    return expandUser(toks) ?? DYNAMIC;
  }

  function listWords(toks: Tok[] | undefined): Word[] | undefined {
    if (!toks || (toks[0]?.v !== '[' && toks[0]?.v !== '(')) return undefined;
    const inner = toks.slice(1, -1);
    return splitOn(inner, ',')
      .filter((p) => p.length)
      .map(exprWord);
  }

  function handle(call: Call): void {
    const head = call.name.split('.')[0]!;
    const resolved = call.name.startsWith('.')
      ? call.name
      : alias.get(head)
        ? `${alias.get(head)}${call.name.slice(head.length)}`
        : call.name;
    const method = resolved.split('.').at(-1)!;
    const ev = `${call.name}(...)`;
    const line = call.line;
    const url = () => {
      const w = argWord(call, 0, 'url');
      return w && !w.dynamic ? { kind: 'url' as const, url: w.text } : { kind: 'unknown' as const, hint: 'URL computed at run time' };
    };
    if (/^(requests|httpx|aiohttp|urllib3)\.(post|put|patch)$/.test(resolved) || (usesNet && /^\.(post|put|patch)$/.test(resolved)))
      return sink.emit('web.post', url(), ev, line);
    if (/^(requests|httpx)\.request$/.test(resolved) || resolved === '.request') {
      const m = argWord(call, 0, 'method');
      const post =
        !m ||
        m.dynamic ||
        /^(post|put|patch)$/i.test(m.text) ||
        call.kwargs.has('data') ||
        call.kwargs.has('json') ||
        call.kwargs.has('body');
      return sink.emit(post ? 'web.post' : 'web.fetch', { kind: 'unknown', hint: 'HTTP request' }, ev, line);
    }
    if (
      /^(requests|httpx)\.(get|head|options)$/.test(resolved) ||
      (usesNet && /^\.(get)$/.test(resolved) && !/^(os|dict|environ)/.test(resolved))
    ) {
      if (resolved.startsWith('.')) return;
      return sink.emit(call.kwargs.has('data') || call.kwargs.has('files') ? 'web.post' : 'web.fetch', url(), ev, line);
    }
    if (/^urllib\.request\.(urlopen|Request|urlretrieve)$/.test(resolved)) {
      const post = call.kwargs.has('data') || (call.args.length > 1 && method !== 'urlretrieve');
      return sink.emit(post ? 'web.post' : 'web.fetch', url(), ev, line);
    }
    if (
      /^(socket\.(socket|create_connection)|smtplib\.SMTP(_SSL)?|ftplib\.FTP(_TLS)?|paramiko\.SSHClient|telnetlib\.Telnet)$/.test(
        resolved,
      ) ||
      /^\.(sendall|sendto|sendmail|send_message|storbinary|storlines)$/.test(resolved)
    ) {
      return sink.emit('web.post', { kind: 'unknown', hint: 'socket' }, ev, line);
    }
    if (/^webbrowser\.open(_new|_new_tab)?$/.test(resolved)) return sink.emit('web.navigate', url(), ev, line);
    if (
      /^(subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|os\.(system|popen|exec\w*|spawn\w*)|asyncio\.create_subprocess_(exec|shell))$/.test(
        resolved,
      )
    ) {
      sink.emit('shell.execute', { kind: 'command', command: ev }, ev, line);
      const first = call.args[0];
      const list = listWords(first);
      if (list && !/^asyncio\.create_subprocess_shell$/.test(resolved)) return analyzeCommand(list, sink, line);
      if (/^asyncio\.create_subprocess_exec$|^os\.(exec|spawn)/.test(resolved))
        return analyzeCommand(
          call.args.map(exprWord).filter((_w, i) => !/^os\.spawn/.test(resolved) || i > 0),
          sink,
          line,
        );
      const w = first ? exprWord(first) : DYNAMIC;
      if (w.dynamic) return sink.fail(`\`${call.name}\` runs a command computed at run time`, line);
      return sink.inline(w.text, 'bash', line);
    }
    if (/^(os\.(remove|unlink|rmdir|removedirs)|shutil\.rmtree)$/.test(resolved) || /^\.(unlink|rmdir)$/.test(resolved)) {
      return touchPath(sink, 'delete', argWord(call, 0, 'path') ?? DYNAMIC, ev, line);
    }
    if (resolved === 'open' || resolved === 'io.open' || resolved === 'codecs.open') {
      const mode = argWord(call, 1, 'mode');
      const write = mode && (mode.dynamic || /[wax+]/.test(mode.text));
      return touchPath(sink, write ? 'write' : 'read', argWord(call, 0, 'file') ?? DYNAMIC, ev, line);
    }
    if (/^\.(read_text|read_bytes)$/.test(resolved)) return touchPath(sink, 'read', DYNAMIC, ev, line);
    if (/^\.(write_text|write_bytes)$/.test(resolved)) return touchPath(sink, 'write', DYNAMIC, ev, line);
    if (/^shutil\.(copy|copy2|copyfile|copytree|move)$/.test(resolved)) {
      touchPath(sink, 'read', argWord(call, 0, 'src') ?? DYNAMIC, ev, line);
      if (method === 'move') touchPath(sink, 'delete', argWord(call, 0, 'src') ?? DYNAMIC, ev, line);
      return touchPath(sink, 'write', argWord(call, 1, 'dst') ?? DYNAMIC, ev, line);
    }
    if (/^(_?winreg)\.(SetValue|SetValueEx|CreateKey|CreateKeyEx|DeleteKey|DeleteKeyEx|DeleteValue)$/.test(resolved))
      return sink.emit('registry.write', { kind: 'path', path: 'registry' }, ev, line);
    if (/^(keyring\.(get_password|get_credential)|win32cred\.Cred(Read|Enumerate)|browser_cookie3\.\w+|secretstorage\.\w+)$/.test(resolved))
      return sink.emit('secrets.read', { kind: 'command', command: ev }, ev, line);
    if (/^pyperclip\.paste$|^\.clipboard_get$/.test(resolved)) return sink.emit('clipboard.read', { kind: 'none' }, ev, line);
    if (/^pyperclip\.copy$|^\.clipboard_append$/.test(resolved)) return sink.emit('clipboard.write', { kind: 'none' }, ev, line);
    if (/^(pyautogui\.screenshot|PIL\.ImageGrab\.grab|ImageGrab\.grab|mss\.mss)$/.test(resolved))
      return sink.emit('screen.capture', { kind: 'none' }, ev, line);
    if (/^pyautogui\.(typewrite|write|press|hotkey|keyDown|keyUp)$/.test(resolved))
      return sink.emit('input.keyboard', { kind: 'unknown', hint: 'any window' }, ev, line);
    if (/^pyautogui\.(click|doubleClick|rightClick|moveTo|dragTo|scroll)$/.test(resolved))
      return sink.emit('input.mouse', { kind: 'unknown', hint: 'any window' }, ev, line);
    if (/^(crontab\.CronTab|os\.putenv)$/.test(resolved))
      return sink.emit(resolved === 'os.putenv' ? 'env_var.write' : 'scheduled_job.create', { kind: 'none' }, ev, line);
    if (/^(exec|eval|compile)$/.test(resolved)) {
      const code = argWord(call, 0);
      if (!code || code.dynamic) return sink.fail(`\`${call.name}\` runs code computed at run time`, line);
      return sink.inline(code.text, 'python', line);
    }
    if (/^(__import__|importlib\.import_module)$/.test(resolved)) {
      const mod = argWord(call, 0);
      if (!mod || mod.dynamic) return sink.fail('imports a module named at run time', line);
      if (NET_MODULES.test(mod.text)) usesNet = true;
      return;
    }
    if (resolved === 'getattr') {
      // getattr(requests, 'post')(...) is requests.post(...); a computed attribute name cannot be judged.
      const attr = argWord(call, 1);
      const target = call.args[0]?.length === 1 && call.args[0][0]!.t === 'name' ? call.args[0][0]!.v : undefined;
      if (!attr || attr.dynamic) return sink.fail('calls an attribute named at run time (getattr)', line);
      if (target) handle({ name: `${target}.${attr.text}`, line, args: call.args.slice(2), kwargs: new Map() });
      return;
    }
    if (/^ctypes\.(CDLL|WinDLL|cdll|windll)/.test(resolved) || resolved.startsWith('ctypes.windll') || resolved.startsWith('ctypes.cdll'))
      return sink.fail('calls native code through ctypes', line);
  }
}

function splitOn(toks: Tok[], sep: string): Tok[][] {
  const out: Tok[][] = [[]];
  let depth = 0;
  for (const t of toks) {
    if ('([{'.includes(t.v) && t.t === 'op') depth++;
    if (')]}'.includes(t.v) && t.t === 'op') depth--;
    if (depth === 0 && t.v === sep && t.t === 'op') out.push([]);
    else out.at(-1)!.push(t);
  }
  return out;
}
