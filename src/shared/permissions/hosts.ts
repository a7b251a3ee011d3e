import { bindSlots, bindSlotsEach } from './scopes';

/**
 * Where a URL really goes: host (lower-case, IDNA/punycode, IPv4 in dotted decimal) and port,
 * read the way both a WHATWG parser (browsers, Node's fetch) and an RFC 3986 parser (curl,
 * requests) read it. When the two could disagree (`https://evil.com\@api.example.com/`, two
 * `@`, a percent-encoded host) the URL has no host here, so no allowlist admits it. Used by the
 * `hosts`, `domains` and `urls` constraints. Pure: the WHATWG `URL` global, nothing else.
 */

/** Ports a scheme connects to when the URL names none. */
const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ftps: 990,
  ssh: 22,
  scp: 22,
  sftp: 22,
  smtp: 25,
  smtps: 465,
  imap: 143,
  imaps: 993,
};

/** Schemes the WHATWG parser handles itself (for others it keeps the host opaque). */
const SPECIAL = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/** The destination of a URL. */
export interface Egress {
  /** Lower-case scheme; undefined for a bare `host[:port]`. */
  scheme: string | undefined;
  /** Lower-case, punycode; IPv4 dotted decimal; IPv6 in brackets; no trailing dot. */
  host: string;
  /** The port connected to: the URL's, else the scheme's default; undefined when neither is known. */
  port: number | undefined;
  /** The URL names no port, or its scheme's default one. */
  defaultPort: boolean;
  isIp: boolean;
}

// scheme://[userinfo@]host[:port] followed by the path, query, fragment or the end. No backslash,
// `@`, `%` or whitespace where parsers differ on them: such URLs do not match and have no host.
const AUTHORITY = /^([a-z][a-z0-9+.-]*):\/\/(?:([^@/?#\\\s]*)@)?(\[[0-9a-f:.]+\]|[^:/?#@\\\s[\]%]*)(?::(\d*))?(?=[/?#]|$)/i;
const BARE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d+))?$/i;

/** The normalised host (WHATWG host parsing: IDNA, IPv4 forms), or undefined when it is not a valid host. */
export function normalizeHost(host: string): string | undefined {
  if (host === '' || /[\s%\\/@?#]/.test(host)) return undefined;
  let h: string;
  try {
    h = new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
  if (h.endsWith('.') && !h.startsWith('[')) h = h.slice(0, -1);
  return h === '' ? undefined : h;
}

const isIpHost = (h: string) => h.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(h);

/** Where `url` connects to, or undefined when that cannot be told for certain. */
export function parseEgress(url: string): Egress | undefined {
  const bare = BARE_HOST.exec(url);
  if (bare) return egress(undefined, bare[1]!, bare[2]);
  // `ssh://host:path` (scp syntax): what follows the colon is a remote path, not a port.
  const u = url.replace(/^((?:ssh|scp|sftp):\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/[\]]*)):(?!\d*(?:[/?#]|$)).*$/is, '$1');
  const m = AUTHORITY.exec(u);
  if (!m) return undefined;
  const scheme = m[1]!.toLowerCase();
  const e = egress(scheme, m[3]!, m[4]);
  if (!e || !SPECIAL.has(scheme)) return e;
  // The full WHATWG parse must find the same host, or the two kinds of parser would disagree.
  try {
    const whatwg = normalizeHost(new URL(u).hostname);
    return whatwg === e.host ? e : undefined;
  } catch {
    return undefined;
  }
}

function egress(scheme: string | undefined, rawHost: string, rawPort: string | undefined): Egress | undefined {
  const host = normalizeHost(rawHost);
  if (!host) return undefined;
  const fallback = scheme === undefined ? undefined : DEFAULT_PORTS[scheme];
  if (rawPort === undefined || rawPort === '') return { scheme, host, port: fallback, defaultPort: true, isIp: isIpHost(host) };
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { scheme, host, port, defaultPort: port === fallback, isIp: isIpHost(host) };
}

/** One entry of a `hosts` allowlist. */
export interface HostPattern {
  host: string;
  /** `*.example.com`: any subdomain of `host`, not `host` itself. */
  wildcard: boolean;
  /** A port; `*` any; undefined the scheme's default port only. */
  port: number | '*' | undefined;
}

/** Parses `api.example.com`, `*.example.com`, `host:8443`, `host:*`, `192.0.2.1`, `[::1]:8080`; an error message when invalid. */
export function parseHostPattern(p: string): HostPattern | string {
  const m = /^(\*\.)?(\[[0-9a-f:.]+\]|[^:\s/*@?#\\%[\]]+)(?::(\d{1,5}|\*))?$/i.exec(p);
  if (!m) return `expected a host such as \`api.example.com\`, \`*.example.com\` or \`api.example.com:8443\`, got \`${p}\``;
  const host = normalizeHost(m[2]!);
  if (!host) return `\`${m[2]}\` is not a valid host name`;
  const wildcard = m[1] !== undefined;
  if (wildcard && (isIpHost(host) || !host.includes('.')))
    return `\`${p}\` is too broad: a wildcard needs a domain with at least two labels (\`*.example.com\`)`;
  let port: HostPattern['port'];
  if (m[3] === '*') port = '*';
  else if (m[3] !== undefined) {
    port = Number(m[3]);
    if (port < 1 || port > 65535) return `port ${m[3]} is out of range (1-65535)`;
  }
  return { host, wildcard, port };
}

/** Whether a destination matches one host pattern. */
export function hostPatternMatches(pattern: HostPattern, e: Egress): boolean {
  const hostOk = pattern.wildcard ? !e.isIp && e.host.endsWith(`.${pattern.host}`) : e.host === pattern.host;
  if (!hostOk) return false;
  if (pattern.port === '*') return true;
  return pattern.port === undefined ? e.defaultPort : e.port === pattern.port;
}

/** Whether `url` goes to a host (and port) the allowlist names; unparseable URLs and invalid patterns match nothing. */
export function hostsAllow(url: string, hosts: readonly string[]): boolean {
  const e = parseEgress(url);
  if (!e) return false;
  return hosts.some((h) => {
    const p = parseHostPattern(h);
    return typeof p !== 'string' && hostPatternMatches(p, e);
  });
}

/** Whether every destination pattern `inner` admits is admitted by `outer` (for call containment). */
export function hostPatternWithin(inner: HostPattern, outer: HostPattern): boolean {
  const portOk = outer.port === '*' || inner.port === outer.port;
  if (!portOk) return false;
  if (outer.wildcard) return inner.host.endsWith(`.${outer.host}`);
  return !inner.wildcard && inner.host === outer.host;
}

/** The normalised host of a URL (or of a bare host), or undefined when it cannot be told for certain. */
export function urlHost(url: string): string | undefined {
  return parseEgress(url)?.host;
}

/** `example.com` matches only itself; `*.example.com` or `.example.com` also its subdomains (any port). */
export function hostInDomain(host: string, domain: string): boolean {
  const wild = domain.startsWith('*.') || domain.startsWith('.');
  const base = normalizeHost(domain.replace(/^\*?\./, ''));
  if (!base) return false;
  return host === base || (wild && host.endsWith(`.${base}`));
}

/**
 * Whether `url` lies under the URL `prefix`: same scheme, host and port, and a path that starts
 * with the prefix's (both normalised: `..` and percent-encoded dots resolved). A textual prefix
 * test would admit `https://api.example.com@evil.com/` under `https://api.example.com`.
 */
export function urlUnderPrefix(url: string, prefix: string): boolean {
  const u = parseEgress(url);
  const p = parseEgress(prefix);
  if (!u || !p || u.scheme === undefined || u.scheme !== p.scheme || u.host !== p.host || u.port !== p.port) return false;
  const rest = (s: string) => {
    try {
      const x = new URL(s);
      return `${x.pathname}${x.search}`;
    } catch {
      return undefined;
    }
  };
  const up = rest(url);
  const pp = rest(prefix);
  return up !== undefined && pp !== undefined && up.startsWith(pp);
}

/**
 * A URL scope with its argument slots bound (`${site}/shop/${slug}` -> one prefix per value):
 * each value may fill its slot but not climb out of what the template writes before it. A value
 * such as `../admin` or `%2e%2e/admin` would otherwise make the scope `${site}/admin`, which the
 * very URL built from the same value then falls under. A bound scope that leaves its head is no
 * scope (fail closed); `${url}` alone (the URL the skill was given) has no head to leave.
 */
export function bindUrlScopes(template: string, values: Readonly<Record<string, unknown>>): string[] {
  const bound = bindSlotsEach(template, values) ?? [];
  // `${site}` is the app's origin, not an argument: the head runs to the first argument slot.
  const firstArg = template.search(/\$\{(?!site\})[A-Za-z_][A-Za-z0-9_]*\}/);
  if (firstArg <= 0) return bound;
  const head = bindSlots(template.slice(0, firstArg), values);
  return head === undefined ? [] : bound.filter((b) => urlUnderPrefix(b, head));
}

/** Whether a URL (or a bare host) is allowed by domain and URL-prefix allowlists (either suffices). */
export function urlAllowed(url: string, domains: readonly string[] | undefined, prefixes: readonly string[] | undefined): boolean {
  const host = urlHost(url);
  if (domains && host && domains.some((d) => hostInDomain(host, d))) return true;
  return prefixes !== undefined && prefixes.some((p) => urlUnderPrefix(url, p));
}
