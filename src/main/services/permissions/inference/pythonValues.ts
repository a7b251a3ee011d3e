import { DYNAMIC, DYNAMIC_MANY, lit } from './effects';
import type { Tok } from './pythonTokens';
import type { InferenceSink, Word } from './types';

/**
 * The values of Python expressions the analysis can know: literals and their concatenation,
 * variables bound once, `sys.argv[N]`, `sys.executable`, and paths built with `os.path.join`,
 * `Path.home() / ...` or `os.path.expanduser`. Anything else is only known at run time.
 */

const PATH_HELPERS =
  /^(os|path|expanduser|expandvars|join|Path|PurePath|PosixPath|WindowsPath|home|str|abspath|realpath|normpath|pathlib|resolve|fspath|joinpath)$/;

export abstract class PyValues {
  constructor(protected readonly sink: InferenceSink) {}

  /** The module path a name is bound to, if it is a module alias. */
  abstract modulePath(name: string): string | undefined;
  /** The value of a variable bound exactly once, or undefined. */
  abstract pathOf(name: string): Word | undefined;
  /** The expression a variable bound exactly once holds, or undefined. */
  abstract boundTo(name: string): Tok[] | undefined;

  /** The value of an expression: literals, known variables, `sys.argv[N]`, path building. */
  word(toks: Tok[] | undefined): Word {
    if (!toks || toks.length === 0) return lit('');
    if (toks.length === 1) {
      const t = toks[0]!;
      if (t.t === 'str') return t.fmt ? this.format(t.v) : lit(t.v);
      if (t.t === 'name') return this.pathOf(t.v) ?? DYNAMIC;
      return DYNAMIC;
    }
    if (toks.every((t, i) => (i % 2 === 0 ? t.t === 'str' : t.v === '+'))) {
      const parts = toks.filter((t) => t.t === 'str').map((t) => this.word([t]));
      return { text: parts.map((p) => p.text).join(''), dynamic: parts.some((p) => p.dynamic) };
    }
    const names = toks.filter((t) => t.t === 'name').map((t) => this.modulePath(t.v) ?? t.v);
    if (names.join('.') === 'sys.executable') return lit('python3');
    const argv = /^sys\.argv\[(\d+)\]$/.exec(toks.map((t) => (t.t === 'name' ? (this.modulePath(t.v) ?? t.v) : t.v)).join(''));
    if (argv)
      return Number(argv[1]) === 0 ? lit(this.sink.file) : this.sink.args ? (this.sink.args[Number(argv[1]) - 1] ?? lit('')) : DYNAMIC;
    return this.pathExpr(toks);
  }

  /** `os.path.join(base, '.ssh')`, `Path.home() / '.ssh'`, `os.path.expanduser('~/.aws')`: a path. */
  private pathExpr(toks: Tok[]): Word {
    let text = '';
    let dynamic = false;
    const parts: string[] = [];
    for (const t of toks) {
      if (t.t === 'str') parts.push(t.fmt ? this.format(t.v).text : t.v);
      else if (t.t === 'name' && /^(home|expanduser)$/.test(t.v) && !toks.some((x) => x.t === 'str' && x.v.startsWith('~')))
        parts.push(t.v === 'home' ? '~' : '');
      else if (t.t === 'name' && !PATH_HELPERS.test(this.modulePath(t.v)?.split('.').at(-1) ?? t.v)) {
        const v = this.pathOf(t.v);
        if (!v) return DYNAMIC;
        parts.push(v.text);
        dynamic ||= v.dynamic;
      } else if (t.t === 'op' && !/^[()/,.+]$/.test(t.v)) return DYNAMIC;
    }
    if (parts.length === 0) return DYNAMIC;
    text = parts
      .filter((p) => p !== '')
      .join('/')
      .replace(/\/+/g, '/')
      .replace(/([^:])\/\//g, '$1/');
    return { text, dynamic };
  }

  protected format(v: string): Word {
    let dynamic = false;
    const text = v.replace(/\{([^{}]*)\}/g, (_m, e: string) => {
      const w = this.pathOf(e.trim());
      if (w && !w.dynamic) return w.text;
      dynamic = true;
      return '\u0000';
    });
    return { text, dynamic };
  }

  /** A list or tuple of words (`['curl', url, *sys.argv[1:]]`), or `shlex.split('...')` of literal text. */
  words(toks: Tok[] | undefined): Word[] | undefined {
    if (!toks?.length) return undefined;
    // `cmd = ['curl', ...]` then `subprocess.run(cmd)`.
    if (toks.length === 1 && toks[0]!.t === 'name') {
      const bound = this.boundTo(toks[0]!.v);
      return bound && bound !== toks ? this.words(bound) : undefined;
    }
    const head = this.modulePath(toks[0]!.v) ?? toks[0]!.v;
    if (head === 'shlex' && toks[2]?.v === 'split') {
      const w = this.word(toks.slice(4, -1));
      return w.dynamic ? [DYNAMIC_MANY] : w.text.split(/\s+/).filter(Boolean).map(lit);
    }
    if (toks[0]!.v !== '[' && toks[0]!.v !== '(') return undefined;
    return split(toks.slice(1, -1), ',')
      .filter((p) => p.length)
      .flatMap((p) => {
        if (p[0]!.v !== '*') return [this.word(p)];
        const m = /^\*sys\.argv\[(\d+):\]$/.exec(p.map((t) => (t.t === 'name' ? (this.modulePath(t.v) ?? t.v) : t.v)).join(''));
        if (m && this.sink.args) return this.sink.args.slice(Math.max(0, Number(m[1]) - 1));
        return [DYNAMIC_MANY];
      });
  }
}

/** Splits tokens on a separator outside brackets. */
export function split(toks: Tok[], sep: string): Tok[][] {
  const out: Tok[][] = [[]];
  let depth = 0;
  for (const t of toks) {
    if ('([{'.includes(t.v) && t.t === 'op') depth++;
    if (')]}'.includes(t.v) && t.t === 'op') depth--;
    if (depth === 0 && t.v === sep && t.t === 'op') out.push([]);
    else out.at(-1)!.push(t);
  }
  return out;
}
