import type { Invocation, ProgramModel } from './commands';
import { entry, joinWords, lit, names } from './effects';
import type { ScriptLanguage, Word } from './types';

/**
 * Interpreters: the program they run is analysed in its own language — inline code (`-c`,
 * `-e`, `-Command`, `/c`), a script file (followed, with its arguments), or code fed on standard
 * input (a here-document or here-string). Code from a pipe, or an interpreter option this
 * analysis does not know, fails closed.
 */

function fromStdin(inv: Invocation, language: ScriptLanguage, args: readonly Word[]): void {
  const stdin = inv.ctx.stdin;
  if (stdin && stdin !== 'piped' && 'code' in stdin) return inv.sink.inline(stdin.code, language, inv.line, args);
  if (stdin && stdin !== 'piped') {
    // `bash < script.sh`: the file is the program.
    if (stdin.file.dynamic) return inv.fail(`\`${inv.name}\` reads its program from a file only known at run time`);
    return inv.sink.follow(stdin.file.text, language, inv.line, args);
  }
  if (stdin === 'piped') inv.sink.finding('remote_code', `pipes data into \`${inv.name}\` and runs it as code (${inv.ev})`);
  inv.fail(`\`${inv.name}\` reads its program from standard input, which this analysis cannot see`);
}

/** bash, sh, dash, zsh, ksh: `-c CODE [$0 [ARGS]]`, `SCRIPT [ARGS]`, `-s [ARGS]` or standard input. */
function shell(language: ScriptLanguage): ProgramModel {
  return (inv) => {
    const a = inv.args;
    let code = false;
    let stdin = false;
    let i = 0;
    for (; i < a.length; i++) {
      const w = a[i]!;
      if (w.dynamic) return inv.fail(`\`${inv.name}\` is given options only known at run time`);
      if (w.text === '--' || w.text === '-') {
        i++;
        break;
      }
      if (/^[-+][oO]$/.test(w.text)) {
        i++;
        continue;
      }
      if (/^--(norc|noprofile|posix|restricted|verbose|noediting|login|debugger)$/.test(w.text)) continue;
      if (/^--(rcfile|init-file)$/.test(w.text)) {
        i++;
        continue;
      }
      if (/^[-+][a-zA-Z]+$/.test(w.text)) {
        if (w.text.startsWith('-') && w.text.includes('c')) code = true;
        if (w.text.startsWith('-') && w.text.includes('s')) stdin = true;
        if (w.text.startsWith('-') && w.text.includes('i') && inv.ctx.stdin)
          return inv.fail(`\`${inv.name} -i\` reads commands from standard input`);
        continue;
      }
      if (w.text.startsWith('-')) return inv.fail(`\`${inv.name}\` is given an option this analysis does not model (${w.text})`);
      break;
    }
    const rest = a.slice(i);
    if (code) {
      if (rest.length === 0) return inv.fail(`\`${inv.name} -c\` without code`);
      return inv.runCode(rest[0]!, language, rest.slice(2));
    }
    if (stdin || rest.length === 0) return fromStdin(inv, language, rest);
    if (rest[0]!.dynamic) return inv.fail(`\`${inv.name}\` runs a script whose path is only known at run time`);
    inv.sink.follow(rest[0]!.text, language, inv.line, rest.slice(1));
  };
}

/** What `python -m MODULE ARGS` does, for the modules that have a modelled command line. */
function pythonModule(inv: Invocation, mod: string, args: readonly Word[]): void {
  const ops = args.filter((w) => !w.text.startsWith('-'));
  const flag = (re: RegExp) => args.some((w) => re.test(w.text));
  const valueOf = (re: RegExp) => {
    const i = args.findIndex((w) => re.test(w.text));
    if (i < 0) return undefined;
    const eq = /=(.*)$/.exec(args[i]!.text);
    return eq ? lit(eq[1]!) : args[i + 1];
  };
  switch (mod) {
    case 'http.server': {
      const bind = valueOf(/^(-b|--bind)(=|$)/);
      const port = args.find((w) => /^\d+$/.test(w.text))?.text ?? '8000';
      inv.emit('net.listen', { kind: 'url', url: `http://${bind?.dynamic ? '*' : (bind?.text ?? '0.0.0.0')}:${port}` });
      // It serves the folder's files to whoever connects.
      inv.touch('read', valueOf(/^(-d|--directory)(=|$)/) ?? lit('.'));
      return;
    }
    case 'pip':
    case 'ensurepip':
      if (mod === 'ensurepip' || ops.some((w) => /^(install|uninstall)$/.test(w.text)))
        return inv.emit('package.install', { kind: 'command', command: inv.ev });
      if (ops.some((w) => w.text === 'download')) return inv.emit('web.fetch', { kind: 'unknown', hint: 'package index' });
      if (ops.some((w) => /^(list|show|freeze|check|--version|help)$/.test(w.text)) || flag(/^(-V|--version)$/)) return;
      return inv.fail('`pip` with a subcommand this analysis does not model');
    case 'venv':
    case 'compileall':
    case 'py_compile':
      return ops.forEach((w) => inv.touch('write', w));
    case 'json.tool':
      if (ops[0]) inv.touch('read', ops[0]);
      if (ops[1]) inv.touch('write', ops[1]);
      return;
    case 'base64':
    case 'tokenize':
      return ops.forEach((w) => inv.touch('read', w));
    case 'zipfile':
    case 'tarfile': {
      const create = flag(/^(-c|--create)$/);
      const extract = flag(/^(-e|--extract)$/);
      if (create) {
        if (ops[0]) inv.touch('write', ops[0]);
        ops.slice(1).forEach((w) => inv.touch('read', w));
      } else {
        if (ops[0]) inv.touch('read', ops[0]);
        if (extract) inv.touch('write', ops[1] ?? { text: '\u0000', dynamic: true });
      }
      return;
    }
    case 'smtpd':
    case 'aiosmtpd':
      return inv.emit('net.listen', { kind: 'unknown', hint: 'SMTP server' });
    case 'webbrowser':
    case 'antigravity':
      return inv.emit('web.navigate', ops[0] && !ops[0].dynamic ? { kind: 'url', url: ops[0].text } : { kind: 'unknown', hint: 'browser' });
    case 'cProfile':
    case 'profile':
    case 'trace':
    case 'pdb': {
      const script = ops[0];
      if (!script || script.dynamic) return inv.fail(`\`-m ${mod}\` runs a program only known at run time`);
      return inv.sink.follow(script.text, 'python', inv.line, args.slice(args.indexOf(script) + 1));
    }
    case 'platform':
    case 'sysconfig':
    case 'site':
    case 'this':
    case 'calendar':
    case 'uuid':
      return;
    default:
      return inv.fail(`runs Python module \`${mod}\`, whose command line this analysis does not model`);
  }
}

const PYTHON_VALUE = /^-(W|X)$|^--check-hash-based-pycs$/;

function python(inv: Invocation): void {
  const a = inv.args;
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    if (w.dynamic) return inv.fail('`python` is given arguments only known at run time where its program is chosen');
    if (PYTHON_VALUE.test(w.text)) {
      i++;
      continue;
    }
    const c = /^-[bBdEhiIOqsSuvVx]*c(.*)$/.exec(w.text);
    if (c) return inv.runCode(c[1] ? lit(c[1]) : (a[i + 1] ?? lit('')), 'python', a.slice(i + (c[1] ? 1 : 2)));
    const m = /^-[bBdEhiIOqsSuvVx]*m(.*)$/.exec(w.text);
    if (m) {
      const mod = m[1] || a[i + 1]?.text;
      if (!mod || (!m[1] && a[i + 1]?.dynamic)) return inv.fail('`python -m` runs a module only known at run time');
      return pythonModule(inv, mod, a.slice(i + (m[1] ? 1 : 2)));
    }
    if (w.text === '-') return fromStdin(inv, 'python', a.slice(i + 1));
    if (/^-[bBdEhiIOqsSuvVx]+$/.test(w.text) || w.text === '--') {
      if (/^-[^-]*i/.test(w.text) && inv.ctx.stdin) return inv.fail('`python -i` reads code from standard input');
      continue;
    }
    if (w.text.startsWith('-')) return inv.fail(`\`python\` is given an option this analysis does not model (${w.text})`);
    return inv.sink.follow(w.text, 'python', inv.line, a.slice(i + 1));
  }
  fromStdin(inv, 'python', []);
}

/** Node options with no effect beyond the program itself. */
const NODE_INERT =
  /^--(no-warnings|no-deprecation|trace-warnings|trace-deprecation|throw-deprecation|pending-deprecation|enable-source-maps|max-old-space-size|max-semi-space-size|stack-size|input-type|experimental-vm-modules|experimental-specifier-resolution|experimental-default-type|experimental-detect-module|experimental-require-module|unhandled-rejections|title|use-strict|expose-gc|abort-on-uncaught-exception|preserve-symlinks|preserve-symlinks-main|disable-proto|frozen-intrinsics|jitless|no-experimental-fetch|no-addons|harmony[\w-]*)(=.*)?$/;

function node(inv: Invocation): void {
  const a = inv.args;
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    if (w.dynamic) return inv.fail('`node` is given arguments only known at run time where its program is chosen');
    const t = w.text;
    const eq = /^(--eval|--print)=(.*)$/s.exec(t);
    if (eq) return inv.runCode(lit(eq[2]!), 'node', nodeArgs(a.slice(i + 1)));
    if (/^(-e|--eval|-p|--print|-pe)$/.test(t)) return inv.runCode(a[i + 1] ?? lit(''), 'node', nodeArgs(a.slice(i + 2)));
    if (/^(-c|--check|-v|--version|-h|--help)$/.test(t)) return;
    const req = /^(?:-r|--require|--import)(?:=(.*))?$/.exec(t);
    if (req) {
      const mod = req[1] !== undefined ? lit(req[1]) : a[++i];
      if (!mod || mod.dynamic || !/^[./]/.test(mod.text)) return inv.fail('`node` preloads a module this analysis does not read');
      inv.sink.follow(/\.[cm]?js$/.test(mod.text) ? mod.text : `${mod.text}.js`, 'node', inv.line, []);
      continue;
    }
    const inspect = /^--inspect(?:-brk|-wait)?(?:=(.*))?$/.exec(t);
    if (inspect) {
      const where = inspect[1] ?? '127.0.0.1:9229';
      inv.emit('net.listen', { kind: 'url', url: `tcp://${where.includes(':') ? where : `127.0.0.1:${where}`}` });
      continue;
    }
    if (NODE_INERT.test(t)) continue;
    if (t === '-') return fromStdin(inv, 'node', nodeArgs(a.slice(i + 1)));
    if (t === '-i' || t === '--interactive') {
      if (inv.ctx.stdin) return inv.fail('`node -i` reads code from standard input');
      continue;
    }
    if (t.startsWith('-')) return inv.fail(`\`node\` is given an option this analysis does not model (${t})`);
    return inv.sink.follow(t, 'node', inv.line, a.slice(i + 1));
  }
  fromStdin(inv, 'node', []);
}

const nodeArgs = (rest: readonly Word[]) => (rest[0]?.text === '--' ? rest.slice(1) : rest);

/** PowerShell's parameters, matched by unambiguous prefix as PowerShell does. */
const PS_PARAMS = names(
  'command encodedcommand file noprofile noninteractive nologo executionpolicy windowstyle sta mta version inputformat outputformat configurationname workingdirectory noexit login commandwithargs interactive',
);
const PS_ALIASES: Record<string, string> = {
  c: 'command',
  e: 'encodedcommand',
  ec: 'encodedcommand',
  enc: 'encodedcommand',
  f: 'file',
  nop: 'noprofile',
  noni: 'noninteractive',
  ep: 'executionpolicy',
  ex: 'executionpolicy',
  exec: 'executionpolicy',
  w: 'windowstyle',
  wd: 'workingdirectory',
  cwa: 'commandwithargs',
  l: 'login',
  i: 'interactive',
  o: 'outputformat',
  of: 'outputformat',
  if: 'inputformat',
};
const PS_VALUE = new Set(names('executionpolicy windowstyle version inputformat outputformat configurationname workingdirectory'));

function powershell(inv: Invocation): void {
  const a = inv.args;
  const legacy = inv.name === 'powershell';
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    if (w.dynamic) return inv.fail(`\`${inv.name}\` is given arguments only known at run time where its program is chosen`);
    if (!/^[-/]/.test(w.text)) {
      // A bare first argument is the command (Windows PowerShell) or the script file (pwsh).
      if (legacy) return inv.runCode(joinWords(a.slice(i)), 'powershell');
      return inv.sink.follow(w.text.replace(/\\/g, '/'), 'powershell', inv.line, a.slice(i + 1));
    }
    const raw = w.text.slice(1).toLowerCase().replace(/:.*$/, '');
    const param =
      entry(PS_ALIASES, raw) ??
      PS_PARAMS.filter((p) => p.startsWith(raw)).reduce<string | undefined>((m, p, _i, all) => (all.length === 1 ? p : m), undefined);
    if (!param) return inv.fail(`\`${inv.name}\` is given a parameter this analysis does not model (${w.text})`);
    if (PS_VALUE.has(param)) {
      i++;
      continue;
    }
    if (param === 'command' || param === 'commandwithargs') {
      const rest = a.slice(i + 1);
      if (rest.length === 1 && rest[0]!.text === '-') return fromStdin(inv, 'powershell', []);
      return inv.runCode(joinWords(rest), 'powershell');
    }
    if (param === 'encodedcommand') {
      const b64 = a[i + 1];
      if (!b64 || b64.dynamic) return inv.fail('`-EncodedCommand` with a value only known at run time');
      return inv.runCode(lit(Buffer.from(b64.text, 'base64').toString('utf16le')), 'powershell');
    }
    if (param === 'file') {
      const f = a[i + 1];
      if (!f) return inv.fail('`-File` without a script');
      if (f.text === '-') return fromStdin(inv, 'powershell', []);
      return inv.sink.follow(f.text.replace(/\\/g, '/'), 'powershell', inv.line, a.slice(i + 2));
    }
    if ((param === 'noexit' || param === 'interactive') && inv.ctx.stdin)
      return inv.fail(`\`${inv.name}\` reads commands from standard input`);
  }
  fromStdin(inv, 'powershell', []);
}

/** cmd.exe: `/c` or `/k` runs the rest of the line. */
function cmd(inv: Invocation): void {
  const a = inv.args;
  for (let i = 0; i < a.length; i++) {
    const t = a[i]!.text;
    if (/^\/[ckr]$/i.test(t)) return inv.runCode(joinWords(a.slice(i + 1)), 'cmd');
    const glued = /^\/[ckr](.+)$/is.exec(t);
    if (glued) return inv.runCode(joinWords([lit(glued[1]!), ...a.slice(i + 1)]), 'cmd');
    if (/^\/([dqsau]|[efv]:(on|off)|t:[0-9a-f]{1,2})$/i.test(t)) continue;
    return inv.fail(`\`cmd\` is given an argument this analysis does not model (${t})`);
  }
  fromStdin(inv, 'cmd', []);
}

export const INTERPRETERS: Record<string, ProgramModel> = {
  bash: shell('bash'),
  zsh: shell('bash'),
  ksh: shell('bash'),
  mksh: shell('bash'),
  sh: shell('sh'),
  dash: shell('sh'),
  ash: shell('sh'),
  python: python,
  python2: python,
  python3: python,
  py: python,
  node: node,
  nodejs: node,
  pwsh: powershell,
  powershell: powershell,
  cmd: cmd,
};
for (const v of names('3.8 3.9 3.10 3.11 3.12 3.13')) INTERPRETERS[`python${v}`] = python;
