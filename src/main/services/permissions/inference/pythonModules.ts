import { DYNAMIC, lit, names, unknown } from './effects';
import { longestPrefix } from './modelTable';
import { arg, has, INERT, openCall, paths, table, type PyCall, type PyContext, type PyModule } from './pythonModel';
import { PY_NET_MODULES } from './pythonNetModules';
import type { Tok } from './pythonTokens';
import type { Word } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * The Python modules the analysis models. A module not in this table fails closed when imported;
 * an attribute of a modelled module that its model does not know fails closed when called, and
 * one not listed as a plain value fails closed when used as a value (`f = os.system`).
 * Network, device and credential modules are in pythonNetModules.ts.
 */

export type { PyCall, PyContext, PyModule } from './pythonModel';

/** `subprocess` and friends: a list runs without a shell, a string with `shell=True` through one. */
function subprocessCall(c: PyCall, ctx: PyContext): void {
  ctx.emit('shell.execute', { kind: 'command', command: ctx.ev });
  if (has(c, 'executable', 'preexec_fn')) return ctx.fail('runs a different executable than its arguments name, or code before it');
  const env = c.kwargs.get('env');
  if (env && !envLiteralSafe(env)) return ctx.fail('runs a program with an environment that may make it load code');
  const first = arg(c, 0, 'args');
  const shell = c.kwargs.get('shell');
  const list = ctx.words(first);
  if (shell && !(shell.length === 1 && shell[0]!.v === 'False'))
    return ctx.runCode(list ? { text: list.map((w) => w.text).join(' '), dynamic: list.some((w) => w.dynamic) } : ctx.word(first), 'bash');
  if (list) return ctx.run(list);
  const w = ctx.word(first);
  if (w.dynamic) return ctx.fail('runs a command only known at run time');
  ctx.run(w.text.split(/\s+/).map(lit));
}

/** An `env=` mapping written out with no variable that loads code (`{'LANG': 'C'}`). */
function envLiteralSafe(toks: Tok[]): boolean {
  if (toks[0]?.v !== '{' || toks.some((t) => t.v === '**')) return false;
  return toks.filter((t, i) => t.t === 'str' && toks[i + 1]?.v === ':').every((t) => !isCodeLoadingEnv(t.v));
}

const os: PyModule = {
  values: /^(environ|path|sep|linesep|name|devnull|curdir|pardir|extsep|altsep|pathsep|O_\w+|[FRWX]_OK|SEEK_\w+|EX_\w+|W\w+|P_\w+)$/,
  call(c, ctx) {
    const a = c.attr;
    if (
      /^path\./.test(a) ||
      /^(getcwd|getenv|getpid|getppid|getuid|geteuid|getgid|getlogin|cpu_count|urandom|get_terminal_size|uname|listdir|scandir|walk|stat|lstat|access|isatty|fspath|fsencode|fsdecode|getpgid|umask|times|pipe|dup2?|close|read|write|fdopen|fork|wait|waitpid|strerror|get_exec_path|environ\.get|environ\.copy|environ\.keys|environ\.items|environ\.values|chdir|fchdir|nice|sched_\w+|getloadavg|sync)$/.test(
        a,
      )
    )
      return true;
    if (/^(system|popen)$/.test(a)) {
      ctx.emit('shell.execute', { kind: 'command', command: ctx.ev });
      return (ctx.runCode(ctx.word(c.args[0]), 'bash'), true);
    }
    if (/^(exec|spawn)\w*$|^posix_spawnp?$/.test(a)) {
      ctx.emit('shell.execute', { kind: 'command', command: ctx.ev });
      const rest = /^spawn/.test(a) ? c.args.slice(1) : c.args;
      const argv = ctx.words(rest[1]) ?? rest.slice(2).map((t) => ctx.word(t));
      return (ctx.run([ctx.word(rest[0]), ...argv.slice(1)]), true);
    }
    if (/^(remove|unlink|rmdir|removedirs)$/.test(a)) return (paths(c, ctx, 'delete', 0), true);
    if (/^(rename|replace|renames)$/.test(a))
      return (paths(c, ctx, 'read', 0), paths(c, ctx, 'delete', 0), paths(c, ctx, 'write', 1), true);
    if (/^(chmod|lchmod|chown|lchown|fchmod|fchown|chflags|lchflags|setxattr|removexattr)$/.test(a))
      return (paths(c, ctx, 'permissions', 0), true);
    if (/^(mkdir|makedirs|mkfifo|mknod|truncate|utime)$/.test(a)) return (paths(c, ctx, 'write', 0), true);
    if (/^(symlink|link)$/.test(a)) return (paths(c, ctx, 'read', 0), paths(c, ctx, 'write', 1), true);
    if (a === 'open') {
      const flags = c.args[1]?.map((t) => t.v).join('') ?? '';
      if (!/WRONLY|CREAT|APPEND|TRUNC/.test(flags) || /RDWR/.test(flags)) paths(c, ctx, 'read', 0);
      if (/WRONLY|RDWR|CREAT|APPEND|TRUNC/.test(flags) || !/^os\.O_RDONLY$/.test(flags)) paths(c, ctx, 'write', 0);
      return true;
    }
    if (/^(kill|killpg)$/.test(a)) return (ctx.emit('process.kill', { kind: 'command', command: ctx.ev }), true);
    if (/^(putenv|environ\.setdefault)$/.test(a)) return (envAssign(ctx, ctx.word(c.args[0])), true);
    if (a === 'environ.update') return (ctx.fail('sets environment variables from a mapping this analysis does not read'), true);
    if (/^environ\.pop$/.test(a)) return true;
    return false;
  },
};

/** Setting an environment variable that makes programs load code fails closed. */
export function envAssign(ctx: Pick<PyContext, 'fail'>, name: Word): void {
  if (name.dynamic) ctx.fail('sets an environment variable named at run time');
  else if (isCodeLoadingEnv(name.text)) ctx.fail(`sets \`${name.text}\`, which makes programs load code this analysis does not see`);
}

const shutil = table([
  [/^(copy|copy2|copyfile|copytree)$/, (c, ctx) => (paths(c, ctx, 'read', 0), paths(c, ctx, 'write', 1))],
  [/^move$/, (c, ctx) => (paths(c, ctx, 'read', 0), paths(c, ctx, 'delete', 0), paths(c, ctx, 'write', 1))],
  [/^rmtree$/, (c, ctx) => paths(c, ctx, 'delete', 0)],
  [/^(copymode|copystat|chown)$/, (c, ctx) => paths(c, ctx, 'permissions', c.attr === 'chown' ? 0 : 1)],
  [
    /^make_archive$/,
    (c, ctx) => (
      ctx.touch('write', { ...ctx.word(c.args[0]), text: `${ctx.word(c.args[0]).text}\u0000`, dynamic: true }),
      ctx.touch('read', ctx.word(arg(c, 2, 'root_dir') ?? []))
    ),
  ],
  [/^unpack_archive$/, (c, ctx) => (paths(c, ctx, 'read', 0), ctx.touch('write', c.args[1] ? ctx.word(c.args[1]) : DYNAMIC))],
  [/^(which|disk_usage|get_terminal_size|copyfileobj|get_archive_formats|get_unpack_formats)$/, 'inert'],
]);

const subprocess = table(
  [[/^(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)$/, subprocessCall]],
  /^(PIPE|DEVNULL|STDOUT|CalledProcessError|TimeoutExpired|CompletedProcess|SubprocessError)$/,
);

const archive = (kind: 'zip' | 'tar') =>
  table(
    [
      [kind === 'zip' ? /^ZipFile$/ : /^(open|TarFile)$/, (c, ctx) => openCall(c, ctx)],
      [/^(is_zipfile|is_tarfile|ZipInfo|TarInfo|ZIP_\w+|BadZipFile|ReadError)$/, 'inert'],
    ],
    /^(ZIP_\w+|ZipInfo|TarInfo|BadZipFile|ReadError|TarError)$/,
  );

export const PY_MODULES: Record<string, PyModule> = {
  ...Object.fromEntries(
    names(
      'json re math cmath string datetime time calendar random secrets collections itertools functools operator typing typing_extensions dataclasses enum abc numbers decimal fractions statistics hashlib hmac base64 binascii struct textwrap argparse getopt optparse pprint reprlib copy heapq bisect array weakref contextlib traceback warnings uuid html unicodedata locale gettext difflib fnmatch glob shlex zlib csv os.path posixpath ntpath urllib.parse platform getpass signal threading queue sched selectors select ssl errno stat filecmp colorsys ipaddress email mimetypes quopri uu xml.dom xml.sax.saxutils html.parser concurrent atexit keyword token tokenize_ io.StringIO io.BytesIO __future__ tkinter curses readline rlcompleter termios tty fcntl resource grp pwd sysconfig zoneinfo graphlib pathlib',
    )
      .filter((m) => !m.endsWith('_'))
      .map((m) => [m, INERT]),
  ),
  os,
  sys: table(
    [
      [
        /^(exit|getsizeof|getrecursionlimit|setrecursionlimit|getdefaultencoding|getfilesystemencoding|intern|stdout\.\w+|stderr\.\w+|stdin\.\w+|exc_info|is_finalizing)$/,
        'inert',
      ],
    ],
    /^(argv|stdin|stdout|stderr|platform|version|version_info|executable|maxsize|byteorder|path|exit|flags|implementation|hexversion|prefix|base_prefix|float_info|maxunicode)$/,
  ),
  subprocess,
  shutil,
  io: table(
    [
      [/^open$/, (c, ctx) => openCall(c, ctx)],
      [/^(StringIO|BytesIO|TextIOWrapper|BufferedReader|BufferedWriter)$/, 'inert'],
    ],
    /^(StringIO|BytesIO|IOBase|TextIOWrapper|SEEK_\w+|DEFAULT_BUFFER_SIZE)$/,
  ),
  codecs: table(
    [
      [/^open$/, (c, ctx) => openCall(c, ctx)],
      [/^(encode|decode|lookup|getencoder|getdecoder|getreader|getwriter|iterencode|iterdecode|BOM\w*)$/, 'inert'],
    ],
    /^(BOM\w*|utf_8_encode|utf_8_decode)$/,
  ),
  gzip: table([
    [/^open$/, (c, ctx) => openCall(c, ctx)],
    [/^(compress|decompress|GzipFile)$/, 'inert'],
  ]),
  bz2: table([
    [/^open$/, (c, ctx) => openCall(c, ctx)],
    [/^(compress|decompress|BZ2File)$/, 'inert'],
  ]),
  lzma: table([
    [/^open$/, (c, ctx) => openCall(c, ctx)],
    [/^(compress|decompress|LZMAFile)$/, 'inert'],
  ]),
  tempfile: table([
    [
      /^(mkstemp|mkdtemp|NamedTemporaryFile|TemporaryFile|SpooledTemporaryFile|TemporaryDirectory)$/,
      (c, ctx) =>
        ctx.touch('write', { text: `${c.kwargs.has('dir') ? ctx.word(c.kwargs.get('dir')).text : '/tmp'}/\u0000`, dynamic: true }),
    ],
    [/^(gettempdir|gettempprefix)$/, 'inert'],
  ]),
  logging: table(
    [
      [
        /^(handlers\.)?(FileHandler|RotatingFileHandler|TimedRotatingFileHandler|WatchedFileHandler)$/,
        (c, ctx) => paths(c, ctx, 'write', 0),
      ],
      [/^basicConfig$/, (c, ctx) => void (c.kwargs.has('filename') && ctx.touch('write', ctx.word(c.kwargs.get('filename'))))],
      [
        /^(handlers\.)?(SMTPHandler|HTTPHandler|SocketHandler|DatagramHandler|SysLogHandler)$/,
        (_c, ctx) => ctx.emit('web.post', unknown('log handler')),
      ],
      [
        /^(getLogger|debug|info|warning|warn|error|exception|critical|log|StreamHandler|Formatter|Handler|Filter|NullHandler|disable|captureWarnings|getLevelName|shutdown|setLoggerClass|root\.\w+)$/,
        'inert',
      ],
    ],
    /^(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|NOTSET|Logger|Handler|StreamHandler|Formatter|root|handlers)$/,
  ),
  pathlib: { values: /./, call: () => true },
  zipfile: archive('zip'),
  tarfile: archive('tar'),
  sqlite3: table(
    [
      [
        /^connect$/,
        (c, ctx) => {
          const db = ctx.word(arg(c, 0, 'database'));
          if (db.text === ':memory:') return;
          ctx.touch('read', db);
          ctx.touch('write', db);
        },
      ],
      [/^(Row|Error|OperationalError|IntegrityError|register_\w+|PARSE_\w+)$/, 'inert'],
    ],
    /^(Row|Error|OperationalError|IntegrityError|PARSE_\w+|Connection|Cursor)$/,
  ),
  asyncio: table(
    [
      [
        /^create_subprocess_exec$/,
        (c, ctx) => (ctx.emit('shell.execute', { kind: 'command', command: ctx.ev }), ctx.run(c.args.map((t) => ctx.word(t)))),
      ],
      [
        /^create_subprocess_shell$/,
        (c, ctx) => (ctx.emit('shell.execute', { kind: 'command', command: ctx.ev }), ctx.runCode(ctx.word(c.args[0]), 'bash')),
      ],
      [/^open_connection$/, (_c, ctx) => ctx.emit('web.post', unknown('socket'))],
      [/^(start_server|start_unix_server)$/, (_c, ctx) => ctx.emit('net.listen', unknown('socket server'))],
      [
        /^(run|sleep|gather|wait|wait_for|create_task|get_event_loop|new_event_loop|set_event_loop|Queue|Lock|Event|Semaphore|TimeoutError|CancelledError|as_completed|ensure_future|iscoroutine\w*|get_running_loop|to_thread|shield|timeout)$/,
        'inert',
      ],
    ],
    /^(subprocess|Queue|Lock|Event|TimeoutError|CancelledError|Task|Future)$/,
  ),
  pty: table(
    [
      [
        /^spawn$/,
        (c, ctx) => {
          const list = ctx.words(c.args[0]);
          ctx.emit('shell.execute', { kind: 'command', command: ctx.ev });
          ctx.run(list ?? [ctx.word(c.args[0])], 'piped');
        },
      ],
      [/^(fork|openpty)$/, 'inert'],
    ],
    /^(STDIN_FILENO|STDOUT_FILENO|STDERR_FILENO|CHILD)$/,
  ),
  multiprocessing: table(
    [[/^(Process|Pool|Queue|Pipe|Lock|Event|Manager|cpu_count|current_process|Value|Array|set_start_method|get_context)$/, 'inert']],
    /^(Process|Pool|Queue|cpu_count)$/,
  ),
  importlib: { values: /^$/, call: () => false },
  crontab: table([[/^CronTab$/, 'scheduled_job.create']]),
  psutil: table([[/./, 'inert']], /./),
  dotenv: table([[/^(load_dotenv|dotenv_values|find_dotenv)$/, (_c, ctx) => ctx.touch('read', lit('.env'))]]),
  yaml: table(
    [
      [/^(safe_load|safe_load_all|safe_dump|dump|dump_all|YAMLError)$/, 'inert'],
      [
        /^load(_all)?$/,
        (c, ctx) =>
          /^(SafeLoader|CSafeLoader|BaseLoader|yaml\.SafeLoader|yaml\.CSafeLoader)$/.test(
            (c.kwargs.get('Loader') ?? c.args[1] ?? []).map((t) => t.v).join(''),
          )
            ? undefined
            : ctx.fail('`yaml.load` without a safe loader can build any object'),
      ],
    ],
    /^(SafeLoader|CSafeLoader|BaseLoader|YAMLError)$/,
  ),
  'xml.etree.ElementTree': table(
    [
      [/^(parse|iterparse)$/, (c, ctx) => paths(c, ctx, 'read', 0)],
      [/./, 'inert'],
    ],
    /./,
  ),
  ...PY_NET_MODULES,
};

/** The model covering a dotted module path (the longest modelled prefix), with the attribute path below it. */
export function moduleFor(path: string): { module: PyModule; name: string; attr: string } | undefined {
  return longestPrefix(PY_MODULES, path);
}
