import type { Invocation, ProgramModel } from './commands';
import { lit, names, unknown } from './effects';
import { hasOption, optionValues, parseOptions } from './options';
import type { Word } from './types';

/**
 * Raw sockets and remote shells: netcat, socat, telnet, openssl's clients and servers, ssh, scp
 * and rsync. Connecting sends data (`web.post`), listening is `net.listen`, and options that run a
 * local program (`nc -e`, socat `EXEC:`, `ssh -o ProxyCommand=`, `rsync -e`) are analysed as
 * commands — a shell fed from a socket is remote code and fails closed.
 */

const hostTarget = (w: Word | undefined, scheme: string) =>
  w && !w.dynamic ? { kind: 'url' as const, url: `${scheme}://${w.text}` } : unknown(`${scheme} host`);

/** netcat, ncat: `-l` listens, otherwise connects; `-e`/`-c`/`--exec`/`--sh-exec` hand the socket to a program. */
const netcat: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, {
    value: names(
      'p s w q i x X e c o O T g G exec sh-exec lua-exec source source-port wait proxy proxy-type output hex-dump max-conns allow deny idle-timeout',
    ),
    flag: names('l listen k keep-open u udp v n z N d D b C r t 4 6 U ssl send-only recv-only nodns broker chat'),
  });
  if (p.unknown.length || p.dynamicOptions.length) return inv.fail(`\`${inv.name}\` is given options this analysis does not read`);
  const listen = hasOption(p, 'l', 'listen');
  const port = optionValues(p, 'p')[0]?.text ?? p.operands.find((w) => /^\d+$/.test(w.text))?.text ?? '*';
  const host = p.operands.find((w) => !/^\d+(-\d+)?$/.test(w.text));
  if (listen) inv.emit('net.listen', { kind: 'url', url: `tcp://0.0.0.0:${port}` });
  else inv.emit('web.post', host && !host.dynamic ? { kind: 'url', url: `tcp://${host.text}:${port}` } : unknown('socket'));
  optionValues(p, 'o', 'output', 'hex-dump').forEach((w) => inv.touch('write', w));
  const exec = optionValues(p, 'e', 'exec')[0];
  const shellExec = optionValues(p, 'c', 'sh-exec')[0];
  if (exec || shellExec || hasOption(p, 'lua-exec')) {
    inv.sink.finding('remote_code', `connects a program to a network socket: ${inv.ev}`);
    if (exec) return inv.run(exec.text.split(/\s+/).map(lit), 'piped');
    if (shellExec) return inv.runCode(shellExec, 'sh');
    inv.fail('`ncat --lua-exec` runs a Lua script');
  }
};

/** socat ADDRESS ADDRESS: each address reads, writes, connects, listens or runs a program. */
const socat: ProgramModel = (inv) => {
  const addrs = inv.args.filter((w) => !/^-[a-zA-Z]/.test(w.text) || w.dynamic);
  if (addrs.some((w) => w.dynamic)) return inv.fail('`socat` is given an address only known at run time');
  const network = addrs.some(
    (a) => /^(tcp[46]?|udp[46]?|openssl|ssl|sctp|socks4a?|proxy|dtls)[:-]/i.test(a.text) && !/listen|recv/i.test(a.text),
  );
  for (const a of addrs) {
    const [type = '', ...rest] = a.text.split(':');
    const arg = rest.join(':').split(',')[0]!;
    const t = type.toLowerCase();
    if (/listen|^udp-recv/.test(t)) inv.emit('net.listen', { kind: 'url', url: `tcp://0.0.0.0:${arg}` });
    else if (/^(tcp[46]?|udp[46]?|openssl|ssl|sctp|socks4a?|proxy|dtls)$/.test(t)) inv.emit('web.post', hostTarget(lit(arg), 'tcp'));
    else if (t === 'exec' || t === 'system') {
      inv.sink.finding('remote_code', `connects a program to ${network ? 'a network socket' : 'a stream'}: ${inv.ev}`);
      if (t === 'system') inv.runCode(lit(arg), 'sh');
      else inv.run(arg.split(/\s+/).map(lit), network ? 'piped' : undefined);
    } else if (/^(file|open|gopen|create)$/.test(t)) {
      inv.touch('read', lit(arg));
      inv.touch('write', lit(arg));
    } else if (!/^(-|stdio|stdin|stdout|stderr|pty|pipe)$/.test(t) && a.text !== '-')
      return inv.fail(`\`socat\` address type \`${type}\` is not modelled`);
  }
};

/** openssl: `s_client` connects, `s_server` listens; `-in`/`-out` and key files are file access; engines load code. */
const openssl: ProgramModel = (inv) => {
  const sub = inv.args[0]?.text ?? '';
  const args = inv.args.slice(1);
  if (
    args.some(
      (w, i) =>
        /^-(engine|provider|provider-path)$/.test(w.text) ||
        (w.dynamic && i > 0 && /^-/.test(args[i - 1]!.text) === false && w.text.startsWith('\u0000')),
    )
  )
    return inv.fail('`openssl` loads an engine or provider, or is given options only known at run time');
  const valueAfter = (re: RegExp) => args.filter((_w, i) => i > 0 && re.test(args[i - 1]!.text));
  if (sub === 's_client') inv.emit('web.post', hostTarget(valueAfter(/^-connect$/)[0] ?? args.find((w) => !w.text.startsWith('-')), 'tls'));
  if (sub === 's_server')
    inv.emit('net.listen', { kind: 'url', url: `tls://0.0.0.0:${valueAfter(/^-(accept|port)$/)[0]?.text ?? '4433'}` });
  valueAfter(/^-(in|key|inkey|CAfile|cert|kfile|signkey|passin|infiles)$/).forEach((w) =>
    inv.touch('read', { text: w.text.replace(/^file:/, ''), dynamic: w.dynamic }),
  );
  valueAfter(/^-(out|keyout)$/).forEach((w) => inv.touch('write', w));
};

const SSH_VALUE = names('b c D E e F I i J L l m O o p Q R S W w B');
const SSH_FLAG = names('4 6 A a C f G g K k M N n q s T t V v X x Y y');

/** `-o Key=Value` options of ssh and scp: the ones that run a local command are analysed as commands. */
function sshOptions(inv: Invocation, values: Word[]): boolean {
  for (const v of values) {
    if (v.dynamic) return (inv.fail('`ssh -o` with a value only known at run time'), false);
    const m = /^\s*(\w+)\s*[= ]\s*(.*)$/.exec(v.text);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'proxycommand' || key === 'localcommand' || key === 'knownhostscommand' || key === 'match') inv.runCode(lit(m[2]!), 'sh');
    if (key === 'identityfile' || key === 'userknownhostsfile') inv.touch('read', lit(m[2]!));
    if (key === 'include') return (inv.fail('`ssh -o Include=` reads more configuration'), false);
  }
  return true;
}

function sshCommon(inv: Invocation, p: ReturnType<typeof parseOptions>): boolean {
  if (p.unknown.length || p.dynamicOptions.length) return (inv.fail(`\`${inv.name}\` is given options this analysis does not read`), false);
  const config = optionValues(p, 'F')[0];
  if (config && config.text !== '/dev/null') return (inv.fail(`\`${inv.name} -F\` reads a configuration that may run commands`), false);
  optionValues(p, 'i').forEach((w) => inv.touch('read', w));
  return sshOptions(inv, optionValues(p, 'o'));
}

const ssh: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, { value: SSH_VALUE, flag: SSH_FLAG, stopAtOperand: true });
  if (!sshCommon(inv, p)) return;
  optionValues(p, 'E').forEach((w) => inv.touch('write', w));
  for (const f of optionValues(p, 'L', 'D'))
    inv.emit('net.listen', {
      kind: 'url',
      url: `tcp://${f.text.split(':').length > 3 ? f.text.split(':')[0] : '127.0.0.1'}:${f.text.split(':')[0]}`,
    });
  for (const f of optionValues(p, 'R')) inv.emit('net.listen', { kind: 'unknown', hint: `remote forward ${f.text}` });
  const dest = inv.args[p.rest];
  inv.emit('web.post', hostTarget(dest, 'ssh'));
};

const isRemote = (w: Word) => /^(scp|sftp|rsync):\/\//.test(w.text) || /^[^/~.][^/]*:/.test(w.text);

/** scp, and rsync between hosts: upload when the destination is remote, download otherwise. */
function copyRemote(inv: Invocation, operands: Word[]): void {
  const dest = operands.at(-1);
  const sources = operands.slice(0, -1);
  if (!dest) return;
  if (isRemote(dest)) {
    sources.filter((s) => !isRemote(s)).forEach((s) => inv.touch('read', s));
    inv.emit('web.post', hostTarget(lit(dest.text.split(':')[0]!), 'ssh'));
  } else {
    if (sources.some(isRemote)) inv.emit('web.fetch', hostTarget(lit(sources.find(isRemote)!.text.split(':')[0]!), 'ssh'));
    sources.filter((s) => !isRemote(s)).forEach((s) => inv.touch('read', s));
    inv.touch('write', dest);
  }
  if (operands.some((w) => w.dynamic)) inv.emit('web.post', unknown('copy target computed at run time'));
}

const scp: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, {
    value: names('c F i l o P S J D X'),
    flag: names('3 4 6 A B C O p q R r s T v'),
  });
  if (!sshCommon(inv, p)) return;
  if (hasOption(p, 'S', 'D')) return inv.fail('`scp -S` runs another program as its transport');
  copyRemote(inv, p.operands);
};

/** rsync options that take a value (the ones a copy's effects depend on are handled below). */
const RSYNC_VALUE = names(
  'e rsh rsync-path T temp-dir B block-size f filter exclude include exclude-from include-from files-from log-file log-file-format password-file partial-dir backup-dir suffix compare-dest copy-dest link-dest chmod chown usermap groupmap max-size min-size max-delete timeout contimeout port bwlimit out-format info debug compress-level skip-compress modify-window write-batch only-write-batch read-batch protocol iconv checksum-choice compress-choice M remote-option sockopts outbuf config address',
);
const RSYNC_FLAG = 'vqcarRbuLlkKHpEAXogDtOJNUimnWxzhPSs0l8FCyIe'
  .split('')
  .concat(
    names(
      'verbose quiet checksum archive recursive relative backup update links copy-links hard-links perms executability acls xattrs owner group devices specials times omit-dir-times dry-run whole-file one-file-system compress human-readable progress partial sparse delete delete-before delete-during delete-after delete-excluded remove-source-files ignore-existing existing inplace append stats itemize-changes mkpath no-motd size-only ignore-times safe-links copy-unsafe-links numeric-ids fake-super super prune-empty-dirs cvs-exclude list-only daemon no-implied-dirs force ipv4 ipv6 8-bit-output protect-args secluded-args trust-sender copy-dirlinks keep-dirlinks atimes crtimes open-noatime fuzzy delay-updates no-o no-g no-p no-t version help',
    ),
  );

const rsync: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, { value: RSYNC_VALUE, flag: RSYNC_FLAG, abbrev: true });
  if (p.unknown.length || p.dynamicOptions.length) return inv.fail('`rsync` is given options this analysis does not read');
  if (hasOption(p, 'daemon', 'config', 'M', 'remote-option'))
    return inv.fail('`rsync --daemon`/`--config`/`--remote-option` is not modelled');
  const rsh = optionValues(p, 'e', 'rsh')[0];
  if (rsh) {
    if (rsh.dynamic) return inv.fail('`rsync -e` with a transport only known at run time');
    inv.run(rsh.text.split(/\s+/).map(lit));
  }
  optionValues(
    p,
    'files-from',
    'exclude-from',
    'include-from',
    'password-file',
    'read-batch',
    'compare-dest',
    'copy-dest',
    'link-dest',
  ).forEach((w) => inv.touch('read', w));
  optionValues(p, 'log-file', 'write-batch', 'only-write-batch', 'backup-dir').forEach((w) => inv.touch('write', w));
  if (hasOption(p, 'chmod', 'chown', 'usermap', 'groupmap')) p.operands.slice(-1).forEach((w) => inv.touch('permissions', w));
  if (hasOption(p, 'remove-source-files')) p.operands.slice(0, -1).forEach((w) => inv.touch('delete', w));
  if (hasOption(p, 'delete', 'delete-before', 'delete-during', 'delete-after', 'delete-excluded'))
    p.operands.slice(-1).forEach((w) => inv.touch('delete', w));
  copyRemote(inv, p.operands);
};

export const REMOTE_PROGRAMS: Record<string, ProgramModel> = {
  nc: netcat,
  ncat: netcat,
  netcat: netcat,
  socat,
  openssl,
  telnet: (inv) =>
    inv.emit(
      'web.post',
      hostTarget(
        inv.args.find((w) => !w.text.startsWith('-')),
        'tcp',
      ),
    ),
  ssh,
  scp,
  rsync,
};
