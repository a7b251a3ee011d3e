/**
 * A PowerShell tokenizer. No maintained PowerShell parser exists on npm (the real one is .NET's
 * System.Management.Automation.Language.Parser), so strings, here-strings, comments, variables,
 * escapes and operators are tokenized exactly here; the analysis works on the tokens.
 */

export type Tok =
  | { t: 'word'; v: string; line: number; sp?: boolean }
  | { t: 'str'; v: string; dynamic: boolean; line: number; sp?: boolean }
  | { t: 'var'; v: string; line: number; sp?: boolean }
  | { t: 'op'; v: string; line: number; sp?: boolean }
  | { t: 'sep'; v: string; line: number; sp?: boolean };

export function tokenizePowerShell(src: string): { tokens: Tok[]; error?: string } {
  const tokens: Tok[] = [];
  let i = 0;
  let line = 1;
  const at = (k = 0) => src[i + k] ?? '';
  // Whether blanks precede a token tells `$x.Member` from `. $script`.
  const push = (t: Tok) => tokens.push({ ...t, sp: i === 0 || /\s/.test(src[i - 1] ?? '') });
  while (i < src.length) {
    const c = at();
    if (c === '\n') {
      push({ t: 'sep', v: '\n', line });
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '`' && (at(1) === '\n' || at(1) === '\r')) {
      i += at(1) === '\r' ? 3 : 2;
      line++;
      continue;
    } // line continuation
    if (c === '<' && at(1) === '#') {
      const end = src.indexOf('#>', i + 2);
      if (end < 0) return { tokens, error: `unterminated block comment starting on line ${line}` };
      line += countLines(src.slice(i, end));
      i = end + 2;
      continue;
    }
    if (c === '#') {
      while (i < src.length && at() !== '\n') i++;
      continue;
    }
    if (c === '@' && (at(1) === '"' || at(1) === "'") && (at(2) === '\n' || at(2) === '\r')) {
      const q = at(1);
      const end = src.indexOf(`\n${q}@`, i);
      if (end < 0) return { tokens, error: `unterminated here-string starting on line ${line}` };
      const body = src.slice(src.indexOf('\n', i) + 1, end).replace(/\r$/, '');
      push({ t: 'str', v: body, dynamic: q === '"' && /\$[\w{(]/.test(body), line });
      line += countLines(src.slice(i, end + 3));
      i = end + 3;
      continue;
    }
    if (c === "'" || c === '\u2018' || c === '\u2019') {
      let v = '';
      let j = i + 1;
      for (; ; j++) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${line}` };
        if (src[j] === "'" && src[j + 1] === "'") {
          v += "'";
          j++;
          continue;
        }
        if (src[j] === "'" || src[j] === '\u2019') break;
        v += src[j];
      }
      push({ t: 'str', v, dynamic: false, line });
      line += countLines(v);
      i = j + 1;
      continue;
    }
    if (c === '"' || c === '\u201c' || c === '\u201d') {
      let v = '';
      let j = i + 1;
      for (; ; j++) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${line}` };
        if (src[j] === '`') {
          v += src[j + 1] ?? '';
          j++;
          continue;
        }
        if (src[j] === '"' && src[j + 1] === '"') {
          v += '"';
          j++;
          continue;
        }
        if (src[j] === '"' || src[j] === '\u201d') break;
        v += src[j];
      }
      push({ t: 'str', v, dynamic: /\$[\w{(]/.test(v), line });
      line += countLines(v);
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$(\{[^}]*\}|[\w:?^$]+)/.exec(src.slice(i));
      if (m) {
        push({ t: 'var', v: m[1]!.replace(/^\{|\}$/g, ''), line });
        i += m[0].length;
        continue;
      }
      if (at(1) === '(') {
        push({ t: 'op', v: '$(', line });
        i += 2;
        continue;
      }
    }
    if (c === ';' || c === '|' || c === '{' || c === '}' || c === '(' || c === ')') {
      if (c === '|' && at(1) === '|') {
        push({ t: 'sep', v: '||', line });
        i += 2;
        continue;
      }
      push(c === ';' || c === '|' ? { t: 'sep', v: c, line } : { t: 'op', v: c, line });
      i++;
      continue;
    }
    if (c === '&' && at(1) === '&') {
      push({ t: 'sep', v: '&&', line });
      i += 2;
      continue;
    }
    if (c === '>' || (c === '2' && at(1) === '>') || (c === '*' && at(1) === '>')) {
      const m = /^[*2]?>>?(&[12])?/.exec(src.slice(i))!;
      push({ t: 'op', v: m[0], line });
      i += m[0].length;
      continue;
    }
    if (c === '=' || c === ',' || c === '&' || (c === '+' && at(1) === '=')) {
      push({ t: 'op', v: c === '+' ? '+=' : c, line });
      i += c === '+' ? 2 : 1;
      continue;
    }
    // A bareword; a backtick escapes the next character (`i`e`x` is `iex`).
    const m = /^(?:[^\s;|{}()'"=,`<>]|`[^\r\n])+/.exec(src.slice(i));
    if (!m) {
      push({ t: 'op', v: c, line });
      i++;
      continue;
    }
    push({ t: 'word', v: m[0].replace(/`(.)/g, '$1'), line });
    i += m[0].length;
  }
  return { tokens };
}

function countLines(s: string): number {
  return s.split('\n').length - 1;
}
