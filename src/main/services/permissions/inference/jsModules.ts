import type { Node } from 'acorn';
import type { PermissionTarget } from '../../../../shared/permissions/policy';
import type { Capability } from '../../../../shared/permissions/taxonomy';
import { DYNAMIC, type FileAccess, lit, names, unknown } from './effects';
import { attributeTable, longestPrefix, type ModuleModel, type Rule } from './modelTable';
import type { ScriptLanguage, Word } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * The Node modules and packages the JavaScript analysis models. Requiring anything else fails
 * closed; so does calling an attribute a model does not know, or using one as a value unless
 * it is listed as a plain value.
 */

export type AnyNode = Node & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface JsCall {
  /** The attribute path within the module (`readFileSync`, `promises.writeFile`, '' for the module itself). */
  attr: string;
  args: AnyNode[];
}

export interface JsContext {
  ev: string;
  word(n: AnyNode | undefined): Word;
  words(n: AnyNode | undefined): Word[] | undefined;
  /** A property of an object literal argument. */
  opt(obj: AnyNode | undefined, key: string): AnyNode | undefined;
  emit(capability: Capability, target: PermissionTarget): void;
  touch(access: FileAccess, w: Word): void;
  fail(why: string): void;
  run(words: Word[], stdin?: 'piped'): void;
  runCode(code: Word, language: ScriptLanguage): void;
  follow(path: Word, language: ScriptLanguage): void;
}

export type JsModule = ModuleModel<JsCall, JsContext>;

const table = (rules: Rule<JsCall, JsContext>[], values?: RegExp): JsModule => attributeTable<JsCall, JsContext>(rules, values);

const INERT: JsModule = { values: /./, call: () => true };
const target = (w: Word, hint = 'URL computed at run time'): PermissionTarget => (w.dynamic ? unknown(hint) : { kind: 'url', url: w.text });

const FS_READ = /^(readFile|readFileSync|createReadStream|readlink|readlinkSync|opendir|opendirSync)$/;
const FS_WRITE =
  /^(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|mkdir|mkdirSync|mkdtemp|mkdtempSync|truncate|truncateSync|utimes|utimesSync|lutimes|lutimesSync)$/;
const FS_DELETE = /^(unlink|unlinkSync|rm|rmSync|rmdir|rmdirSync)$/;
const FS_PERMS = /^(chmod|chmodSync|lchmod|lchmodSync|chown|chownSync|lchown|lchownSync|fchmod|fchmodSync|fchown|fchownSync)$/;
const FS_INERT =
  /^(stat|statSync|lstat|lstatSync|fstat|fstatSync|exists|existsSync|access|accessSync|readdir|readdirSync|realpath|realpathSync|watch|watchFile|unwatchFile|close|closeSync|read|readSync|write|writeSync|fsync|fsyncSync|constants|Dirent|Stats)$/;

const fs: JsModule = {
  values: /^(constants|promises|Dirent|Stats|F_OK|R_OK|W_OK|X_OK)$/,
  call(c, ctx) {
    const m = c.attr.replace(/^promises\./, '');
    const path = () => ctx.word(c.args[0]);
    if (FS_READ.test(m)) return (ctx.touch('read', path()), true);
    if (FS_WRITE.test(m)) return (ctx.touch('write', path()), true);
    if (FS_DELETE.test(m)) return (ctx.touch('delete', path()), true);
    if (FS_PERMS.test(m)) return (ctx.touch('permissions', path()), true);
    if (/^(open|openSync)$/.test(m)) {
      const flags = ctx.word(c.args[1]);
      if (!flags.text || flags.dynamic || /[r+]/.test(flags.text)) ctx.touch('read', path());
      if (flags.dynamic || /[wa+]/.test(flags.text)) ctx.touch('write', path());
      return true;
    }
    if (/^(copyFile|copyFileSync|cp|cpSync|rename|renameSync|symlink|symlinkSync|link|linkSync)$/.test(m)) {
      ctx.touch('read', path());
      if (/^rename/.test(m)) ctx.touch('delete', path());
      ctx.touch('write', ctx.word(c.args[1]));
      return true;
    }
    return FS_INERT.test(m);
  },
};

/** `exec(cmd)`, `spawn(file, args, { shell })`, `fork(module)`: commands, analysed as commands. */
function childProcess(c: JsCall, ctx: JsContext): boolean {
  const m = c.attr;
  if (!/^(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)$/.test(m)) return false;
  ctx.emit(m === 'fork' ? 'script.execute' : 'shell.execute', { kind: 'command', command: ctx.ev });
  const options = c.args.find((a, i) => i > 0 && a.type === 'ObjectExpression');
  const env = ctx.opt(options, 'env');
  if (
    env &&
    (env.type !== 'ObjectExpression' ||
      env.properties.some((p: AnyNode) => p.type !== 'Property' || p.computed || isCodeLoadingEnv(p.key.name ?? p.key.value ?? '')))
  )
    return (ctx.fail('runs a program with an environment that may make it load code'), true);
  if (ctx.opt(options, 'execPath') || ctx.opt(options, 'execArgv'))
    return (ctx.fail('runs a script with another Node or Node options'), true);
  if (/^exec(Sync)?$/.test(m)) return (ctx.runCode(ctx.word(c.args[0]), 'bash'), true);
  const list =
    c.args[1]?.type === 'ArrayExpression' || c.args[1]?.type === 'Identifier' ? (ctx.words(c.args[1]) ?? [{ ...DYNAMIC, many: true }]) : [];
  if (m === 'fork') return (ctx.follow(ctx.word(c.args[0]), 'node'), true);
  const shell = ctx.opt(options, 'shell');
  if (shell && !(shell.type === 'Literal' && shell.value === false)) {
    const all = [ctx.word(c.args[0]), ...list];
    return (ctx.runCode({ text: all.map((w) => w.text).join(' '), dynamic: all.some((w) => w.dynamic) }, 'bash'), true);
  }
  ctx.run([ctx.word(c.args[0]), ...list]);
  return true;
}

/** `http.request(url | options)`: a request that may carry a body. */
function httpRequest(c: JsCall, ctx: JsContext): void {
  const options = c.args.find((a) => a.type === 'ObjectExpression');
  const m = ctx.word(ctx.opt(options, 'method'));
  const get = c.attr === 'get' || (ctx.opt(options, 'method') !== undefined && !m.dynamic && /^(get|head)$/i.test(m.text));
  const url =
    c.args[0]?.type !== 'ObjectExpression'
      ? target(ctx.word(c.args[0]))
      : target(ctx.word(ctx.opt(options, 'hostname') ?? ctx.opt(options, 'host')), 'HTTP request');
  ctx.emit(get ? 'web.fetch' : 'web.post', url);
}

/** HTTP client packages: verbs that read fetch when given only a literal URL; anything else sends. */
function httpClient(c: JsCall, ctx: JsContext): void {
  const verb = c.attr.split('.').at(-1) ?? '';
  const url = c.args[0]?.type === 'ObjectExpression' ? ctx.word(ctx.opt(c.args[0], 'url')) : ctx.word(c.args[0]);
  const fetchOnly = /^(get|head)$/.test(verb) && c.args.length <= 1;
  ctx.emit(fetchOnly ? 'web.fetch' : 'web.post', target(url));
}

const code = (c: JsCall, ctx: JsContext) => ctx.runCode(ctx.word(c.args[0]), 'node');

export const JS_MODULES: Record<string, JsModule> = {
  ...Object.fromEntries(
    names(
      'path url util os events stream stream/promises buffer string_decoder querystring assert assert/strict zlib crypto timers timers/promises readline readline/promises perf_hooks tty constants punycode diagnostics_channel async_hooks util/types path/posix path/win32 chalk lodash dayjs moment uuid yargs commander minimist form-data mime mime-types semver debug ms',
    ).map((m) => [m, INERT]),
  ),
  fs,
  'fs/promises': { values: /./, call: (c, ctx) => fs.call!({ ...c, attr: `promises.${c.attr}` }, ctx) },
  child_process: { values: /^(ChildProcess)$/, call: childProcess },
  worker_threads: table(
    [
      [
        /^Worker$/,
        (c, ctx) => (ctx.opt(c.args[1], 'eval') ? ctx.runCode(ctx.word(c.args[0]), 'node') : ctx.follow(ctx.word(c.args[0]), 'node')),
      ],
    ],
    /^(isMainThread|parentPort|workerData|threadId|MessageChannel|Worker)$/,
  ),
  vm: table([
    [/^(runInThisContext|runInNewContext|runInContext|Script|compileFunction|SourceTextModule)$/, code],
    [/^(createContext|isContext)$/, 'inert'],
  ]),
  http: table(
    [
      [/^(request|get)$/, httpRequest],
      [/^(createServer|Server)$/, 'net.listen'],
      [/^(Agent|STATUS_CODES|METHODS|validateHeaderName|validateHeaderValue)$/, 'inert'],
    ],
    /^(STATUS_CODES|METHODS|Agent|globalAgent|IncomingMessage|ServerResponse)$/,
  ),
  https: table(
    [
      [/^(request|get)$/, httpRequest],
      [/^(createServer|Server)$/, 'net.listen'],
      [/^(Agent)$/, 'inert'],
    ],
    /^(Agent|globalAgent)$/,
  ),
  http2: table(
    [
      [/^connect$/, 'web.post'],
      [/^(createServer|createSecureServer)$/, 'net.listen'],
      [/^constants$/, 'inert'],
    ],
    /^constants$/,
  ),
  net: table(
    [
      [/^(connect|createConnection|Socket)$/, 'web.post'],
      [/^(createServer|Server)$/, 'net.listen'],
      [/^(isIP|isIPv4|isIPv6|BlockList|SocketAddress)$/, 'inert'],
    ],
    /^(Socket|Server)$/,
  ),
  tls: table([
    [/^connect$/, 'web.post'],
    [/^createServer$/, 'net.listen'],
    [/^(createSecureContext|checkServerIdentity|getCiphers|rootCertificates)$/, 'inert'],
  ]),
  dgram: table([
    [/^createSocket$/, (_c, ctx) => (ctx.emit('web.post', unknown('UDP socket')), ctx.emit('net.listen', unknown('UDP socket')))],
  ]),
  dns: table(
    [
      [
        /^(promises\.)?(lookup|resolve\w*|reverse|lookupService)$/,
        (c, ctx) => {
          const host = ctx.word(c.args[0]);
          ctx.emit(
            host.dynamic ? 'web.post' : 'web.fetch',
            host.dynamic ? unknown('host computed at run time') : { kind: 'url', url: `dns://${host.text}` },
          );
        },
      ],
      [/^(setServers|getServers|setDefaultResultOrder)$/, 'inert'],
    ],
    /^promises$/,
  ),
  ...Object.fromEntries(
    names('axios got node-fetch superagent needle ky request undici cross-fetch isomorphic-fetch').map((m) => [
      m,
      table(
        [
          [/^(|default|get|head|post|put|patch|delete|request|fetch|options|stream|create)$/, httpClient],
          [/^(defaults\.\w+|interceptors\.\w+|isAxiosError|CancelToken|Agent)$/, 'inert'],
        ],
        /^(defaults|interceptors|CancelToken|Agent)$/,
      ),
    ]),
  ),
  clipboardy: table([
    [/^(read|readSync|default\.read|default\.readSync)$/, 'clipboard.read'],
    [/^(write|writeSync|default\.write|default\.writeSync)$/, 'clipboard.write'],
  ]),
  keytar: table([
    [/^(getPassword|findCredentials|findPassword)$/, 'secrets.read'],
    [/^(setPassword|deletePassword)$/, 'settings.write'],
  ]),
  open: table([
    [
      /^(|default|openApp)$/,
      (c, ctx) => {
        const w = ctx.word(c.args[0]);
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(w.text) && !/^file:/i.test(w.text)) ctx.emit('web.navigate', target(w));
        else ctx.emit('app.launch', { kind: 'command', command: ctx.ev });
      },
    ],
  ]),
  'screenshot-desktop': table([[/./, 'screen.capture']], /./),
  ...Object.fromEntries(
    ['iohook', 'uiohook-napi', 'node-global-key-listener', 'gkm'].map((m) => [m, table([[/./, 'input.capture']], /./)]),
  ),
  ...Object.fromEntries(
    ['robotjs', '@nut-tree/nut-js', '@nut-tree-fork/nut-js'].map((m) => [
      m,
      table(
        [
          [/(keyTap|typeString|keyToggle|keyboard)/i, 'input.keyboard'],
          [/(screen|capture|grab)/i, 'screen.capture'],
          [/./, 'input.mouse'],
        ],
        /./,
      ),
    ]),
  ),
  ws: table(
    [
      [/^(|default|WebSocket)$/, 'web.post'],
      [/^(Server|WebSocketServer)$/, 'net.listen'],
    ],
    /^(WebSocket|Server|WebSocketServer|OPEN|CLOSED)$/,
  ),
  ...Object.fromEntries(['express', 'koa', 'fastify'].map((m) => [m, table([[/./, 'net.listen']], /./)])),
  nodemailer: table([[/./, 'web.post']], /./),
  dotenv: table([
    [/^(config|default\.config|parse)$/, (c, ctx) => (c.attr.endsWith('parse') ? undefined : ctx.touch('read', lit('.env')))],
  ]),
  ...Object.fromEntries(
    ['sqlite3', 'better-sqlite3'].map((m) => [
      m,
      table(
        [
          [
            /^(|default|Database|verbose)$/,
            (c, ctx) => {
              const db = ctx.word(c.args[0]);
              if (db.text === ':memory:' || !c.args[0]) return;
              ctx.touch('read', db);
              ctx.touch('write', db);
            },
          ],
        ],
        /./,
      ),
    ]),
  ),
};

/** The model covering a module path (`fs.promises.readFile` → fs, `promises.readFile`). */
export function jsModuleFor(path: string): { module: JsModule; name: string; attr: string } | undefined {
  return longestPrefix(JS_MODULES, path);
}
