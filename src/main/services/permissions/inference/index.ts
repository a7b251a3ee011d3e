import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { describeTarget } from '../../../../shared/permissions/policy';
import { analyzeBash } from './bash';
import { analyzeCmd } from './cmd';
import { analyzeJavaScript } from './javascript';
import { expandHome } from './paths';
import { analyzePowerShell } from './powershell';
import { analyzePython } from './python';
import type { InferenceResult, InferenceSink, InferredCapability, ScriptLanguage, ScriptReader } from './types';

export type * from './types';
export { isSecretPath, isProfilePath } from './paths';

const MAX_DEPTH = 8;
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
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  const byExt: Record<string, ScriptLanguage> = {
    sh: 'bash',
    bash: 'bash',
    py: 'python',
    js: 'node',
    mjs: 'node',
    cjs: 'node',
    ps1: 'powershell',
    psm1: 'powershell',
    cmd: 'cmd',
    bat: 'cmd',
  };
  if (ext && byExt[ext]) return byExt[ext];
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

/**
 * Infers the capabilities of a script and of every script it references. `ok: false` means
 * some part could not be analysed and the caller must fail closed.
 */
export function inferScript(
  source: string,
  language: ScriptLanguage,
  opts: { file?: string; cwd?: string; reader?: ScriptReader } = {},
): InferenceResult {
  const reader = opts.reader ?? fsScriptReader;
  const file = opts.file ?? '<inline>';
  const result: InferenceResult = { ok: true, language, capabilities: [], findings: [], errors: [], followed: [] };
  const seen = new Set<string>();
  const keys = new Set<string>();

  const run = (text: string, lang: ScriptLanguage, where: string, dir: string, depth: number) => {
    const sink: InferenceSink = {
      file: where,
      dir,
      emit(capability, target, evidence, line) {
        const key = `${capability}|${JSON.stringify(target)}|${where}|${line ?? ''}`;
        if (keys.has(key)) return;
        keys.add(key);
        const cap: InferredCapability = { capability, target, evidence, file: where, ...(line !== undefined && { line }) };
        result.capabilities.push(cap);
      },
      fail(reason, line) {
        result.errors.push(`${where}${line ? `:${line}` : ''}: ${reason}`);
      },
      finding(kind, message) {
        if (!result.findings.some((f) => f.message === message)) result.findings.push({ kind, message: `${where}: ${message}` });
      },
      follow(path, lang2, line) {
        const resolved = reader.resolve(dir, expandHome(path, reader.home));
        if (seen.has(resolved)) return;
        if (depth + 1 > MAX_DEPTH) return sink.fail(`scripts nest deeper than ${MAX_DEPTH} at ${path}`, line);
        const text2 = reader.read(resolved);
        if (text2 === undefined) return sink.fail(`runs ${path}, which cannot be read (${resolved}); its capabilities are unknown`, line);
        const language2 = lang2 ?? detectLanguage(resolved, text2);
        if (!language2) return sink.fail(`runs ${path}, whose language is unknown`, line);
        seen.add(resolved);
        result.followed.push(resolved);
        run(text2, language2, resolved, reader.dirname(resolved), depth + 1);
      },
      inline(code, lang2, line) {
        if (depth + 1 > MAX_DEPTH) return sink.fail(`inline code nests deeper than ${MAX_DEPTH}`, line);
        run(code, lang2, `${where}${line ? `:${line}` : ''} (inline ${lang2})`, dir, depth + 1);
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
  if (opts.file) seen.add(opts.file);
  run(source, language, file, opts.file ? reader.dirname(opts.file) : (opts.cwd ?? '.'), 0);
  addExfiltrationFindings(result);
  result.ok = result.errors.length === 0;
  return result;
}

/** Infers the capabilities of a script file (language from extension or shebang). */
export function inferFile(path: string, opts: { reader?: ScriptReader; language?: ScriptLanguage } = {}): InferenceResult {
  const reader = opts.reader ?? fsScriptReader;
  const text = reader.read(path);
  const language = opts.language ?? detectLanguage(path, text) ?? 'bash';
  if (text === undefined) {
    return { ok: false, language, capabilities: [], findings: [], errors: [`${path}: cannot be read`], followed: [] };
  }
  return inferScript(text, language, { file: path, reader });
}

/** Infers the capabilities of a command line (bash syntax unless told otherwise). */
export function inferCommand(command: string, opts: { shell?: ScriptLanguage; cwd?: string; reader?: ScriptReader } = {}): InferenceResult {
  return inferScript(command, opts.shell ?? 'bash', { ...(opts.cwd && { cwd: opts.cwd }), ...(opts.reader && { reader: opts.reader }) });
}

const SOURCES = new Set(['secrets.read', 'file.read', 'clipboard.read', 'screen.capture']);
const SINKS = new Set(['web.post', 'external_api.call']);

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
