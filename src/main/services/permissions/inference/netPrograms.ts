import type { Invocation, ProgramModel } from './commands';
import { lit, names, unknown, urlOf } from './effects';
import { hasOption, optionValues, parseOptions } from './options';

/**
 * HTTP clients and other programs that reach the network by URL or name: what they send (a
 * body, a file, a header read from a file, a query), what they write locally, and what they read.
 */

const CURL_VALUE = [
  ...names('d data data-binary data-raw data-urlencode data-ascii json F form form-string T upload-file'),
  ...names('url-query H header proxy-header variable expand-data expand-url expand-header expand-json'),
  ...names('o output output-dir D dump-header c cookie-jar trace trace-ascii stderr libcurl etag-save'),
  ...names('K config netrc-file b cookie E cert key cacert capath etag-compare crlfile hsts alt-svc'),
  ...names('w write-out url x proxy preproxy resolve connect-to A user-agent e referer X request'),
  ...names('m max-time connect-timeout retry retry-delay retry-max-time limit-rate r range C continue-at'),
  ...names('u user U proxy-user oauth2-bearer interface local-port dns-servers max-filesize max-redirs Y y'),
  ...names('speed-limit speed-time z time-cond cert-type key-type pass ciphers tls-max proto proto-redir keepalive-time'),
  ...names('mail-from mail-rcpt mail-auth Q quote request-target aws-sigv4 unix-socket abstract-unix-socket noproxy'),
  ...names('pinnedpubkey parallel-max happy-eyeballs-timeout-ms expect100-timeout ftp-port P ftp-method socks5 socks5-hostname socks4'),
];
const CURL_FLAG = [
  ...names('s silent S show-error L location location-trusted f fail fail-with-body fail-early k insecure'),
  ...names('v verbose i include I head q disable O remote-name remote-name-all J remote-header-name create-dirs'),
  ...names('4 ipv4 6 ipv6 l list-only n netrc netrc-optional g globoff compressed http1.0 http1.1 http2'),
  ...names('http2-prior-knowledge http3 http3-only N no-buffer no-keepalive no-progress-meter # progress-bar raw digest'),
  ...names('ntlm negotiate anyauth basic path-as-is tcp-nodelay tcp-fastopen Z parallel parallel-immediate : next'),
  ...names('G get a append B use-ascii j junk-session-cookies R remote-time ssl ssl-reqd sslv2 sslv3 tlsv1'),
  ...names('tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 0 1 2 3 ssl-no-revoke xattr styled-output no-styled-output p proxytunnel'),
  ...names('ftp-pasv ftp-create-dirs ftp-ssl crlf post301 post302 post303 retry-all-errors retry-connrefused M manual h help V version'),
];
const CURL_SEND = new Set(
  names(
    'd data data-binary data-raw data-urlencode data-ascii json F form form-string T upload-file url-query expand-data expand-json mail-rcpt Q quote a append',
  ),
);
const CURL_WRITE = names('o output D dump-header c cookie-jar trace trace-ascii stderr libcurl etag-save');
const CURL_READ = names('netrc-file E cert key cacert capath etag-compare crlfile');

/** Network-ish URL schemes that can carry data other than in an HTTP body. */
const SENDING_SCHEMES = /^(gopher|dict|telnet|smtps?|mqtt|ldaps?|tftp|scp|sftp|wss?|rtsp|imaps?|pop3s?|smbs?):/i;

/** A URL with a path: the name `-O` saves it under (`https://h/a/.bashrc` → `.bashrc`). */
function remoteName(url: string): string {
  return url.replace(/[?#].*$/, '').replace(/^.*\//, '') || 'index.html';
}

function curl(inv: Invocation): void {
  const p = parseOptions(inv.args, { value: CURL_VALUE, flag: CURL_FLAG });
  if (p.unknown.length)
    return inv.fail(`\`curl\` is given options this analysis does not model (${p.unknown.map((w) => w.text).join(' ')})`);
  if (hasOption(p, 'K', 'config')) return inv.fail('`curl --config` reads more options from a file');
  // A word only known at run time could be any option: a file sent, written or read.
  if (p.dynamicOptions.length) worstCase(inv, 'curl');
  let post = false;
  for (const o of p.options) {
    const v = o.value;
    if (CURL_SEND.has(o.name)) post = true;
    if (!v) continue;
    if (o.name === 'T' || o.name === 'upload-file') inv.touch('read', v);
    else if (CURL_SEND.has(o.name) || names('H header proxy-header variable w write-out').includes(o.name)) {
      // `@file` (and `<file` in forms, `name@file` in --variable) sends a file's content.
      const file = /(?:^|[=;]|^[\w-]+)[@<]([^;,]+)/.exec(v.text)?.[1];
      if (file !== undefined) {
        inv.touch('read', { text: file, dynamic: v.dynamic });
        if (!['w', 'write-out', 'variable'].includes(o.name)) post = true;
      }
      if (/%output\{/.test(v.text)) inv.touch('write', { text: '\u0000', dynamic: true });
      if (['H', 'header', 'proxy-header'].includes(o.name) && v.dynamic) post = true;
    } else if (CURL_WRITE.includes(o.name)) inv.touch('write', v);
    else if (CURL_READ.includes(o.name)) inv.touch('read', v);
    else if ((o.name === 'b' || o.name === 'cookie') && !v.text.includes('=')) inv.touch('read', v);
    else if ((o.name === 'hsts' || o.name === 'alt-svc') && v) {
      inv.touch('read', v);
      inv.touch('write', v);
    } else if ((o.name === 'X' || o.name === 'request') && (v.dynamic || /^(POST|PUT|PATCH|DELETE)$/i.test(v.text))) post = true;
  }
  if (hasOption(p, 'n', 'netrc', 'netrc-optional')) inv.touch('read', lit('~/.netrc'));
  const urls = [...p.operands, ...optionValues(p, 'url')];
  const outDir = optionValues(p, 'output-dir')[0];
  const saveAll = hasOption(p, 'remote-name-all');
  let saves = p.options.filter((o) => o.name === 'O' || o.name === 'remote-name').length;
  for (const u of urls) {
    if (/^file:\/\//i.test(u.text)) {
      inv.touch('read', { text: u.text.replace(/^file:\/\/(localhost)?/i, ''), dynamic: u.dynamic });
      continue;
    }
    const target = urlOf(u) ?? (u.dynamic ? unknown('URL computed at run time') : { kind: 'url' as const, url: `http://${u.text}` });
    inv.emit(post || SENDING_SCHEMES.test(u.text) ? 'web.post' : 'web.fetch', target);
    if (saveAll || saves-- > 0) {
      if (hasOption(p, 'J', 'remote-header-name') || u.dynamic)
        inv.touch('write', { text: `${outDir ? `${outDir.text}/` : ''}\u0000`, dynamic: true });
      else inv.touch('write', lit(`${outDir ? `${outDir.text}/` : ''}${remoteName(u.text)}`));
    }
  }
  if (urls.length === 0 && !p.dynamicOptions.length && !hasOption(p, 'h', 'help', 'V', 'version', 'M', 'manual'))
    inv.emit(post ? 'web.post' : 'web.fetch', unknown('no URL'));
}

/** A program given words that may be any option: it may send, read and write anything it can. */
export function worstCase(inv: Invocation, what: string): void {
  inv.emit('web.post', unknown(`${what} options computed at run time`));
  inv.touch('read', { text: '\u0000', dynamic: true });
  inv.touch('write', { text: '\u0000', dynamic: true });
}

const WGET_VALUE = [
  ...names('O output-document o output-file a append-output P directory-prefix i input-file B base'),
  ...names('e execute post-data post-file body-data body-file method header user password http-user http-password'),
  ...names('U user-agent load-cookies save-cookies T timeout t tries w wait Q quota ca-certificate certificate'),
  ...names('private-key config use-askpass referer proxy-user proxy-password default-page cut-dirs A accept R reject'),
  ...names(
    'D domains exclude-domains l level limit-rate bind-address restrict-file-names waitretry dns-timeout connect-timeout read-timeout',
  ),
  ...names(
    'secure-protocol ciphers local-encoding remote-encoding max-redirect X exclude-directories I include-directories report-speed progress',
  ),
];
const WGET_FLAG = [
  ...names('q quiet v verbose nv no-verbose c continue N timestamping r recursive m mirror p page-requisites'),
  ...names('k convert-links np no-parent nc no-clobber x force-directories nd no-directories nH no-host-directories'),
  ...names('S server-response spider no-check-certificate content-disposition trust-server-names b background 4 inet4-only'),
  ...names('6 inet6-only L relative H span-hosts E adjust-extension F force-html no-cache no-cookies keep-session-cookies'),
  ...names('auth-no-challenge ignore-length no-proxy d debug show-progress no-hsts https-only h help V version no-config'),
];

function wget(inv: Invocation): void {
  const p = parseOptions(inv.args, { value: WGET_VALUE, flag: WGET_FLAG, abbrev: true });
  if (p.unknown.length)
    return inv.fail(`\`wget\` is given options this analysis does not model (${p.unknown.map((w) => w.text).join(' ')})`);
  if (hasOption(p, 'e', 'execute', 'config', 'use-askpass')) return inv.fail('`wget` is given settings commands or a program to run');
  if (p.dynamicOptions.length) worstCase(inv, 'wget');
  const method = optionValues(p, 'method')[0];
  const post =
    hasOption(p, 'post-data', 'post-file', 'body-data', 'body-file') ||
    (method !== undefined && (method.dynamic || /^(post|put|patch)$/i.test(method.text)));
  optionValues(p, 'post-file', 'body-file', 'i', 'input-file', 'load-cookies', 'ca-certificate', 'certificate', 'private-key').forEach(
    (w) => inv.touch('read', w),
  );
  optionValues(p, 'o', 'output-file', 'a', 'append-output', 'save-cookies').forEach((w) => inv.touch('write', w));
  const doc = optionValues(p, 'O', 'output-document')[0];
  const dir = optionValues(p, 'P', 'directory-prefix')[0];
  const prefix = dir ? `${dir.text.replace(/\/$/, '')}/` : '';
  for (const u of p.operands) {
    inv.emit(
      post ? 'web.post' : 'web.fetch',
      urlOf(u) ?? (u.dynamic ? unknown('URL computed at run time') : { kind: 'url', url: `http://${u.text}` }),
    );
    if (doc || hasOption(p, 'spider')) continue;
    // Without -O, wget saves under the URL's name (a tree of them with -r), in -P's folder or the current one.
    if (hasOption(p, 'r', 'recursive', 'm', 'mirror', 'content-disposition', 'trust-server-names') || u.dynamic)
      inv.touch('write', { text: `${prefix}\u0000`, dynamic: true });
    else inv.touch('write', { text: `${prefix}${remoteName(u.text)}`, dynamic: dir?.dynamic ?? false });
  }
  if (doc && doc.text !== '-') inv.touch('write', doc);
}

/** A DNS lookup or ping: a name known now only fetches; a name built at run time may carry data out. */
function lookup(valueOpts: string[]): ProgramModel {
  return (inv) => {
    const p = parseOptions(inv.args, { value: valueOpts });
    const names = p.operands.filter((w) => !/^[+@]/.test(w.text) || w.dynamic);
    const sends = inv.args.some((w) => w.text === '-p') || p.dynamicOptions.length > 0;
    for (const n of names)
      inv.emit(
        n.dynamic || sends ? 'web.post' : 'web.fetch',
        n.dynamic ? unknown('host computed at run time') : { kind: 'url', url: `dns://${n.text.replace(/^@/, '')}` },
      );
  };
}

/** Mail senders: the message goes out; `-a FILE` attachments are read. */
const mail: ProgramModel = (inv) => {
  inv.emit('web.post', unknown('mail'));
  inv.args.forEach((w, i) => {
    const prev = inv.args[i - 1]?.text;
    if (prev === '-a' || prev === '-A' || prev === '--attach' || prev === '--attach-body')
      inv.touch('read', { text: w.text.replace(/^@/, ''), dynamic: w.dynamic });
  });
  if (inv.args.some((w) => w.dynamic)) inv.touch('read', { text: '\u0000', dynamic: true });
};

/** Cloud and service CLIs act with the user's credentials; local paths they are given are read. */
const apiCli: ProgramModel = (inv) => {
  inv.emit('external_api.call', unknown(inv.name));
  for (const w of inv.args) {
    const path = /^(?:file:\/\/|fileb:\/\/)?([~./].*)$/.exec(w.text)?.[1];
    if (path && !w.text.startsWith('-')) inv.touch('read', { text: path, dynamic: w.dynamic });
  }
};

export const NET_PROGRAMS: Record<string, ProgramModel> = {
  curl,
  wget,
  nslookup: lookup([]),
  dig: lookup(names('p q t c x y k b f')),
  host: lookup(names('t c N R W m')),
  drill: lookup(['c', 'k', 'p', 'y', 'x']),
  ping: lookup(names('c i I l m M Q s S t T w W p')),
  ping6: lookup(names('c i I l s t w W p')),
  traceroute: lookup(names('f g i m N p t w q s z')),
  tracepath: lookup(['l', 'm', 'p']),
  mtr: lookup(names('c i s B P a f m Q G Z')),
  mail,
  mailx: mail,
  's-nail': mail,
  sendmail: mail,
  mutt: mail,
  msmtp: mail,
  ssmtp: mail,
  swaks: mail,
  ...Object.fromEntries(
    names('aws gcloud az gh kubectl heroku doctl gsutil s3cmd rclone oci ibmcloud hcloud flyctl vercel netlify wrangler').map((n) => [
      n,
      apiCli,
    ]),
  ),
};
