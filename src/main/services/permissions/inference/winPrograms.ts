import type { ProgramModel } from './commands';
import { lit, names, unknown, urlOf } from './effects';
import type { Word } from './types';

/**
 * Windows programs (reg, certutil, bitsadmin, wmic, sc, icacls, net, netsh, forfiles, vssadmin,
 * esentutl, robocopy...) and cmd.exe's built-in commands (copy, del, start, call, path...), whose
 * switches start with `/`.
 */

const switches = (args: readonly Word[]) => args.filter((w) => !w.dynamic && /^[/-]/.test(w.text)).map((w) => w.text.toLowerCase());
const operandsOf = (args: readonly Word[]) => args.filter((w) => w.dynamic || !/^\/[a-z?]/i.test(w.text));
const has = (args: readonly Word[], re: RegExp) => args.some((w) => re.test(w.text));
const dynAt = (dir: string) => ({ text: `${dir}\\\u0000`, dynamic: true });

const PERSISTENT_KEY =
  /\\(Run|RunOnce|RunServices|Winlogon|Image File Execution Options|Services|Shell Folders|Explorer\\Shell|Policies\\Explorer\\Run|Environment|Command Processor)(\\|$)/i;

const reg: ProgramModel = (inv) => {
  const [op, key, ...rest] = inv.args;
  if (!op || op.dynamic) return inv.fail('`reg` with an operation only known at run time');
  const o = op.text.toLowerCase();
  if (o === 'query' || o === 'compare') return;
  if (o === 'save' || o === 'export') {
    if (key && /\\(SAM|SECURITY|SYSTEM)$/i.test(key.text)) inv.emit('secrets.read', { kind: 'path', path: key.text });
    const file = rest.find((w) => !w.text.startsWith('/'));
    if (file) inv.touch('write', file);
    return;
  }
  if (!/^(add|delete|import|copy|load|unload|restore|flags)$/.test(o)) return inv.fail(`\`reg ${op.text}\` is not modelled`);
  if (o === 'import' && key) inv.touch('read', key);
  if (key && PERSISTENT_KEY.test(key.text)) inv.sink.finding('persistence', `writes an autostart registry key: ${inv.ev}`);
  inv.emit('registry.write', key && !key.dynamic ? { kind: 'path', path: key.text } : unknown('registry key computed at run time'));
};

const certutil: ProgramModel = (inv) => {
  const sw = switches(inv.args);
  const ops = inv.args.filter((w) => !/^[-/]/.test(w.text) || w.dynamic);
  if (sw.includes('-urlcache') || sw.includes('/urlcache') || sw.includes('-verifyctl')) {
    const url = ops.find((w) => urlOf(w));
    inv.emit('web.fetch', url ? urlOf(url)! : unknown('URL computed at run time'));
    const file = ops.filter((w) => !urlOf(w)).at(-1);
    if (file) inv.touch('write', file);
    return;
  }
  if (sw.some((s) => /^[-/](decode|decodehex|encode|encodehex)$/.test(s))) {
    if (ops[0]) inv.touch('read', ops[0]);
    if (ops[1]) inv.touch('write', ops[1]);
    return;
  }
  if (sw.some((s) => /^[-/](hashfile|dump|dumppfx|verify)$/.test(s))) return ops.slice(0, 1).forEach((w) => inv.touch('read', w));
  if (sw.some((s) => /^[-/](addstore|delstore|importpfx|repairstore)$/.test(s)))
    return inv.emit('settings.write', { kind: 'command', command: inv.ev });
  inv.fail('`certutil` with a verb this analysis does not model');
};

const bitsadmin: ProgramModel = (inv) => {
  const sw = switches(inv.args);
  const ops = inv.args.filter((w) => !/^\//.test(w.text) || w.dynamic);
  if (sw.some((s) => /^\/setnotifycmdline$/.test(s))) {
    inv.sink.finding('persistence', `makes a BITS job run a program: ${inv.ev}`);
    const i = inv.args.findIndex((w) => /^\/setnotifycmdline$/i.test(w.text));
    return inv.run(inv.args.slice(i + 2).filter((w) => w.text.toUpperCase() !== 'NULL'));
  }
  if (sw.some((s) => /^\/(transfer|addfile|create)$/.test(s))) {
    const upload = sw.includes('/upload');
    const url = ops.find((w) => urlOf(w));
    inv.emit(upload ? 'web.post' : 'web.fetch', url ? urlOf(url)! : unknown('URL computed at run time'));
    const file = ops.filter((w) => !urlOf(w)).at(-1);
    if (file && url) inv.touch(upload ? 'read' : 'write', file);
    return;
  }
  if (sw.some((s) => /^\/(resume|complete|cancel|list|info|monitor|getstate|reset|suspend)$/.test(s))) return;
  inv.fail('`bitsadmin` with a switch this analysis does not model');
};

const wmic: ProgramModel = (inv) => {
  if (has(inv.args, /^\/node:/i)) inv.emit('web.post', unknown('remote WMI'));
  const words = inv.args.map((w) => w.text.toLowerCase());
  const call = words.indexOf('call');
  if (call >= 0) {
    if (words[call - 1] === 'process' && words[call + 1] === 'create') {
      const cmd = inv.args.slice(call + 2);
      inv.emit('shell.execute', { kind: 'command', command: inv.ev });
      return inv.run(cmd.length === 1 ? splitCommandLine(cmd[0]!) : cmd);
    }
    return inv.fail('`wmic ... call` runs a WMI method');
  }
  if (words.includes('delete')) return inv.emit('process.kill', { kind: 'command', command: inv.ev });
  if (words.some((w) => w === 'set' || w === 'create')) return inv.emit('settings.write', { kind: 'command', command: inv.ev });
};

/** Splits a Windows command line on blanks outside double quotes. */
export function splitCommandLine(w: Word): Word[] {
  if (w.dynamic) return [w];
  return (w.text.match(/"[^"]*"|[^\s"]+/g) ?? []).map((t) => lit(t.replace(/^"|"$/g, '')));
}

const sc: ProgramModel = (inv) => {
  // `sc \\server create ...`: the server name comes first.
  const args = /^\\\\/.test(inv.args[0]?.text ?? '') ? inv.args.slice(1) : inv.args;
  const o = args[0]?.text.toLowerCase() ?? '';
  if (/^(create|config)$/.test(o)) {
    inv.sink.finding('persistence', `creates or changes a service: ${inv.ev}`);
    return inv.emit('scheduled_job.create', { kind: 'command', command: inv.ev });
  }
  if (/^(start|stop|delete|pause|continue|failure|sdset|control)$/.test(o))
    return inv.emit('settings.write', { kind: 'command', command: inv.ev });
  if (/^(query|queryex|qc|qdescription|getdisplayname|getkeyname|enumdepend|sdshow|qfailure)$/.test(o)) return;
  inv.fail(`\`sc ${o}\` is not modelled`);
};

const net: ProgramModel = (inv) => {
  const sub = inv.args[0]?.text.toLowerCase() ?? '';
  if (inv.args.some((w) => w.dynamic)) return inv.fail('`net` with arguments only known at run time');
  if (sub === 'use' && inv.args.length > 1) return inv.emit('web.post', unknown(`share ${inv.args[1]!.text}`));
  if (/^(user|localgroup|group|accounts|share)$/.test(sub) && has(inv.args, /^\/(add|delete|del|active|domain:?)/i))
    return inv.emit('settings.write', { kind: 'command', command: inv.ev });
  if (/^(start|stop|pause|continue)$/.test(sub) && inv.args.length > 1)
    return inv.emit('settings.write', { kind: 'command', command: inv.ev });
  if (/^(user|localgroup|group|accounts|share|session|view|use|start|statistics|config|time|file|helpmsg)$/.test(sub)) return;
  inv.fail(`\`net ${sub}\` is not modelled`);
};

const netsh: ProgramModel = (inv) => {
  const a = inv.args.map((w) => w.text.toLowerCase());
  if (inv.args.some((w) => w.dynamic) || a.includes('helper') || a.includes('exec'))
    return inv.fail('`netsh` loads a helper or runs a script');
  if (a.includes('key=clear')) inv.emit('secrets.read', { kind: 'command', command: inv.ev });
  if (a.includes('export')) inv.touch('write', dynAt(inv.args.find((w) => /^folder=/i.test(w.text))?.text.slice(7) ?? '.'));
  if (a.some((w) => /^(show|dump|export)$/.test(w))) return;
  inv.emit('settings.write', { kind: 'command', command: inv.ev });
};

/** forfiles /p DIR /m MASK /c "CMD @file": the command runs once per file. */
const forfiles: ProgramModel = (inv) => {
  const valueOf = (flag: string) => {
    const i = inv.args.findIndex((w) => w.text.toLowerCase() === flag);
    return i >= 0 ? inv.args[i + 1] : undefined;
  };
  const dir = valueOf('/p')?.text ?? '.';
  const cmd = valueOf('/c') ?? lit('cmd /c echo @file');
  if (cmd.dynamic) return inv.fail('`forfiles /c` runs a command only known at run time');
  const text = cmd.text.replace(/0x22/gi, '"').replace(/@(file|fname|ext|path|relpath|isdir|fsize|fdate|ftime)\b/gi, `${dir}\\\u0000`);
  inv.run(splitCommandLine(lit(text)).map((w) => (w.text.includes('\u0000') ? { ...w, dynamic: true } : w)));
};

const icacls: ProgramModel = (inv) => {
  const target = inv.args.find((w) => !/^[+/-]/.test(w.text) || w.dynamic);
  inv.touch('permissions', target ?? { text: '\u0000', dynamic: true });
};

const copyLike =
  (kind: 'copy' | 'move'): ProgramModel =>
  (inv) => {
    const ops = operandsOf(inv.args).filter((w) => w.text !== '+');
    const sources = ops.length > 1 ? ops.slice(0, -1) : ops;
    const dest = ops.length > 1 ? ops.at(-1)! : lit('.');
    for (const s of sources) {
      inv.touch('read', s);
      if (kind === 'move' || has(inv.args, /^\/(mov|move)$/i)) inv.touch('delete', s);
    }
    inv.touch('write', dest);
    if (has(inv.args, /^\/(purge|mir)$/i)) inv.touch('delete', dest);
  };

const byOperands =
  (access: 'read' | 'write' | 'delete'): ProgramModel =>
  (inv) =>
    operandsOf(inv.args).forEach((w) => inv.touch(access, w));

export const WIN_PROGRAMS: Record<string, ProgramModel> = {
  reg,
  certutil,
  bitsadmin,
  wmic,
  sc,
  net,
  net1: net,
  netsh,
  forfiles,
  icacls,
  cacls: icacls,
  takeown: icacls,
  attrib: icacls,
  setx: (inv) => inv.emit('env_var.write', { kind: 'command', command: inv.ev }),
  vssadmin: (inv) => (has(inv.args, /^(delete|resize)$/i) ? inv.emit('file.delete', unknown('volume shadow copies')) : undefined),
  wevtutil: (inv) =>
    has(inv.args, /^(cl|clear-log|sl|set-log|im|install-manifest|um)$/i) ? inv.emit('file.delete', unknown('event log')) : undefined,
  bcdedit: (inv) =>
    has(inv.args, /^\/(set|delete|create|copy|import|deletevalue)$/i)
      ? inv.emit('settings.write', { kind: 'command', command: inv.ev })
      : undefined,
  esentutl: (inv) => {
    const i = inv.args.findIndex((w) => /^\/y$/i.test(w.text));
    const d = inv.args.findIndex((w) => /^\/d$/i.test(w.text));
    if (i < 0) return inv.fail('`esentutl` with a mode this analysis does not model');
    if (inv.args[i + 1]) inv.touch('read', inv.args[i + 1]!);
    inv.touch('write', d >= 0 && inv.args[d + 1] ? inv.args[d + 1]! : dynAt('.'));
  },
  robocopy: copyLike('copy'),
  xcopy: copyLike('copy'),
  explorer: (inv) => {
    const t = inv.args.find((w) => !/^\//.test(w.text));
    if (!t || t.dynamic) return t ? inv.fail('`explorer` opens something only known at run time') : undefined;
    inv.emit(urlOf(t) ? 'web.navigate' : 'app.launch', urlOf(t) ?? { kind: 'command', command: inv.ev });
  },
  dism: (inv) => inv.emit('package.install', { kind: 'command', command: inv.ev }),
  pnputil: (inv) => inv.emit('package.install', { kind: 'command', command: inv.ev }),
};

/** cmd.exe's own commands (only when the words come from a cmd script). */
export const CMD_BUILTINS: Record<string, ProgramModel> = {
  ...Object.fromEntries(
    names(
      'timeout setlocal endlocal rem goto title cls ver pause vol prompt color choice chcp verify break exit shift pushd popd cd chdir dir echo where tree set',
    ).map((n) => [n, () => undefined]),
  ),
  date: (inv) =>
    inv.args.some((w) => !/^\/t$/i.test(w.text)) ? inv.emit('settings.write', { kind: 'command', command: inv.ev }) : undefined,
  time: (inv) =>
    inv.args.some((w) => !/^\/t$/i.test(w.text)) ? inv.emit('settings.write', { kind: 'command', command: inv.ev }) : undefined,
  copy: copyLike('copy'),
  move: copyLike('move'),
  del: byOperands('delete'),
  erase: byOperands('delete'),
  rd: byOperands('delete'),
  rmdir: byOperands('delete'),
  md: byOperands('write'),
  mkdir: byOperands('write'),
  type: byOperands('read'),
  more: byOperands('read'),
  fc: byOperands('read'),
  comp: byOperands('read'),
  find: (inv) =>
    operandsOf(inv.args)
      .slice(1)
      .forEach((w) => inv.touch('read', w)),
  sort: (inv) => {
    const o = inv.args.findIndex((w) => /^\/o(utput)?$/i.test(w.text));
    if (o >= 0 && inv.args[o + 1]) inv.touch('write', inv.args[o + 1]!);
    operandsOf(inv.args)
      .filter((_w, k) => k !== o + 1)
      .forEach((w) => inv.touch('read', w));
  },
  ren: (inv) => {
    const [src, dst] = operandsOf(inv.args);
    if (src) ['read', 'delete'].forEach((a) => inv.touch(a as 'read', src));
    if (dst) inv.touch('write', src ? { text: src.text.replace(/[^\\/]*$/, dst.text), dynamic: src.dynamic || dst.dynamic } : dst);
  },
  mklink: (inv) => {
    const [link, target] = operandsOf(inv.args);
    if (link) inv.touch('write', link);
    if (target) inv.touch('read', target);
  },
  path: (inv) => (inv.args.length ? inv.fail('`path` changes where programs are found') : undefined),
  assoc: (inv) => (has(inv.args, /=/) ? inv.emit('settings.write', { kind: 'command', command: inv.ev }) : undefined),
  ftype: (inv) => (has(inv.args, /=/) ? inv.emit('settings.write', { kind: 'command', command: inv.ev }) : undefined),
  call: (inv) => {
    const [target, ...rest] = inv.args;
    if (!target || (!target.dynamic && target.text.startsWith(':'))) return; // a label of this script, analysed where it is
    // `call` expands `%...%` a second time: what survived the first expansion is only known at run time.
    inv.run([target, ...rest].map((w) => (w.text.includes('%') ? { text: w.text, dynamic: true } : w)));
  },
  start: (inv) => {
    const a = inv.args.filter(
      (w, k) =>
        !/^\/(min|max|wait|b|i|separate|shared|low|normal|high|realtime|abovenormal|belownormal|node|affinity)$/i.test(w.text) &&
        !/^\/(d|node|affinity)$/i.test(inv.args[k - 1]?.text ?? ''),
    );
    const [target, ...rest] = a;
    if (!target) return;
    if (urlOf(target) && !target.dynamic) return inv.emit('web.navigate', urlOf(target)!);
    if (!target.dynamic && /\.(txt|docx?|xlsx?|pdf|png|jpe?g|html?)$/i.test(target.text))
      return inv.emit('app.launch', { kind: 'command', command: inv.ev });
    inv.run([target, ...rest]);
  },
};
