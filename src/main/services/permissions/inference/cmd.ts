import { analyzeCommand } from './commands';
import { DYNAMIC, entry, touchPath } from './effects';
import { isCodeLoadingEnv } from './wrappers';
import type { InferenceSink, Word } from './types';

/**
 * cmd.exe batch scripts, read the way cmd reads them: `%VAR%` and `%1` are expanded when a line
 * is parsed (so a value only known at run time there can change the line's commands, and fails
 * closed unless it is a well-known folder variable), `^` escapes the next character, lines split
 * on `&`, `&&`, `||`, `|` outside quotes, `if` and `for` run their commands (`for /f ... in
 * ('cmd')` runs `cmd` too). A variable's value is known only when it is set once, plainly, before
 * its use and before any label a `goto` could jump back to.
 */

interface CmdWord extends Word {
  quoted?: boolean;
}

/** Folders whose place is known relative to the home folder. */
const ENV_FOLDERS: Record<string, string> = {
  userprofile: '~',
  home: '~',
  homepath: '~',
  appdata: '~\\AppData\\Roaming',
  localappdata: '~\\AppData\\Local',
};

export function analyzeCmd(source: string, sink: InferenceSink): void {
  const lines = source.replace(/\^\r?\n/g, '').split(/\r?\n/);
  const delayed = /setlocal\s+.*enabledelayedexpansion/i.test(source);
  const firstLabel = lines.findIndex((l) => /^\s*:[^:]/.test(l));
  const defs = collectSets(lines);

  lines.forEach((raw, idx) => {
    const line = idx + 1;
    const trimmed = raw.trim().replace(/^@/, '');
    if (!trimmed || /^(rem(\s|$)|::|:)/i.test(trimmed)) return;
    const expanded = expand(trimmed, idx);
    if (expanded === undefined) return sink.fail('a line built from a value only known at run time (it may hold more commands)', line);
    for (const part of splitCommands(expanded)) segment(part.trim(), line);
  });

  /** `%VAR%`, `%1`, `%*`, `%~dp0` at parse time; undefined when a value that could hold commands is unknown. */
  function expand(text: string, idx: number): string | undefined {
    let unknownValue = false;
    const out = text.replace(
      /%%|%(~[a-z]*)?([0-9*])|%([^%\s]+?)%/gi,
      (m, mods: string | undefined, digit: string | undefined, name: string | undefined) => {
        if (m === '%%') return '%';
        if (digit !== undefined) {
          if (digit === '0') return /d/.test(mods ?? '') ? `${sink.dir}\\` : sink.file;
          if (!sink.args) {
            unknownValue = true;
            return '\u0000';
          }
          if (digit === '*') return sink.args.map((a) => a.text).join(' ');
          const a = sink.args[Number(digit) - 1]?.text ?? '';
          return mods ? a.replace(/^"|"$/g, '') : a;
        }
        const v = lookup(name!, idx);
        if (v === undefined) unknownValue = true;
        return v ?? '\u0000';
      },
    );
    return unknownValue ? undefined : out;
  }

  function lookup(rawName: string, idx: number): string | undefined {
    const name = rawName.replace(/:.*$/, '').toLowerCase();
    const own = defs.get(name);
    // Not set by the script: SkillDesk's own environment, unknown but not something the script chose.
    if (!own) return entry(ENV_FOLDERS, name) ?? '\u0001';
    if (rawName.includes(':') || own.length !== 1 || !own[0]!.plain) return undefined;
    const def = own[0]!;
    if (def.line >= idx || (firstLabel >= 0 && def.line > firstLabel)) return undefined;
    return def.value;
  }

  function segment(text: string, line: number): void {
    let t = text
      .replace(/^[()\s]+|[()\s]+$/g, '')
      .replace(/^else\s+/i, '')
      .replace(/^[(\s]+/, '');
    if (!t) return;
    const forM = /^for\s+(.*?)\s*(%%?~?[a-z])\s+in\s*\((.*)\)\s*do\s+(.*)$/is.exec(t);
    if (forM) return forLoop(forM[1]!, forM[2]!, forM[3]!, forM[4]!, line);
    const ifM = /^if\s+(\/i\s+)?(not\s+)?(.*)$/is.exec(t);
    if (ifM) {
      const cond =
        /^(exist\s+("[^"]*"|\S+)|defined\s+\S+|errorlevel\s+\d+|cmdextversion\s+\d+|("[^"]*"|\S+)\s*==\s*("[^"]*"|\S+)|("[^"]*"|\S+)\s+(equ|neq|lss|leq|gtr|geq)\s+("[^"]*"|\S+))\s*(.*)$/is.exec(
          ifM[3]!,
        );
      if (!cond) return sink.fail('a cmd `if` whose condition this analysis cannot read', line);
      if (/^exist\s/i.test(cond[1]!)) touchPath(sink, 'read', words(cond[1]!.replace(/^exist\s+/i, ''))[0] ?? DYNAMIC, `if exist`, line);
      t = cond[8]!.replace(/^\(\s*/, '');
      if (!t) return;
      return segment(t, line);
    }
    const set = /^set\s+(\/a\s+|\/p\s+)?"?([^=\s"]+)=/i.exec(t);
    if (set) return isCodeLoadingEnv(set[2]!) ? sink.fail(`sets \`${set[2]}\`, which changes which programs run`, line) : undefined;
    command(words(t), line);
  }

  function forLoop(opts: string, variable: string, set: string, body: string, line: number): void {
    const f = /\/f/i.test(opts);
    const backq = /usebackq/i.test(opts);
    const s = set.trim();
    if (f && ((!backq && /^'.*'$/s.test(s)) || (backq && /^`.*`$/s.test(s)))) sink.inline(s.slice(1, -1), 'cmd', line);
    else if (f && !/^"/.test(s)) words(s).forEach((w) => touchPath(sink, 'read', w, 'for /f', line));
    // The loop variable stands for each item: only known at run time.
    const v = variable.replace(/^%%?~?/, '');
    segment(body.replace(new RegExp(`%%?~?[a-z]*${v}`, 'gi'), '\u0000'), line);
  }

  function command(argv: CmdWord[], line: number): void {
    const redirected: CmdWord[] = [];
    for (let k = 0; k < argv.length; k++) {
      const w = argv[k]!;
      const r = !w.quoted && /^(\d?>>?|<)(&\d)?(.*)$/.exec(w.text);
      if (r) {
        if (r[2]) continue;
        const target = r[3] ? { ...w, text: r[3] } : argv[++k];
        if (target) touchPath(sink, r[1] === '<' ? 'read' : 'write', target, `redirect to ${target.text}`, line);
        continue;
      }
      redirected.push(w);
    }
    if (redirected.length === 0) return;
    // `start "title" program`: a quoted first argument is the window title.
    if (/^start$/i.test(redirected[0]!.text) && redirected[1]?.quoted) redirected.splice(1, 1);
    if (delayed && redirected.some((w) => /!\w+!/.test(w.text)))
      redirected.forEach(
        (w, i) => (redirected[i] = /!\w+!/.test(w.text) ? { text: w.text.replace(/!\w+!/g, '\u0000'), dynamic: true } : w),
      );
    analyzeCommand(redirected, sink, { shell: 'cmd', line });
  }
}

/** Splits a line on `&`, `&&`, `||`, `|` outside quotes, honouring `^` escapes. */
function splitCommands(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '^' && !quoted && i + 1 < text.length) {
      cur += `^${text[++i]}`;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '&' || c === '|') && !(c === '&' && /[<>]/.test(text[i - 1] ?? ''))) {
      out.push(cur);
      cur = '';
      if (text[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** Words of a command: split on blanks outside quotes, quotes removed, `^x` is a literal `x`. */
function words(text: string): CmdWord[] {
  const out: CmdWord[] = [];
  let cur = '';
  let quoted = false;
  let wasQuoted = false;
  let started = false;
  const push = () => {
    if (started) out.push({ text: cur, dynamic: cur.includes('\u0000') || cur.includes('\u0001'), ...(wasQuoted && { quoted: true }) });
    cur = '';
    started = false;
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '^' && !quoted && i + 1 < text.length) {
      cur += text[++i];
      started = true;
    } else if (c === '"') {
      quoted = !quoted;
      wasQuoted = true;
      started = true;
    } else if (!quoted && /[\s,;=]/.test(c) && !(c === '=' && started)) push();
    else if (!quoted && (c === '>' || c === '<') && started && !/^\d$/.test(cur)) {
      push();
      cur = c;
      started = true;
    } else {
      cur += c;
      started = true;
    }
  }
  push();
  return out.map((w) => (w.text.includes('\u0001') ? { ...w, text: w.text.replaceAll('\u0001', '\u0000') } : w));
}

interface SetDef {
  line: number;
  value: string;
  plain: boolean;
}

/** Every `set NAME=value` (and `for` variable, `set /p`, `set /a`) by name. */
function collectSets(lines: string[]): Map<string, SetDef[]> {
  const defs = new Map<string, SetDef[]>();
  let depth = 0;
  lines.forEach((raw, idx) => {
    const text = raw.trim().replace(/^@/, '');
    for (const m of text.matchAll(/(?:^|[&(|]\s*|\s)set\s+(\/a\s+|\/p\s+)?"?([^=\s"]+)=([^&|"]*)"?/gi)) {
      const name = m[2]!.toLowerCase();
      const plain = !m[1] && depth === 0 && /^set\s/i.test(text) && !/[&|]/.test(text) && !m[3]!.includes('%') && !m[3]!.includes('!');
      const list = defs.get(name) ?? [];
      list.push({ line: idx, value: m[3]!.replace(/\s+$/, ''), plain });
      defs.set(name, list);
    }
    depth += (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  });
  return defs;
}
