import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { describeTarget } from '../../../../shared/permissions/policy';
import { analyzeBash } from './bash';
import { analyzeCmd } from './cmd';
import { lit, names } from './effects';
import { analyzeJavaScript } from './javascript';
import { expandHome, languageOfExtension } from './paths';
import { analyzePowerShell } from './powershell';
import { analyzePython } from './python';
import { ABSENT, changedReferencedFiles, sha256, WriteLog } from './referencedFiles';
import type { InferenceResult, InferenceSink, InferredCapability, ReferencedFile, ScriptArgs, ScriptLanguage, ScriptReader } from './types';

export type * from './types';
export { isSecretPath, isProfilePath } from './paths';

const MAX_DEPTH = 8;
const GEOLOCATION_HOSTS =
  /^[a-z]+:\/\/([\w.-]+\.)?(ip-api\.com|ipinfo\.io|ipapi\.co|ipapi\.com|freegeoip\.app|geolocation-db\.com|ipgeolocation\.io|extreme-ip-lookup\.com|ipwho\.is|geoplugin\.net|ipwhois\.app|ip-api\.io|geojs\.io|ipdata\.co|ipstack\.com)(\/|:|$)/i;
const MAX_FILE_BYTES = 1_000_000;

/** Reads referenced scripts from disk (bounded size); relative paths resolve against the referring file. */
export const fsScriptReader: ScriptReader = {
  read(path) {
    try {
      if (!existsSync(path) || !statSync(path).isFile() || statSync(path).size > MAX_FILE_BYTES) return undefined;
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  resolve: (fromDir, p) => (isAbsolute(p) ? p : resolve(fromDir, p)),
  dirname,
  home: homedir(),
};

/** The language of a script file, from its extension or shebang. */
export function detectLanguage(path: string, text?: string): ScriptLanguage | undefined {
  const byExtension = languageOfExtension(path);
  if (byExtension) return byExtension;
  const shebang = text && /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (shebang) {
    const prog = (shebang[1]!.endsWith('/env') ? shebang[2] : shebang[1])?.replace(/^.*\//, '') ?? '';
    if (/^python/.test(prog)) return 'python';
    if (/^(node|nodejs)$/.test(prog)) return 'node';
    if (/^(pwsh|powershell)$/.test(prog)) return 'powershell';
    if (/^(sh|dash)$/.test(prog)) return 'sh';
    if (/^(bash|zsh|ksh)$/.test(prog)) return 'bash';
  }
  return undefined;
}

export interface InferOptions {
  /** The script's own path, when it is a file (relative references resolve from its folder). */
  file?: string;
  /** The folder inline code runs in. @default '.' */
  cwd?: string;
  reader?: ScriptReader;
  /**
   * The arguments the script will run with (`run_script.args`, resolved): `$1`, `"$@"`,
   * `sys.argv`, `process.argv`, `%1`, `$args` are analysed as these values. Omitted, they are
   * unknown, and a use that decides what runs fails closed.
   */
  args?: readonly string[];
}

/**
 * Infers the capabilities of a script and of every script it references. `ok: false` means
 * some part could not be analysed (`script.unanalysed`): the caller must fail closed.
 */
export function inferScript(source: string, language: ScriptLanguage, opts: InferOptions = {}): InferenceResult {
  const reader = opts.reader ?? fsScriptReader;
  const file = opts.file ?? '<inline>';
  const result: InferenceResult = { ok: true, language, capabilities: [], findings: [], errors: [], followed: [], referencedFiles: [] };
  const seen = new Set<string>();
  const keys = new Set<string>();
  const writes = new WriteLog();
  const reference = (path: string, text: string | undefined) => {
    if (!result.referencedFiles.some((f) => f.path === path))
      result.referencedFiles.push({ path, sha256: text === undefined ? ABSENT : sha256(text) });
  };

  const run = (text: string, lang: ScriptLanguage, where: string, dir: string, depth: number, args: ScriptArgs) => {
    const sink: InferenceSink = {
      file: where,
      dir,
      args,
      emit(capability, target, evidence, line) {
        if (capability === 'file.write') writes.record(target, (p) => reader.resolve(dir, expandHome(p, reader.home)));
        const key = `${capability}|${JSON.stringify(target)}|${where}|${line ?? ''}`;
        if (keys.has(key)) return;
        keys.add(key);
        const cap: InferredCapability = { capability, target, evidence, file: where, ...(line !== undefined && { line }) };
        result.capabilities.push(cap);
        // IP geolocation services answer with where the machine is.
        if ((capability === 'web.fetch' || capability === 'web.post') && target.kind === 'url' && GEOLOCATION_HOSTS.test(target.url))
          sink.emit('location.read', target, evidence, line);
      },
      fail(reason, line) {
        const at = `${where}${line ? `:${line}` : ''}`;
        result.errors.push(`${at}: ${reason}`);
        sink.emit('script.unanalysed', { kind: 'command', command: reason }, reason, line);
      },
      finding(kind, message) {
        const full = `${where}: ${message}`;
        if (!result.findings.some((f) => f.message === full)) result.findings.push({ kind, message: full });
      },
      follow(path, lang2, line, args2) {
        const resolved = reader.resolve(dir, expandHome(path, reader.home));
        if (seen.has(resolved)) return;
        if (depth + 1 > MAX_DEPTH) return sink.fail(`scripts nest deeper than ${MAX_DEPTH} at ${path}`, line);
        const text2 = reader.read(resolved);
        if (text2 === undefined) return sink.fail(`runs ${path}, which cannot be read (${resolved}); its capabilities are unknown`, line);
        const language2 = lang2 ?? detectLanguage(resolved, text2);
        if (!language2) return sink.fail(`runs ${path}, whose language is unknown`, line);
        seen.add(resolved);
        result.followed.push(resolved);
        reference(resolved, text2);
        run(text2, language2, resolved, reader.dirname(resolved), depth + 1, args2 ?? []);
      },
      inline(code, lang2, line, args2) {
        if (depth + 1 > MAX_DEPTH) return sink.fail(`inline code nests deeper than ${MAX_DEPTH}`, line);
        run(code, lang2, `${where}${line ? `:${line}` : ''} (inline ${lang2})`, dir, depth + 1, args2 ?? []);
      },
      exists(path) {
        const resolved = reader.resolve(dir, expandHome(path, reader.home));
        const text2 = reader.read(resolved);
        reference(resolved, text2);
        return text2 !== undefined;
      },
    };
    try {
      switch (lang) {
        case 'bash':
        case 'sh':
          return analyzeBash(text, sink, lang);
        case 'powershell':
          return analyzePowerShell(text, sink);
        case 'cmd':
          return analyzeCmd(text, sink);
        case 'python':
          return analyzePython(text, sink);
        case 'node':
          return analyzeJavaScript(text, sink);
      }
    } catch (err) {
      // An analyser bug must not let a script through: what was not analysed fails closed.
      sink.fail(`the ${lang} analysis stopped on this script (${(err as Error).message}); its capabilities are unknown`);
    }
  };
  if (opts.file) {
    seen.add(opts.file);
    reference(opts.file, source);
  }
  const top = opts.file ? reader.dirname(opts.file) : (opts.cwd ?? '.');
  run(source, language, file, top, 0, opts.args?.map(lit));
  checkSelfModification(result, writes);
  addExfiltrationFindings(result);
  result.ok = result.errors.length === 0;
  return result;
}

/** A script that writes a file it runs would have that file analysed as it is now, not as it will run. */
function checkSelfModification(result: InferenceResult, writes: WriteLog): void {
  for (const f of result.referencedFiles) {
    const by = writes.find(f.path, f.sha256 === ABSENT);
    if (!by) continue;
    const reason = `writes ${by}, which may change ${f.path} that it ${f.sha256 === ABSENT ? 'may load' : 'runs'}; what runs cannot be known before it runs`;
    result.errors.push(`${f.path}: ${reason}`);
    result.capabilities.push({
      capability: 'script.unanalysed',
      target: { kind: 'command', command: reason },
      evidence: reason,
      file: f.path,
    });
  }
}

/** Infers a `run_script` primitive as it will run: interpreter, script and resolved arguments. */
export function inferRunScript(
  p: { interpreter: ScriptLanguage; script: string; args?: readonly string[] },
  opts: Omit<InferOptions, 'args' | 'file'> = {},
): InferenceResult {
  return inferScript(p.script, p.interpreter, { ...opts, args: p.args ?? [] });
}

/**
 * Which of the files an analysis depended on changed since (content, appearance or removal).
 * Call it just before running the script: a non-empty answer means the analysis no longer
 * describes what would run, and the script must not run on it.
 */
export function verifyReferencedFiles(files: readonly ReferencedFile[], reader: ScriptReader = fsScriptReader): string[] {
  return changedReferencedFiles(files, reader);
}

/** Infers the capabilities of a script file (language from extension or shebang). */
export function inferFile(
  path: string,
  opts: { reader?: ScriptReader; language?: ScriptLanguage; args?: readonly string[] } = {},
): InferenceResult {
  const reader = opts.reader ?? fsScriptReader;
  const text = reader.read(path);
  const language = opts.language ?? detectLanguage(path, text) ?? 'bash';
  if (text === undefined) {
    return { ok: false, language, capabilities: [], findings: [], errors: [`${path}: cannot be read`], followed: [], referencedFiles: [] };
  }
  return inferScript(text, language, { file: path, reader, ...(opts.args && { args: opts.args }) });
}

/** Infers the capabilities of a command line (bash syntax unless told otherwise). */
export function inferCommand(command: string, opts: { shell?: ScriptLanguage; cwd?: string; reader?: ScriptReader } = {}): InferenceResult {
  return inferScript(command, opts.shell ?? 'bash', {
    ...(opts.cwd && { cwd: opts.cwd }),
    ...(opts.reader && { reader: opts.reader }),
    args: [],
  });
}

const SOURCES = new Set(names('secrets.read file.read clipboard.read screen.capture input.capture location.read'));
const SINKS = new Set(['web.post', 'external_api.call', 'vcs.push', 'net.listen']);

/** Data exfiltration: something sensitive is read and something is sent out, anywhere in the analysed scripts. */
function addExfiltrationFindings(result: InferenceResult): void {
  const sent = result.capabilities.filter((c) => SINKS.has(c.capability));
  if (sent.length === 0) return;
  const read = result.capabilities.filter((c) => SOURCES.has(c.capability));
  const secret = read.filter((c) => c.capability === 'secrets.read');
  const list = (cs: InferredCapability[], none: string) =>
    [...new Set(cs.map((c) => describeTarget(c.target) ?? none))].slice(0, 3).join(', ');
  const what = list(secret.length ? secret : read, 'local data');
  const where = list(sent, 'the network');
  if (read.length) {
    result.findings.unshift({
      kind: 'exfiltration',
      message: `${secret.length ? 'reads credentials' : 'reads local data'} (${what}) and sends data to ${where}`,
    });
  }
}
