import type { Capability } from '../../../../shared/permissions/taxonomy';
import { isProfilePath, isPseudoPath, isSecretPath, socketPath } from './paths';
import {
  API_CLIS,
  CLIPBOARD_READ,
  CLIPBOARD_WRITE,
  DELETERS,
  INERT,
  INTERPRETERS,
  KILLERS,
  PACKAGE_MANAGERS,
  READERS,
  SCREENSHOT,
  SECRET_TOOLS,
  WRAPPERS,
  WRITERS,
} from './programs';
import type { InferenceSink, ScriptLanguage } from './types';

/**
 * What a program invocation may do, from its name and arguments. Shared by the bash analysis,
 * the PowerShell/cmd tokenizer (for native programs) and the Python/JavaScript analyses (for
 * literal subprocess commands). A word whose value is only known at run time is `dynamic`.
 */
export interface Word {
  text: string;
  dynamic: boolean;
}

export const lit = (text: string): Word => ({ text, dynamic: false });
export const DYNAMIC: Word = { text: '\u0000', dynamic: true };

function base(name: string): string {
  return name.replace(/^.*[\\/]/, '').toLowerCase();
}

function show(words: readonly Word[]): string {
  const s = words
    .map((w) => (w.dynamic ? w.text.replaceAll('\u0000', '$…') || '$…' : /\s/.test(w.text) ? `'${w.text}'` : w.text))
    .join(' ');
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
}

/** Emits file capabilities for a path, mapping credentials and profiles to their own capabilities. */
export function touchPath(sink: InferenceSink, access: 'read' | 'write' | 'delete', w: Word, evidence: string, line?: number): void {
  if (w.dynamic && !w.text.replaceAll('\u0000', '')) {
    sink.emit(
      access === 'read' ? 'file.read' : access === 'write' ? 'file.write' : 'file.delete',
      { kind: 'unknown', hint: 'path computed at run time' },
      evidence,
      line,
    );
    return;
  }
  const path = w.text.replaceAll('\u0000', '*');
  if (isPseudoPath(path)) return;
  const sock = socketPath(path);
  if (sock) return sink.emit('web.post', { kind: 'url', url: sock }, evidence, line);
  const target = w.dynamic ? { kind: 'unknown' as const, hint: path } : { kind: 'path' as const, path };
  if (access === 'read') {
    sink.emit('file.read', target, evidence, line);
    if (isSecretPath(path)) sink.emit('secrets.read', target, evidence, line);
  } else {
    sink.emit(access === 'write' ? 'file.write' : 'file.delete', target, evidence, line);
    if (isProfilePath(path)) sink.emit('settings.write', target, evidence, line);
  }
}

/** A URL-ish word: `http://`, `host:path`, `user@host`. */
function urlOf(w: Word): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(w.text)) return w.text.replaceAll('\u0000', '*');
  return undefined;
}

/** Analyses one invocation; `stdin` says the command's input is piped (code run from a pipe is remote code). */
export function analyzeCommand(
  words: readonly Word[],
  sink: InferenceSink,
  line?: number,
  opts: { stdinPiped?: boolean; stdinCode?: string } = {},
): void {
  if (words.length === 0) return;
  const [head, ...rest] = words;
  const ev = show(words);
  if (head!.dynamic) return sink.fail(`the command name is computed at run time (${ev})`, line);
  const name = base(head!.text);
  const args = rest;
  const opt = (re: RegExp) => args.some((a) => !a.dynamic && re.test(a.text));
  const positional = () => args.filter((a) => a.dynamic || !a.text.startsWith('-'));

  if (WRAPPERS.has(name)) {
    if (name === 'sudo' || name === 'doas') sink.finding('privilege_escalation', `runs as root: ${ev}`);
    const i = args.findIndex((a) => a.dynamic || !a.text.startsWith('-'));
    return i < 0 ? undefined : analyzeCommand(args.slice(i), sink, line, opts);
  }
  if (name === 'env') {
    const i = args.findIndex((a) => a.dynamic || (!a.text.startsWith('-') && !a.text.includes('=')));
    if (i < 0) return sink.emit('secrets.read', { kind: 'none' }, `${ev} (prints the environment)`, line);
    return analyzeCommand(args.slice(i), sink, line, opts);
  }
  if (name === 'timeout' || name === 'watch')
    return analyzeCommand(args.filter((a) => !a.text.startsWith('-')).slice(name === 'timeout' ? 1 : 0), sink, line, opts);
  if (name === 'xargs') {
    const i = args.findIndex((a) => a.dynamic || !a.text.startsWith('-'));
    return i < 0 ? undefined : analyzeCommand([...args.slice(i), DYNAMIC], sink, line);
  }
  if (name === 'if' && args.length) return analyzeCmdIf(args, sink, line, opts);
  if (name === 'for' && args.some((a) => /^do$/i.test(a.text)))
    return analyzeCommand(args.slice(args.findIndex((a) => /^do$/i.test(a.text)) + 1), sink, line, opts);
  if (name === 'eval' || name === 'iex' || name === 'invoke-expression') {
    return sink.fail(`\`${name}\` runs code built at run time (${ev})`, line);
  }
  if (name === 'source' || name === '.') {
    const file = args[0];
    if (!file || file.dynamic) return sink.fail(`sources a script whose path is computed at run time (${ev})`, line);
    return sink.follow(file.text, 'bash', line);
  }
  const lang = INTERPRETERS[name] ?? (/^python3(\.\d+)?$/.test(name) ? 'python' : undefined);
  if (lang) return interpreter(lang, name, args, sink, ev, line, opts);
  if (/^[./~]/.test(head!.text) || head!.text.includes('/')) {
    const ext = /\.(sh|bash|py|js|mjs|cjs|ps1|cmd|bat)$/i.exec(head!.text)?.[1]?.toLowerCase();
    const language: ScriptLanguage | undefined =
      ext === 'py'
        ? 'python'
        : ext && ['js', 'mjs', 'cjs'].includes(ext)
          ? 'node'
          : ext === 'ps1'
            ? 'powershell'
            : ext === 'cmd' || ext === 'bat'
              ? 'cmd'
              : ext
                ? 'bash'
                : undefined;
    if (language || !/^\/(usr|bin|sbin|opt)\//.test(head!.text)) return sink.follow(head!.text, language, line);
  }

  if (name === 'curl') return curl(args, sink, ev, line);
  if (name === 'wget') {
    const post = opt(/^--(post-data|post-file|body-data|body-file)|^--method=(post|put|patch)/i);
    for (const a of args) {
      const m = /^--(post-file|body-file)=(.+)$/.exec(a.text);
      if (m) touchPath(sink, 'read', lit(m[2]!), ev, line);
    }
    const outFile = args.findIndex((a) => a.text === '-O' || a.text === '--output-document');
    if (outFile >= 0 && args[outFile + 1]) touchPath(sink, 'write', args[outFile + 1]!, ev, line);
    for (const u of urls(args)) sink.emit(post ? 'web.post' : 'web.fetch', u, ev, line);
    return;
  }
  if (['nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl'].includes(name) && (name !== 'openssl' || opt(/^s_client$/))) {
    const host = positional().find((a) => !/^\d+$/.test(a.text));
    return sink.emit(
      'web.post',
      host && !host.dynamic ? { kind: 'url', url: `tcp://${host.text}` } : { kind: 'unknown', hint: 'socket' },
      ev,
      line,
    );
  }
  if (['scp', 'rsync', 'sftp', 'ftp', 'ssh', 'sshpass', 'lftp', 'smbclient'].includes(name)) {
    const remote = args.filter((a) => /^[^-/][^/]*:/.test(a.text) || /@/.test(a.text));
    const local = positional().filter((a) => !remote.includes(a));
    if (name === 'scp' || name === 'rsync') {
      // The last operand is the destination; a remote destination means upload.
      const dest = positional().at(-1);
      const upload = dest && remote.includes(dest);
      for (const l of local) touchPath(sink, upload ? 'read' : 'write', l, ev, line);
      if (upload) return sink.emit('web.post', { kind: 'url', url: `ssh://${dest.text}` }, ev, line);
      return sink.emit('web.fetch', remote[0] ? { kind: 'url', url: `ssh://${remote[0].text}` } : { kind: 'unknown' }, ev, line);
    }
    const host = remote[0] ?? positional()[0];
    return sink.emit(
      'web.post',
      host && !host.dynamic ? { kind: 'url', url: `ssh://${host.text}` } : { kind: 'unknown', hint: name },
      ev,
      line,
    );
  }
  if (['mail', 'mailx', 'sendmail', 'mutt', 'msmtp', 'swaks'].includes(name))
    return sink.emit('web.post', { kind: 'unknown', hint: 'mail' }, ev, line);
  if (name === 'git') {
    const sub = args.find((a) => !a.text.startsWith('-'))?.text;
    if (sub === 'push' || sub === 'send-email') return sink.emit('web.post', { kind: 'unknown', hint: 'git remote' }, ev, line);
    if (sub === 'clone' || sub === 'fetch' || sub === 'pull') {
      const u = urls(args)[0];
      return sink.emit('web.fetch', u ?? { kind: 'unknown', hint: 'git remote' }, ev, line);
    }
    return;
  }
  if (
    [
      'xdg-open',
      'open',
      'sensible-browser',
      'x-www-browser',
      'firefox',
      'chromium',
      'google-chrome',
      'start',
      'start-process',
      'saps',
    ].includes(name)
  ) {
    const u = urls(args);
    if (u.length) return u.forEach((t) => sink.emit('web.navigate', t, ev, line));
    if (name === 'start-process' || name === 'saps' || name === 'start')
      return sink.emit('app.launch', { kind: 'command', command: ev }, ev, line);
    return;
  }
  if (API_CLIS.has(name)) return sink.emit('external_api.call', { kind: 'unknown', hint: name }, ev, line);
  if (DELETERS.has(name)) return positional().forEach((p) => touchPath(sink, 'delete', p, ev, line));
  if (name === 'find') {
    if (opt(/^-delete$/)) touchPath(sink, 'delete', positional()[0] ?? DYNAMIC, ev, line);
    const exec = args.findIndex((a) => a.text === '-exec' || a.text === '-execdir');
    if (exec >= 0)
      analyzeCommand(
        args
          .slice(exec + 1)
          .filter((a) => a.text !== ';' && a.text !== '+')
          .map((a) => (a.text === '{}' ? DYNAMIC : a)),
        sink,
        line,
      );
    return;
  }
  if (READERS.has(name) || name === 'grep' || name === 'egrep' || name === 'rg') {
    const files = name === 'grep' || name === 'egrep' || name === 'rg' ? positional().slice(1) : positional();
    return files.forEach((p) => touchPath(sink, 'read', p, ev, line));
  }
  if (name === 'cp' || name === 'copy' || name === 'copy-item' || name === 'mv' || name === 'move' || name === 'move-item') {
    const ps = positional();
    const dest = ps.at(-1);
    ps.slice(0, -1).forEach((p) => touchPath(sink, name.startsWith('mv') || name.startsWith('move') ? 'delete' : 'read', p, ev, line));
    if (name.startsWith('mv') || name.startsWith('move')) ps.slice(0, -1).forEach((p) => touchPath(sink, 'read', p, ev, line));
    if (dest) touchPath(sink, 'write', dest, ev, line);
    return;
  }
  if (name === 'dd') {
    for (const a of args) {
      const m = /^(if|of)=(.+)$/.exec(a.text);
      if (m) touchPath(sink, m[1] === 'if' ? 'read' : 'write', { text: m[2]!, dynamic: a.dynamic }, ev, line);
    }
    return;
  }
  if (name === 'sed' && opt(/^(-i|--in-place)/))
    return positional()
      .slice(1)
      .forEach((p) => touchPath(sink, 'write', p, ev, line));
  if (WRITERS.has(name))
    return positional()
      .slice(name === 'chmod' || name === 'chown' || name === 'chgrp' ? 1 : 0)
      .forEach((p) => touchPath(sink, 'write', p, ev, line));
  if (name === 'tar') return tar(args, sink, ev, line);
  if (name === 'zip' || name === '7z' || name === 'gzip') return positional().forEach((p) => touchPath(sink, 'read', p, ev, line));
  const pm = PACKAGE_MANAGERS[name];
  if (pm && args.some((a) => pm.test(a.text))) return sink.emit('package.install', { kind: 'command', command: ev }, ev, line);
  if (name === 'crontab' && !opt(/^-l$/)) {
    sink.finding('persistence', `installs a cron table: ${ev}`);
    return sink.emit('scheduled_job.create', { kind: 'command', command: ev }, ev, line);
  }
  if (
    name === 'at' ||
    name === 'batch' ||
    name === 'systemd-run' ||
    (name === 'schtasks' && opt(/^\/create$/i)) ||
    name === 'register-scheduledtask' ||
    (name === 'systemctl' && opt(/^enable$/)) ||
    (name === 'launchctl' && opt(/^(load|bootstrap|submit)$/))
  ) {
    sink.finding('persistence', `schedules a job: ${ev}`);
    return sink.emit('scheduled_job.create', { kind: 'command', command: ev }, ev, line);
  }
  if (KILLERS.has(name)) return sink.emit('process.kill', { kind: 'command', command: ev }, ev, line);
  if ((name === 'reg' && opt(/^(add|delete|import|copy|load|restore)$/i)) || name === 'regedit' || name === 'regedit.exe') {
    return sink.emit('registry.write', { kind: 'path', path: positional()[1]?.text ?? 'registry' }, ev, line);
  }
  if (name === 'setx') return sink.emit('env_var.write', { kind: 'none' }, ev, line);
  if (
    (name === 'gsettings' && opt(/^(set|reset)$/)) ||
    (name === 'dconf' && opt(/^(write|load|reset)$/)) ||
    (name === 'defaults' && opt(/^write$/)) ||
    (name === 'xdg-settings' && opt(/^set$/)) ||
    (name === 'xdg-mime' && opt(/^default$/)) ||
    name === 'update-alternatives' ||
    (name === 'sysctl' && opt(/^-w$/)) ||
    name === 'chsh' ||
    (name === 'timedatectl' && opt(/^set-/)) ||
    name === 'netsh'
  ) {
    return sink.emit('settings.write', { kind: 'command', command: ev }, ev, line);
  }
  const secretRule = SECRET_TOOLS[name];
  if (secretRule && (secretRule === true || args.some((a) => secretRule.test(a.text))))
    return sink.emit('secrets.read', { kind: 'command', command: ev }, ev, line);
  if (name === 'xclip' || name === 'xsel') {
    const out = opt(/^(-o|-out|--output)$/);
    return sink.emit(out ? 'clipboard.read' : 'clipboard.write', { kind: 'none' }, ev, line);
  }
  if (CLIPBOARD_READ.has(name)) return sink.emit('clipboard.read', { kind: 'none' }, ev, line);
  if (CLIPBOARD_WRITE.has(name)) return sink.emit('clipboard.write', { kind: 'none' }, ev, line);
  if (SCREENSHOT.has(name)) return sink.emit('screen.capture', { kind: 'none' }, ev, line);
  if (name === 'xdotool' || name === 'ydotool' || name === 'wtype') {
    const keys = opt(/^(type|key|keydown|keyup)$/) || name === 'wtype';
    return sink.emit(keys ? 'input.keyboard' : 'input.mouse', { kind: 'unknown', hint: 'any window' }, ev, line);
  }
  if (['perl', 'ruby', 'php', 'lua', 'osascript', 'wscript', 'cscript', 'mshta', 'rundll32', 'awk'].includes(name) && opt(/^-(e|E|r)$/)) {
    return sink.fail(`\`${name}\` runs inline code this analysis cannot read (${ev})`, line);
  }
  if (name === 'sed')
    return positional()
      .slice(1)
      .forEach((p) => touchPath(sink, 'read', p, ev, line));
  if (INERT.has(name) || READERS.has(name)) return;
  // A program with no rule here: its effects cannot be read from its name, so running it is
  // `shell.execute` (declared, or confirmed by the user), and a credential path handed to it
  // (as an operand, `--opt=PATH` or `@PATH`) counts as read.
  for (const a of args) {
    const value = /^(?:--?[\w-]+=|@)(.+)$/.exec(a.text)?.[1] ?? a.text;
    if (isSecretPath(value.replaceAll('\u0000', '*'))) touchPath(sink, 'read', { text: value, dynamic: a.dynamic }, ev, line);
  }
  sink.emit('shell.execute', { kind: 'command', command: ev }, ev, line);
}

/** cmd.exe `if [/i] [not] (exist X | defined V | errorlevel N | A==B | A op B) command`: the command after the condition. */
function analyzeCmdIf(args: readonly Word[], sink: InferenceSink, line: number | undefined, opts: { stdinPiped?: boolean }): void {
  let i = 0;
  if (/^\/i$/i.test(args[i]?.text ?? '')) i++;
  if (/^not$/i.test(args[i]?.text ?? '')) i++;
  const cond = args[i]?.text ?? '';
  if (/^(exist|defined|errorlevel|cmdextversion)$/i.test(cond)) i += 2;
  else if (cond.includes('==')) i += 1;
  else if (/^(equ|neq|lss|leq|gtr|geq)$/i.test(args[i + 1]?.text ?? '')) i += 3;
  else return sink.fail(`a cmd \`if\` whose condition this analysis cannot read (${show([lit('if'), ...args])})`, line);
  const rest = args
    .slice(i)
    .map((a, k) => (k === 0 && a.text.startsWith('(') ? { ...a, text: a.text.slice(1) } : a))
    .filter((a) => a.text !== '' && a.text !== ')');
  analyzeCommand(rest, sink, line, opts);
}

/** `tar czf out.tgz dir` (old-style bundle) or `tar -c -f out.tgz dir`: create reads files, extract writes them. */
function tar(args: readonly Word[], sink: InferenceSink, ev: string, line?: number): void {
  const rest = [...args];
  let flags = '';
  if (rest[0] && !rest[0].dynamic && /^[A-Za-z]+$/.test(rest[0].text)) flags = rest.shift()!.text;
  let archive: Word | undefined;
  const files: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (!a.dynamic && a.text.startsWith('-') && a.text !== '-') {
      if (/^--file=/.test(a.text)) archive = { text: a.text.slice(7), dynamic: false };
      else if (/^-[A-Za-z]*f$|^--file$/.test(a.text)) archive = rest[++i];
      flags += a.text.startsWith('--') ? ` ${a.text} ` : a.text.slice(1);
      continue;
    }
    files.push(a);
  }
  if (!archive && flags.includes('f') && !/--/.test(flags)) archive = files.shift();
  const extract = /x|--extract|--get/.test(flags);
  if (archive) touchPath(sink, extract ? 'read' : 'write', archive, ev, line);
  for (const f of files) touchPath(sink, extract ? 'write' : 'read', f, ev, line);
}

function urls(args: readonly Word[]) {
  return args.flatMap((a) => {
    const u = urlOf(a);
    return u ? [{ kind: 'url' as const, url: u }] : [];
  });
}

function curl(args: readonly Word[], sink: InferenceSink, ev: string, line?: number): void {
  let post = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.text;
    const next = args[i + 1];
    const m =
      /^(-d|--data|--data-binary|--data-raw|--data-urlencode|--json|-F|--form|--form-string|-T|--upload-file)(=(.*))?$/.exec(a) ??
      (/^-[dFT]./.test(a) ? [a, a.slice(0, 2), '=', a.slice(2)] : null);
    if (m) {
      post = true;
      const value = m[3] !== undefined ? { text: m[3], dynamic: args[i]!.dynamic } : next;
      if (m[3] === undefined) i++;
      if (!value) continue;
      // `@file` (and `<file` for forms) sends a file's content; -T uploads the named file.
      const file = m[1] === '-T' || m[1] === '--upload-file' ? value.text : /(?:^|=)[@<]([^;,]+)/.exec(value.text)?.[1];
      if (file !== undefined) touchPath(sink, 'read', { text: file, dynamic: value.dynamic }, ev, line);
    } else if (/^(-X|--request)$/.test(a) && next && /^(POST|PUT|PATCH|DELETE)$/i.test(next.text)) post = true;
    else if (/^-X(POST|PUT|PATCH)$/i.test(a) || /^--request=(POST|PUT|PATCH)$/i.test(a)) post = true;
    else if ((a === '-o' || a === '--output') && next) touchPath(sink, 'write', next, ev, line);
    else if ((a === '-K' || a === '--config' || a === '--netrc-file') && next) touchPath(sink, 'read', next, ev, line);
  }
  const targets = urls(args);
  const cap: Capability = post ? 'web.post' : 'web.fetch';
  if (targets.length === 0) sink.emit(cap, { kind: 'unknown', hint: 'URL computed at run time' }, ev, line);
  for (const t of targets) sink.emit(cap, t, ev, line);
}

function interpreter(
  lang: ScriptLanguage,
  name: string,
  args: readonly Word[],
  sink: InferenceSink,
  ev: string,
  line: number | undefined,
  opts: { stdinPiped?: boolean; stdinCode?: string },
): void {
  const inlineFlag =
    lang === 'python'
      ? /^-c$/
      : lang === 'node'
        ? /^(-e|--eval|-p|--print)$/
        : lang === 'powershell'
          ? /^-(c|command)$/i
          : lang === 'cmd'
            ? /^\/[ck]$/i
            : /^-c$/;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (inlineFlag.test(a.text)) {
      const code = lang === 'cmd' || lang === 'powershell' ? args.slice(i + 1) : args.slice(i + 1, i + 2);
      if (code.length === 0 || code.some((c) => c.dynamic)) return sink.fail(`\`${name}\` runs code computed at run time (${ev})`, line);
      return sink.inline(code.map((c) => c.text).join(' '), lang, line);
    }
    if (lang === 'powershell' && /^-(e|enc|encodedcommand)$/i.test(a.text))
      return sink.fail(`\`${name} -EncodedCommand\` hides the code it runs (${ev})`, line);
    if (lang === 'powershell' && /^-(f|file)$/i.test(a.text)) {
      const f = args[i + 1];
      return !f || f.dynamic
        ? sink.fail(`runs a script whose path is computed at run time (${ev})`, line)
        : sink.follow(f.text, 'powershell', line);
    }
    if (lang === 'python' && a.text === '-m') {
      const mod = args[i + 1]?.text;
      if (mod === 'pip' && args.slice(i + 2).some((x) => /^(install|uninstall)$/.test(x.text)))
        return sink.emit('package.install', { kind: 'command', command: ev }, ev, line);
      if (mod === 'http.server') return;
      return sink.fail(`runs Python module \`${mod ?? '?'}\`, which this analysis does not read (${ev})`, line);
    }
    if (a.dynamic) return sink.fail(`\`${name}\` runs a script whose path is computed at run time (${ev})`, line);
    if (a.text.startsWith('-') || (lang === 'cmd' && a.text.startsWith('/'))) continue;
    return sink.follow(a.text, lang, line);
  }
  // No script and no inline code: the interpreter reads its program from standard input.
  if (opts.stdinCode !== undefined) return sink.inline(opts.stdinCode, lang, line);
  if (opts.stdinPiped) {
    sink.finding('remote_code', `pipes data into \`${name}\` and runs it as code (${ev})`);
    return sink.fail(`pipes data into \`${name}\`, which runs it as code that cannot be analysed (${ev})`, line);
  }
}
