import { DYNAMIC, lit, names, unknown } from './effects';
import { arg, INERT, paths, table, target, type PyCall, type PyContext, type PyModule } from './pythonModel';

/** Python modules that reach the network, devices, credentials and third-party services. */

/** `requests.get(URL)` with only harmless options fetches; anything carrying data sends. */
function httpVerb(c: PyCall, ctx: PyContext): void {
  const verb = c.attr.split('.').at(-1)!.toLowerCase();
  const url = ctx.word(arg(c, verb === 'request' ? 1 : 0, 'url'));
  const method = verb === 'request' ? ctx.word(arg(c, 0, 'method')) : lit(verb);
  const sends =
    method.dynamic ||
    !/^(get|head|options)$/i.test(method.text) ||
    [...c.kwargs.keys()].some((k) => !/^(timeout|verify|allow_redirects|stream|follow_redirects)$/.test(k));
  ctx.emit(sends ? 'web.post' : 'web.fetch', target(url, 'URL computed at run time'));
  if (c.kwargs.has('files')) ctx.touch('read', DYNAMIC);
}

const NETWORK_CLIENT = (hint: string) => (c: PyCall, ctx: PyContext) =>
  ctx.emit('web.post', c.args[0] ? target(ctx.word(c.args[0]), hint) : unknown(hint));

const socketModule = table(
  [
    [/^(socket|socketpair|fromfd)$/, (_c, ctx) => ctx.emit('web.post', unknown('socket'))],
    [
      /^create_connection$/,
      (c, ctx) => {
        const addr = ctx.words(c.args[0]);
        ctx.emit(
          'web.post',
          addr && !addr.some((w) => w.dynamic) ? { kind: 'url', url: `tcp://${addr.map((w) => w.text).join(':')}` } : unknown('socket'),
        );
      },
    ],
    [/^create_server$/, (_c, ctx) => ctx.emit('net.listen', unknown('socket server'))],
    [
      /^(gethostbyname|gethostbyname_ex|getaddrinfo|gethostbyaddr)$/,
      (c, ctx) => {
        const host = ctx.word(c.args[0]);
        ctx.emit(
          host.dynamic ? 'web.post' : 'web.fetch',
          host.dynamic ? unknown('host computed at run time') : { kind: 'url', url: `dns://${host.text}` },
        );
      },
    ],
    [/^(gethostname|getfqdn|inet_aton|inet_ntoa|htons|ntohs|htonl|ntohl|setdefaulttimeout|getdefaulttimeout)$/, 'inert'],
  ],
  /^(AF_\w+|SOCK_\w+|SOL_\w+|SO_\w+|IPPROTO_\w+|TCP_\w+|SHUT_\w+|timeout|error|gaierror|herror|socket)$/,
);

const requestsLike = (values: RegExp) =>
  table(
    [
      [/^(get|head|options|post|put|patch|delete|request)$/, httpVerb],
      [
        /^(Session|session|Client|AsyncClient|stream|ClientSession|PoolManager|ProxyManager)$/,
        (_c, ctx) => ctx.emit('web.post', unknown('HTTP session')),
      ],
      [/^(codes|utils\.\w+|auth\.\w+|adapters\.\w+|Request|Timeout|Limits)$/, 'inert'],
    ],
    values,
  );

const urllibRequest = table([
  [
    /^urlopen$/,
    (c, ctx) =>
      ctx.emit(
        c.args.length > 1 || c.kwargs.has('data') ? 'web.post' : 'web.fetch',
        target(ctx.word(arg(c, 0, 'url')), 'URL computed at run time'),
      ),
  ],
  [
    /^Request$/,
    (c, ctx) => {
      const m = ctx.word(c.kwargs.get('method'));
      const post = c.args.length > 1 || c.kwargs.has('data') || (c.kwargs.has('method') && (m.dynamic || !/^(GET|HEAD)$/i.test(m.text)));
      ctx.emit(post ? 'web.post' : 'web.fetch', target(ctx.word(arg(c, 0, 'url')), 'URL computed at run time'));
    },
  ],
  [
    /^urlretrieve$/,
    (c, ctx) => (
      ctx.emit('web.fetch', target(ctx.word(c.args[0]), 'URL computed at run time')),
      ctx.touch('write', c.args[1] ? ctx.word(c.args[1]) : DYNAMIC)
    ),
  ],
  [
    /^(build_opener|install_opener|ProxyHandler|HTTPHandler|HTTPSHandler|HTTPCookieProcessor|HTTPRedirectHandler|pathname2url|url2pathname|getproxies)$/,
    'inert',
  ],
]);

export const PY_NET_MODULES: Record<string, PyModule> = {
  'urllib.request': urllibRequest,
  'urllib.error': INERT,
  urllib: { values: /^(parse|request|error)$/, call: () => false },
  'http.client': table(
    [
      [/^(HTTPConnection|HTTPSConnection)$/, NETWORK_CLIENT('HTTP connection')],
      [/^(responses|HTTPException|\w+Error)$/, 'inert'],
    ],
    /^(HTTPConnection|HTTPSConnection|HTTPResponse|HTTPException|responses|OK|NOT_FOUND)$/,
  ),
  'http.server': table(
    [[/^(HTTPServer|ThreadingHTTPServer|test)$/, (_c, ctx) => ctx.emit('net.listen', unknown('HTTP server'))]],
    /^(SimpleHTTPRequestHandler|BaseHTTPRequestHandler|CGIHTTPRequestHandler|HTTPServer|ThreadingHTTPServer)$/,
  ),
  socketserver: table(
    [
      [
        /^(TCPServer|UDPServer|ThreadingTCPServer|ThreadingUDPServer|ForkingTCPServer|UnixStreamServer)$/,
        (_c, ctx) => ctx.emit('net.listen', unknown('socket server')),
      ],
    ],
    /^(BaseRequestHandler|StreamRequestHandler|DatagramRequestHandler|ThreadingMixIn|ForkingMixIn|TCPServer|UDPServer)$/,
  ),
  http: { values: /^(HTTPStatus|client|server|cookies|cookiejar)$/, call: (c) => /^HTTPStatus/.test(c.attr) },
  'http.cookies': INERT,
  socket: socketModule,
  requests: requestsLike(/^(exceptions|RequestException|HTTPError|ConnectionError|Timeout|codes|Response|Session|adapters|auth)$/),
  httpx: requestsLike(/^(HTTPError|RequestError|TimeoutException|Response|Client|AsyncClient|Timeout)$/),
  aiohttp: requestsLike(/^(ClientSession|ClientTimeout|ClientError|web)$/),
  urllib3: requestsLike(/^(PoolManager|exceptions|disable_warnings)$/),
  ...Object.fromEntries(
    names('smtplib ftplib poplib imaplib telnetlib xmlrpc.client paramiko websocket websockets pycurl ftputil pysftp').map((m) => [
      m,
      table([[/./, (c, ctx) => (/Error|Exception/.test(c.attr) ? undefined : NETWORK_CLIENT(m)(c, ctx))]], /./),
    ]),
  ),
  webbrowser: table([
    [
      /^(open|open_new|open_new_tab)$/,
      (c, ctx) => ctx.emit('web.navigate', target(ctx.word(arg(c, 0, 'url')), 'URL computed at run time')),
    ],
    [/^(get|register)$/, 'inert'],
  ]),
  pyperclip: table([
    [/^paste$/, 'clipboard.read'],
    [/^copy$/, 'clipboard.write'],
  ]),
  pyautogui: table(
    [
      [/^(screenshot|locateOnScreen|locateAllOnScreen|locateCenterOnScreen|pixel|pixelMatchesColor)$/, 'screen.capture'],
      [/^(typewrite|write|press|hotkey|keyDown|keyUp)$/, (_c, ctx) => ctx.emit('input.keyboard', unknown('any window'))],
      [
        /^(click|doubleClick|rightClick|middleClick|tripleClick|moveTo|moveRel|move|dragTo|dragRel|drag|scroll|hscroll|vscroll|mouseDown|mouseUp)$/,
        (_c, ctx) => ctx.emit('input.mouse', unknown('any window')),
      ],
      [/^(position|size|onScreen|sleep|FAILSAFE|PAUSE|alert|confirm|prompt|password)$/, 'inert'],
    ],
    /^(FAILSAFE|PAUSE|KEYBOARD_KEYS)$/,
  ),
  PIL: table(
    [
      [/^ImageGrab\.grab(clipboard)?$/, 'screen.capture'],
      [/^Image\.open$/, (c, ctx) => paths(c, ctx, 'read', 0)],
      [/^(Image\.\w+|ImageDraw\.\w+|ImageFont\.\w+|ImageFilter\.\w+|ImageOps\.\w+)$/, 'inert'],
    ],
    /^(Image|ImageDraw|ImageFont|ImageGrab|ImageFilter|ImageOps)$/,
  ),
  mss: table([[/./, 'screen.capture']], /./),
  ...Object.fromEntries(
    names('pynput keyboard mouse pyHook pyxhook pywinhook').map((m) => [
      m,
      table(
        [
          [/Controller$|^(write|press|release|send|move|click|press_and_release)$/, 'input.keyboard'],
          [/./, 'input.capture'],
        ],
        /./,
      ),
    ]),
  ),
  ...Object.fromEntries(
    names('geocoder gps gpsd CoreLocation winsdk.windows.devices.geolocation winrt.windows.devices.geolocation').map((m) => [
      m,
      table([[/./, 'location.read']], /./),
    ]),
  ),
  keyring: table([
    [/^(get_password|get_credential|get_keyring)$/, 'secrets.read'],
    [/^(set_password|delete_password)$/, 'settings.write'],
  ]),
  ...Object.fromEntries(
    ['browser_cookie3', 'secretstorage', 'win32cred', 'win32crypt'].map((m) => [m, table([[/./, 'secrets.read']], /^(CRED_\w+)$/)]),
  ),
  winreg: table(
    [
      [
        /^(SetValue|SetValueEx|CreateKey|CreateKeyEx|DeleteKey|DeleteKeyEx|DeleteValue|SaveKey|LoadKey)$/,
        (_c, ctx) => ctx.emit('registry.write', { kind: 'path', path: 'registry' }),
      ],
      [/^(OpenKey|OpenKeyEx|QueryValue|QueryValueEx|QueryInfoKey|EnumKey|EnumValue|CloseKey|ExpandEnvironmentStrings)$/, 'inert'],
    ],
    /^(HKEY_\w+|KEY_\w+|REG_\w+)$/,
  ),
  win32clipboard: table(
    [
      [/^GetClipboardData$/, 'clipboard.read'],
      [/^(SetClipboardText|SetClipboardData|EmptyClipboard)$/, 'clipboard.write'],
      [/^(OpenClipboard|CloseClipboard)$/, 'inert'],
    ],
    /^CF_\w+$/,
  ),
  ...Object.fromEntries(
    names('boto3 botocore google.cloud googleapiclient azure openai anthropic slack_sdk github telegram discord twilio stripe dropbox').map(
      (m) => [m, table([[/./, 'external_api.call']], /./)],
    ),
  ),
};
