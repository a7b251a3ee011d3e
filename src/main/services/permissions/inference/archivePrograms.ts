import type { ProgramModel } from './commands';
import { entry, lit, names } from './effects';
import { hasOption, optionValues, parseOptions } from './options';
import type { Word } from './types';

/**
 * Archivers and compressors: creating reads the files and writes the archive, extracting the
 * reverse; tar's options that run programs (`--checkpoint-action=exec=`, `--to-command`,
 * `-I PROG`, `--rsh-command`) and `zip -TT CMD` are analysed as commands.
 */

const dyn = (text: string): Word => ({ text, dynamic: true });

const TAR_VALUE = names(
  'f C T X b I F g K L N V H file directory files-from exclude-from blocking-factor use-compress-program info-script new-volume-script listed-incremental starting-file tape-length newer newer-mtime after-date label format owner group mode mtime transform xform exclude strip-components checkpoint checkpoint-action to-command rsh-command index-file volno-file backup suffix occurrence record-size quoting-style sparse-version level warning one-top-level exclude-tag exclude-tag-all exclude-tag-under pax-option add-file hole-detection atime-preserve',
);
const TAR_FLAG = 'cxtrudAvzjJZapskUOhPWwSMGBimolRn'
  .split('')
  .concat(
    names(
      'create extract get list append update diff compare catenate concatenate delete verbose gzip gunzip ungzip bzip2 xz lzip lzma lzop zstd compress uncompress auto-compress preserve-permissions same-permissions preserve-order same-order keep-old-files keep-newer-files overwrite overwrite-dir unlink-first recursive-unlink remove-files to-stdout dereference hard-dereference absolute-names verify interactive confirmation sparse multi-volume incremental read-full-records ignore-zeros touch no-same-owner no-same-permissions numeric-owner same-owner check-links block-number seek no-recursion recursion wildcards no-wildcards anchored ignore-case null totals show-transformed-names skip-old-files no-overwrite-dir delay-directory-restore acls selinux xattrs no-acls no-selinux no-xattrs full-time utc exclude-vcs exclude-vcs-ignores exclude-backups exclude-caches exclude-caches-all exclude-caches-under one-file-system ignore-failed-read no-auto-compress force-local show-defaults show-omitted-dirs no-null unquote no-unquote version help',
    ),
  );

/** tar: create reads files and writes the archive, extract the reverse; options that run programs are analysed. */
const tar: ProgramModel = (inv) => {
  let args = [...inv.args];
  // Old-style `tar czf out.tgz dir`: the first word is a bundle whose value letters take the next words in order.
  if (args[0] && !args[0].dynamic && /^[A-Za-z]+$/.test(args[0].text)) {
    const out: Word[] = [];
    let next = 1;
    for (const c of args[0].text) {
      out.push(lit(`-${c}`));
      if (TAR_VALUE.includes(c) && args[next]) out.push(args[next++]!);
    }
    args = [...out, ...args.slice(next)];
  }
  const p = parseOptions(args, { value: TAR_VALUE, flag: TAR_FLAG });
  if (p.unknown.length || p.dynamicOptions.length) return inv.fail('`tar` is given options this analysis does not read');
  for (const o of p.options) {
    const v = o.value;
    if (!v) continue;
    if (o.name === 'checkpoint-action') {
      const m = /^(exec|shell)=(.*)$/s.exec(v.text);
      if (m || v.dynamic) inv.runCode({ text: m ? m[2]! : v.text, dynamic: v.dynamic }, 'sh');
    } else if (['to-command', 'info-script', 'new-volume-script', 'F'].includes(o.name)) inv.runCode(v, 'sh');
    else if (['use-compress-program', 'I', 'rsh-command'].includes(o.name)) {
      if (v.dynamic) return inv.fail('`tar` runs a program only known at run time');
      inv.run(v.text.split(/\s+/).map(lit), 'piped');
    } else if (['index-file', 'volno-file'].includes(o.name)) inv.touch('write', v);
    else if (names('T files-from X exclude-from g listed-incremental').includes(o.name)) inv.touch('read', v);
  }
  const archive = optionValues(p, 'f', 'file')[0];
  const dir = optionValues(p, 'C', 'directory').at(-1);
  const at = (w: Word) => (dir && !/^[/~]/.test(w.text) ? { text: `${dir.text}/${w.text}`, dynamic: dir.dynamic || w.dynamic } : w);
  const extract = hasOption(p, 'x', 'extract', 'get');
  const listing = hasOption(p, 't', 'list', 'd', 'diff', 'compare');
  if (archive && archive.text !== '-') {
    if (/^[^/~.][^/]*:/.test(archive.text) && !hasOption(p, 'force-local'))
      inv.emit('web.post', { kind: 'url', url: `ssh://${archive.text}` });
    else inv.touch(extract || listing ? 'read' : 'write', archive);
    if (!extract && !listing) inv.touch('read', archive);
  }
  if (extract) {
    if (!hasOption(p, 'O', 'to-stdout')) inv.touch('write', dir ? { text: `${dir.text}/\u0000`, dynamic: true } : dyn('\u0000'));
    return;
  }
  if (hasOption(p, 'T', 'files-from')) inv.touch('read', dyn('\u0000'));
  for (const f of p.operands) {
    inv.touch('read', at(f));
    if (hasOption(p, 'remove-files')) inv.touch('delete', at(f));
  }
};

const COMPRESS_EXT: Record<string, string> = {
  gzip: '.gz',
  pigz: '.gz',
  bzip2: '.bz2',
  xz: '.xz',
  lzma: '.lzma',
  zstd: '.zst',
  lz4: '.lz4',
  compress: '.Z',
};
const DECOMPRESS: Record<string, string> = {
  gunzip: 'gzip',
  bunzip2: 'bzip2',
  unxz: 'xz',
  unlzma: 'lzma',
  unzstd: 'zstd',
  uncompress: 'compress',
};

/** gzip & co.: each FILE is replaced by FILE.gz (or the reverse), unless writing to standard output. */
const compressor: ProgramModel = (inv) => {
  const tool = entry(DECOMPRESS, inv.name) ?? inv.name;
  const p = parseOptions(inv.args, { value: names('S suffix b T threads o output M memlimit') });
  const ext = optionValues(p, 'S', 'suffix')[0]?.text ?? entry(COMPRESS_EXT, tool) ?? '';
  const toStdout =
    p.options.some((o) => /^(c|stdout|to-stdout|t|test|l|list)$/.test(o.name)) || inv.args.some((w) => /^-[a-zA-Z]*[ctl]/.test(w.text));
  const decompress = tool !== inv.name || inv.args.some((w) => /^(-[a-zA-Z]*d|--decompress|--uncompress)$/.test(w.text));
  const keep = inv.args.some((w) => /^(-[a-zA-Z]*k|--keep)$/.test(w.text));
  if (p.dynamicOptions.length) ['read', 'write', 'delete'].forEach((x) => inv.touch(x as 'read', dyn('\u0000')));
  for (const f of p.operands) {
    inv.touch('read', f);
    if (toStdout) continue;
    const out = decompress
      ? { ...f, text: f.text.endsWith(ext) ? f.text.slice(0, -ext.length) : f.text.replace(/\.t(gz|bz2|xz)$/, '.tar') }
      : { ...f, text: f.text + ext };
    inv.touch('write', out);
    if (!keep) inv.touch('delete', f);
  }
  optionValues(p, 'o', 'output').forEach((w) => inv.touch('write', w));
};

/** zip OUT FILES; `-T -TT CMD` tests the archive with a command. */
const zip: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, {
    value: names('b n t tt x i O P Z s sp TT unzip-command la lf li password output-file exclude include'),
    flag: 'rjmqTvyXDAcdeFgklLoSuwz0123456789@$'.split(''),
  });
  const tt = inv.args.findIndex((w) => /^(-TT|--unzip-command)(=|$)/.test(w.text));
  if (tt >= 0) {
    const eq = /=(.*)$/.exec(inv.args[tt]!.text);
    inv.runCode(eq ? lit(eq[1]!) : (inv.args[tt + 1] ?? lit('')), 'sh');
  }
  const [out, ...files] = p.operands;
  if (out) inv.touch('write', out);
  files.forEach((f) => inv.touch('read', f));
  if (inv.args.some((w) => /^-[a-zA-Z]*@/.test(w.text)) || p.dynamicOptions.length) inv.touch('read', dyn('\u0000'));
  if (inv.args.some((w) => /^-[a-zA-Z]*m/.test(w.text) && !w.text.startsWith('--'))) files.forEach((f) => inv.touch('delete', f));
  optionValues(p, 'O', 'output-file').forEach((w) => inv.touch('write', w));
};

const unzip: ProgramModel = (inv) => {
  const p = parseOptions(inv.args, { value: ['d', 'x', 'P', 'O', 'I'], flag: 'lvtzZcpfunoqaCjLMsVWX'.split('') });
  const [archive] = p.operands;
  if (archive) inv.touch('read', archive);
  const listing = hasOption(p, 'l', 'v', 't', 'z', 'Z', 'c', 'p');
  if (!listing) inv.touch('write', dyn(`${optionValues(p, 'd')[0]?.text ?? '.'}/\u0000`));
};

const sevenZip: ProgramModel = (inv) => {
  const [cmd, ...rest] = inv.args;
  const ops = rest.filter((w) => !w.text.startsWith('-'));
  const outDir = rest.find((w) => w.text.startsWith('-o'))?.text.slice(2);
  if (!cmd || cmd.dynamic) return inv.fail('`7z` with a command only known at run time');
  if (/^[au]$/.test(cmd.text)) {
    if (ops[0]) inv.touch('write', ops[0]);
    ops.slice(1).forEach((w) => inv.touch('read', w));
  } else if (/^[ex]$/.test(cmd.text)) {
    if (ops[0]) inv.touch('read', ops[0]);
    inv.touch('write', dyn(`${outDir ?? '.'}/\u0000`));
  } else if (/^[lth]$/.test(cmd.text)) ops.slice(0, 1).forEach((w) => inv.touch('read', w));
  else if (cmd.text === 'd') ops.slice(0, 1).forEach((w) => inv.touch('write', w));
  else inv.fail(`\`7z ${cmd.text}\` is not modelled`);
};

export const ARCHIVE_PROGRAMS: Record<string, ProgramModel> = {
  tar,
  gtar: tar,
  bsdtar: tar,
  zip,
  unzip,
  '7z': sevenZip,
  '7za': sevenZip,
  '7zz': sevenZip,
  ...Object.fromEntries([...Object.keys(COMPRESS_EXT), ...Object.keys(DECOMPRESS)].map((n) => [n, compressor])),
};
