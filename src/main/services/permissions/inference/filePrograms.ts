import type { ProgramModel } from './commands';
import { lit, mayBeOption, names } from './effects';
import { ARCHIVE_PROGRAMS } from './archivePrograms';
import { hasOption, optionValues, parseOptions, type OptionSpec } from './options';
import type { Word } from './types';

/**
 * Programs that read, write, delete, copy, archive or search files. Operands are file access;
 * options that run programs (`find -exec`, `tar --checkpoint-action=exec=`, `--to-command`,
 * `-I PROG`, `zip -TT`, `sort --compress-program`) are analysed as commands; `find -fprint` and
 * `tar -C` decide where files are written.
 */

export const dyn = (text: string): Word => ({ text, dynamic: true });
const base = (w: Word) => w.text.replace(/\/+$/, '').replace(/^.*\//, '');

/** Operands of a program with these options, each handed to `access`. */
function operands(access: 'read' | 'write' | 'delete' | 'permissions', spec: OptionSpec = {}, skip = 0): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, spec);
    if (p.dynamicOptions.length) inv.touch(access, dyn('\u0000'));
    p.operands.slice(skip).forEach((w) => inv.touch(access, w));
  };
}

const FIND_VALUE =
  /^-(name|iname|path|ipath|wholename|iwholename|regex|iregex|type|xtype|size|perm|user|group|uid|gid|newer|anewer|cnewer|newer\w\w|mtime|mmin|atime|amin|ctime|cmin|links|inum|samefile|maxdepth|mindepth|printf|fstype|context|lname|ilname|used|regextype|D)$/;
const FIND_FLAG =
  /^(-print0?|-ls|-prune|-quit|-depth|-d|-mount|-xdev|-noleaf|-follow|-daystart|-empty|-true|-false|-readable|-writable|-executable|-nouser|-nogroup|-ignore_readdir_race|-noignore_readdir_race|-not|-a|-and|-o|-or|!|\(|\)|,|-H|-L|-P|-O\d)$/;

/** find: start points, then an expression whose `-exec`/`-ok` run commands on what is found. */
const find: ProgramModel = (inv) => {
  const a = inv.args;
  let i = 0;
  while (i < a.length && /^-[HLP]$/.test(a[i]!.text)) i++;
  const starts: Word[] = [];
  for (; i < a.length && !a[i]!.dynamic && !/^[-(!),]/.test(a[i]!.text); i++) starts.push(a[i]!);
  if (i < a.length && a[i]!.dynamic && !a[i]!.many && !a[i]!.text.startsWith('\u0000')) starts.push(a[i++]!);
  if (starts.length === 0) starts.push(lit('.'));
  for (; i < a.length; i++) {
    const w = a[i]!;
    if (w.dynamic) return inv.fail('`find` is given an expression only known at run time (it could be `-exec`)');
    const t = w.text;
    if (/^-(exec|execdir|ok|okdir)$/.test(t)) {
      const end = a.findIndex((x, k) => k > i && (x.text === ';' || x.text === '+'));
      if (end < 0) return inv.fail('`find -exec` without its terminating `;` or `+`');
      const cmd = a.slice(i + 1, end);
      // `{}` stands for each path found under a start point.
      for (const s of starts)
        inv.run(cmd.map((x) => (x.text.includes('{}') ? dyn(x.text.replaceAll('{}', `${s.text.replace(/\/$/, '')}/\u0000`)) : x)));
      i = end;
    } else if (t === '-delete') starts.forEach((s) => inv.touch('delete', dyn(`${s.text.replace(/\/$/, '')}/\u0000`)));
    else if (/^-(fprint0?|fls|fprintf)$/.test(t)) {
      if (a[i + 1]) inv.touch('write', a[i + 1]!);
      i += t === '-fprintf' ? 2 : 1;
    } else if (t === '-files0-from') {
      if (a[i + 1]) inv.touch('read', a[i + 1]!);
      i++;
    } else if (FIND_VALUE.test(t)) i++;
    else if (!FIND_FLAG.test(t) && t.startsWith('-')) return inv.fail(`\`find ${t}\` is not modelled`);
  }
};

/** cp, mv, install, ln: sources are read, the destination written (as a folder, the sources' names under it). */
function copier(kind: 'cp' | 'mv' | 'install' | 'ln'): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, {
      value: names('t S m o g target-directory suffix mode owner group sparse no-preserve reflink backup preserve context'),
    });
    if (p.dynamicOptions.length) ['read', 'write'].forEach((x) => inv.touch(x as 'read', dyn('\u0000')));
    const target = optionValues(p, 't', 'target-directory')[0];
    if (kind === 'install' && hasOption(p, 'd', 'directory')) return p.operands.forEach((w) => inv.touch('write', w));
    const sources = target ? p.operands : p.operands.slice(0, -1);
    const dest = target ?? p.operands.at(-1);
    for (const s of sources) {
      inv.touch('read', s);
      if (kind === 'mv') inv.touch('delete', s);
    }
    if (dest) {
      inv.touch('write', dest);
      for (const s of sources)
        inv.touch('write', { text: `${dest.text.replace(/\/$/, '')}/${base(s)}`, dynamic: dest.dynamic || s.dynamic });
    }
    if (kind === 'ln' && sources.length === 0 && dest) inv.touch('read', dest);
    if (hasOption(p, 'm', 'mode', 'o', 'owner', 'g', 'group') && dest) inv.touch('permissions', dest);
  };
}

/** chmod MODE FILES, chown OWNER FILES (`--reference=F` instead of the first operand); a mode may look like `-x`. */
function changer(): ProgramModel {
  return (inv) => {
    const args = inv.args.filter((w) => !/^-[rwxXstugoa]+$/.test(w.text) || w.dynamic);
    const p = parseOptions(args, { value: ['reference', 'from'] });
    if (p.dynamicOptions.length) inv.touch('permissions', dyn('\u0000'));
    const modeGiven = args.length !== inv.args.length || hasOption(p, 'reference');
    p.operands.slice(modeGiven ? 0 : 1).forEach((w) => inv.touch('permissions', w));
  };
}

const dd: ProgramModel = (inv) => {
  for (const a of inv.args) {
    const m = /^(if|of)=(.*)$/s.exec(a.text);
    if (m) inv.touch(m[1] === 'if' ? 'read' : 'write', { text: m[2]!, dynamic: a.dynamic });
    else if (mayBeOption(a) && a.dynamic) inv.touch('write', dyn('\u0000'));
  }
};

/** Readers: programs that only read their operands (value options listed so their values are not taken for files). */
const READER_VALUES: Record<string, string[]> = {
  cat: [],
  tac: ['s'],
  head: ['n', 'c', 'lines', 'bytes'],
  tail: names('n c s lines bytes pid sleep-interval max-unchanged-stats'),
  less: names('b h j k p P t T x y z #'),
  more: ['n'],
  nl: names('b d f h i l n s v w'),
  wc: [],
  md5sum: [],
  sha1sum: [],
  sha224sum: [],
  sha256sum: [],
  sha384sum: [],
  sha512sum: [],
  b2sum: ['l'],
  cksum: ['a', 'l'],
  sum: [],
  base64: ['w', 'wrap'],
  base32: ['w', 'wrap'],
  basenc: ['w', 'wrap'],
  od: names('A j N S t w'),
  hexdump: ['e', 'f', 'n', 's'],
  strings: names('n t e bytes radix encoding'),
  cut: names('b c d f output-delimiter delimiter fields characters bytes'),
  paste: ['d', 'delimiters'],
  join: names('a e j o t v 1 2'),
  comm: ['output-delimiter'],
  fold: ['w', 'width'],
  fmt: names('w g p width goal prefix'),
  column: names('s c t o N R H W E d n O separator output-separator table-columns'),
  rev: [],
  expand: ['t', 'tabs'],
  unexpand: ['t', 'tabs'],
  diff: names('C U context unified label x X exclude exclude-from I ignore-matching-lines W width tabsize line-format from-file to-file'),
  cmp: ['i', 'n', 'ignore-initial', 'bytes'],
  file: names('m f F e P magic-file files-from separator exclude parameter'),
  stat: ['c', 'f', 'format', 'printf'],
  tsort: [],
  look: ['t'],
  zcat: [],
  bzcat: [],
  xzcat: [],
  zless: [],
  zmore: [],
  pr: names('h l w o N e i n s S W'),
  type: [],
  findstr: [],
};

/** sort -o FILE, uniq IN OUT, xxd IN OUT, shuf -o, iconv -o: readers that may also write. */
const writingReaders: Record<string, ProgramModel> = {
  sort: (inv) => {
    const p = parseOptions(inv.args, {
      value: names(
        'o T S k t output temporary-directory buffer-size key field-separator files0-from random-source parallel batch-size compress-program sort',
      ),
    });
    if (hasOption(p, 'compress-program')) return inv.fail('`sort --compress-program` runs a program');
    optionValues(p, 'o', 'output').forEach((w) => inv.touch('write', w));
    optionValues(p, 'files0-from', 'random-source').forEach((w) => inv.touch('read', w));
    p.operands.forEach((w) => inv.touch('read', w));
  },
  uniq: (inv) => {
    const p = parseOptions(inv.args, { value: names('f s w skip-fields skip-chars check-chars') });
    if (p.operands[0]) inv.touch('read', p.operands[0]);
    if (p.operands[1]) inv.touch('write', p.operands[1]);
  },
  xxd: (inv) => {
    const p = parseOptions(inv.args, { value: names('c g l o s n cols groupsize len seek name') });
    if (p.operands[0]) inv.touch('read', p.operands[0]);
    if (p.operands[1]) inv.touch('write', p.operands[1]);
  },
  shuf: operandsAndOutput(['n', 'i', 'head-count', 'input-range', 'random-source']),
  iconv: operandsAndOutput(['f', 't', 'from-code', 'to-code']),
  tee: operands('write', { value: ['output-error'] }),
  split: (inv) => {
    if (inv.args.some((w) => /^--filter/.test(w.text))) return inv.fail('`split --filter` runs a command');
    const p = parseOptions(inv.args, {
      value: names('a b C l n t suffix-length bytes line-bytes lines number separator additional-suffix numeric-suffixes hex-suffixes'),
    });
    if (p.operands[0]) inv.touch('read', p.operands[0]);
    inv.touch('write', { text: `${p.operands[1]?.text ?? 'x'}\u0000`, dynamic: true });
  },
};

function operandsAndOutput(value: string[]): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, { value: [...value, 'o', 'output'] });
    optionValues(p, 'o', 'output').forEach((w) => inv.touch('write', w));
    p.operands.forEach((w) => inv.touch('read', w));
  };
}

export const FILE_PROGRAMS: Record<string, ProgramModel> = {
  find,
  ...ARCHIVE_PROGRAMS,
  cp: copier('cp'),
  mv: copier('mv'),
  install: copier('install'),
  ln: copier('ln'),
  dd,
  ...Object.fromEntries(names('rm rmdir unlink srm trash trash-put wipe').map((n) => [n, operands('delete')])),
  shred: (inv) => {
    operands('write', { value: names('n s iterations size random-source remove') })(inv);
    if (inv.args.some((w) => /^(-[a-zA-Z]*u|--remove)/.test(w.text)))
      operands('delete', { value: ['n', 's', 'iterations', 'size', 'random-source'] })(inv);
  },
  touch: operands('write', { value: names('d t r date reference time') }),
  mkdir: operands('write', { value: ['m', 'mode', 'context'] }),
  mkfifo: operands('write', { value: ['m', 'mode'] }),
  truncate: operands('write', { value: ['s', 'r', 'size', 'reference', 'o'] }),
  chmod: changer(),
  chown: changer(),
  chgrp: changer(),
  chattr: changer(),
  setfacl: operands('permissions', { value: names('m M x X set set-file modify modify-file remove remove-file') }),
  ...Object.fromEntries(Object.entries(READER_VALUES).map(([n, value]) => [n, operands('read', { value })])),
  ...writingReaders,
};
