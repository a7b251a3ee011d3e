/**
 * A Python tokenizer (no Python parser is available to Node without a Python runtime): string
 * literals with every prefix and triple quotes, comments, bracket nesting and line continuations
 * are exact, so names, calls and their literal arguments are found reliably. The expressions
 * inside f-strings are returned too, since they are code.
 */

export type Tok =
  | { t: 'name'; v: string; line: number }
  | { t: 'str'; v: string; fmt: boolean; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'num'; v: string; line: number }
  | { t: 'nl'; v: '\n'; line: number };

export function tokenizePython(src: string): { tokens: Tok[]; error?: string } {
  const tokens: Tok[] = [];
  let i = 0;
  let line = 1;
  const depth: string[] = [];
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      if (depth.length === 0) tokens.push({ t: 'nl', v: '\n', line });
      line++;
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const sm = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (sm && (sm[1] === '' || /^(r|b|u|f|rb|br|fr|rf)$/i.test(sm[1]!))) {
      const prefix = sm[1]!.toLowerCase();
      const q = sm[2]!;
      const raw = prefix.includes('r');
      let j = i + sm[0].length;
      let v = '';
      const startLine = line;
      for (;;) {
        if (j >= src.length) return { tokens, error: `unterminated string starting on line ${startLine}` };
        if (src.startsWith(q, j)) break;
        const ch = src[j]!;
        if (ch === '\n') {
          if (q.length === 1) return { tokens, error: `unterminated string on line ${startLine}` };
          line++;
        }
        if (ch === '\\' && j + 1 < src.length) {
          const nx = src[j + 1]!;
          if (nx === '\n') line++;
          v += raw ? ch + nx : (({ n: '\n', t: '\t', '\\': '\\', "'": "'", '"': '"', '\n': '' } as Record<string, string>)[nx] ?? ch + nx);
          j += 2;
          continue;
        }
        v += ch;
        j++;
      }
      tokens.push({ t: 'str', v, fmt: prefix.includes('f'), line: startLine });
      i = j + q.length;
      continue;
    }
    const nm = /^[A-Za-z_\u00c0-\uffff][\w\u00c0-\uffff]*/.exec(src.slice(i));
    if (nm) {
      tokens.push({ t: 'name', v: nm[0], line });
      i += nm[0].length;
      continue;
    }
    const num = /^(0[xXoObB][\da-fA-F_]+|\d[\d_]*\.?[\d_]*([eE][+-]?\d+)?j?|\.\d[\d_]*)/.exec(src.slice(i));
    if (num) {
      tokens.push({ t: 'num', v: num[0], line });
      i += num[0].length;
      continue;
    }
    if ('([{'.includes(c)) depth.push(c);
    if (')]}'.includes(c)) {
      const open = depth.pop();
      if (open !== { ')': '(', ']': '[', '}': '{' }[c]) return { tokens, error: `unbalanced \`${c}\` on line ${line}` };
    }
    const op = /^(\*\*=?|\/\/=?|->|:=|[-+*/%@&|^<>!=]=|<<=?|>>=?|[-+*/%@&|^~<>=.,:;()[\]{}])/.exec(src.slice(i));
    tokens.push({ t: 'op', v: op ? op[0] : c, line });
    i += op ? op[0].length : 1;
  }
  if (depth.length) return { tokens, error: `unclosed \`${depth.at(-1)}\` at end of file` };
  return { tokens };
}

/** The expressions inside an f-string's `{...}` fields (format specs may nest more of them). */
export function fStringExpressions(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{' && s[i + 1] === '{') {
      i++;
      continue;
    }
    if (s[i] !== '{') continue;
    let depth = 0;
    let quote = '';
    let j = i;
    for (; j < s.length; j++) {
      const c = s[j]!;
      if (quote) {
        if (c === quote) quote = '';
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if ('{[('.includes(c)) depth++;
      else if ('}])'.includes(c) && --depth === 0) break;
    }
    const inner = s.slice(i + 1, j);
    // `{x!r:>{width}}`: the expression ends at a top-level `!` or `:`; the spec may hold fields too.
    let k = 0;
    let d = 0;
    for (; k < inner.length; k++) {
      const c = inner[k]!;
      if ('{[('.includes(c)) d++;
      else if ('}])'.includes(c)) d--;
      else if (d === 0 && ((c === '!' && inner[k + 1] !== '=') || c === ':')) break;
    }
    out.push(inner.slice(0, k).replace(/=\s*$/, ''));
    out.push(...fStringExpressions(inner.slice(k)));
    i = j;
  }
  return out;
}
