import { analyzeCommand, DYNAMIC, lit, touchPath, type Word } from './commands';
import type { InferenceSink } from './types';

/**
 * cmd.exe batch scripts, by tokenizer: lines split on `&`, `&&`, `||`, `|`; words split on
 * blanks outside double quotes; `>`/`>>` redirections; `%VAR%` values from literal `set`.
 * Programs are then judged by the shared command rules (reg, schtasks, curl, del, ...).
 */
export function analyzeCmd(source: string, sink: InferenceSink): void {
  const vars = new Map<string, string>([
    ['userprofile', '~'],
    ['home', '~'],
  ]);
  const lines = source.replace(/\^\r?\n/g, ' ').split(/\r?\n/);
  lines.forEach((raw, idx) => {
    const line = idx + 1;
    const text = raw.trim().replace(/^@/, '');
    if (!text || /^(rem\b|::)/i.test(text)) return;
    if ((text.match(/"/g) ?? []).length % 2 === 1) return sink.fail(`unbalanced double quote`, line);
    for (const part of splitOutsideQuotes(text, /&&|\|\||&|\|/)) {
      const words = splitOutsideQuotes(part.trim(), /\s+/).filter(Boolean);
      const set = /^set\s+(?:\/a\s+|\/p\s+)?"?([^=\s"]+)=(.*?)"?$/i.exec(part.trim());
      if (set) {
        vars.set(set[1]!.toLowerCase(), set[2]!.includes('%') ? '\u0000' : set[2]!);
        continue;
      }
      const argv: Word[] = [];
      for (let k = 0; k < words.length; k++) {
        const w = words[k]!;
        const redir = /^(\d?>>?|<)(.*)$/.exec(w);
        if (redir) {
          const target = expand(redir[2] || words[++k] || '');
          touchPath(sink, redir[1] === '<' ? 'read' : 'write', target, `redirect to ${target.text}`, line);
          continue;
        }
        argv.push(expand(w));
      }
      if (argv.length) analyzeCommand(argv, sink, line);
    }
  });

  function expand(w: string): Word {
    let dynamic = false;
    const text = w.replace(/^"|"$/g, '').replace(/%([^%\s]+)%/g, (_m, name: string) => {
      const v = vars.get(name.toLowerCase());
      if (v === undefined || v.includes('\u0000')) {
        dynamic = true;
        return '\u0000';
      }
      return v;
    });
    return dynamic ? { text, dynamic } : /%%?\w/.test(text) ? DYNAMIC : lit(text);
  }
}

function splitOutsideQuotes(text: string, sep: RegExp): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    if (!quoted) {
      const m = new RegExp(`^(?:${sep.source})`).exec(text.slice(i));
      if (m && m[0].length) {
        out.push(cur);
        cur = '';
        i += m[0].length - 1;
        continue;
      }
    }
    cur += c;
  }
  out.push(cur);
  return out;
}
