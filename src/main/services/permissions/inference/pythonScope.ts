import { names } from './effects';
import { moduleFor, type PyCall } from './pythonModules';
import type { Tok } from './pythonTokens';
import { PyValues, split } from './pythonValues';
import type { InferenceSink, Word } from './types';

/**
 * What Python names stand for: imported modules (validated against the model table, local
 * modules followed, a local file shadowing a modelled module failing closed), and variables.
 * A variable's value is known only when the name is bound exactly once, by `NAME = expr`; any
 * other binding (a parameter, a loop or `with` target, augmented or tuple assignment, `global`)
 * makes it unknown, whatever order the code runs in.
 */

/** Modules compiled into the interpreter: a local file cannot shadow them. */
const BUILTIN_MODULES = new Set(
  names('sys builtins time posix nt marshal errno gc itertools atexit _thread pwd _io _imp _warnings _signal __future__'),
);
const MOD = '\u0000mod:';

export class PyScope extends PyValues {
  private readonly aliases = new Map<string, string>();
  private readonly localModules = new Set<string>();
  private readonly importTokens = new Set<Tok>();
  private readonly bindings = new Map<string, number>();
  private readonly values = new Map<string, Tok[]>();
  /** How often each name appears: a list named more than where it is bound and used once may be changed elsewhere. */
  private readonly uses = new Map<string, number>();

  constructor(sink: InferenceSink) {
    super(sink);
  }

  /** Reads a chunk's imports and bindings; rewrites `__import__('m')` into a module name. */
  collect(toks: Tok[]): boolean {
    for (let k = 0; k < toks.length; k++)
      if (this.atStatement(toks, k) && /^(import|from)$/.test(toks[k]!.v) && toks[k]!.t === 'name') this.importStatement(toks, k);
    this.rewriteDynamicImports(toks);
    this.countBindings(toks);
    return true;
  }

  private atStatement(toks: Tok[], k: number): boolean {
    const p = toks[k - 1];
    return !p || p.t === 'nl' || p.v === ';' || (p.v === ':' && toks[k]!.t === 'name' && /^(import|from)$/.test(toks[k]!.v));
  }

  isImportStatement(_toks: Tok[], k: number): boolean {
    return this.importTokens.has(_toks[k]!);
  }

  private statement(toks: Tok[], k: number): Tok[] {
    const out: Tok[] = [];
    let depth = 0;
    for (let j = k; j < toks.length; j++) {
      const t = toks[j]!;
      if (t.t === 'op' && '([{'.includes(t.v)) depth++;
      if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
      if (depth <= 0 && (t.t === 'nl' || t.v === ';')) break;
      out.push(t);
    }
    return out;
  }

  private importStatement(toks: Tok[], k: number): void {
    const st = this.statement(toks, k);
    st.forEach((t) => this.importTokens.add(t));
    const line = st[0]!.line;
    const names = st.filter((t) => t.v !== '(' && t.v !== ')');
    if (names[0]!.v === 'import') {
      for (const part of split(names.slice(1), ',')) {
        const asIdx = part.findIndex((x) => x.v === 'as');
        const mod = (asIdx < 0 ? part : part.slice(0, asIdx)).map((x) => x.v).join('');
        if (!this.importModule(mod, line)) continue;
        if (asIdx >= 0) this.aliases.set(part[asIdx + 1]!.v, mod);
        else this.aliases.set(mod.split('.')[0]!, mod.split('.')[0]!);
      }
      return;
    }
    const imp = names.findIndex((x) => x.v === 'import');
    const mod = names
      .slice(1, imp)
      .map((x) => x.v)
      .join('');
    if (mod.startsWith('.')) {
      // `from . import helper`: a module next to this script.
      for (const part of split(names.slice(imp + 1), ','))
        this.importModule(part[0]!.v, line, `${mod.replace(/^\.+/, '')}${part[0]!.v}`.replace(/\./g, '/'));
      for (const part of split(names.slice(imp + 1), ',')) this.aliases.set(part.at(-1)!.v, part[0]!.v);
      return;
    }
    if (!this.importModule(mod, line)) return;
    for (const part of split(names.slice(imp + 1), ',')) {
      const name = part[0]?.v;
      if (!name) continue;
      if (name === '*') {
        const found = moduleFor(mod);
        if (!this.localModules.has(mod) && found?.module.values?.source !== '.')
          this.sink.fail(`\`from ${mod} import *\` brings in names this analysis cannot tell apart`, line);
        continue;
      }
      this.aliases.set(part[1]?.v === 'as' ? part[2]!.v : name, `${mod}.${name}`);
    }
  }

  /**
   * Validates an import. A file next to the script is what Python imports (it comes first on
   * `sys.path`), so it is followed; otherwise the module must be modelled.
   */
  private importModule(mod: string, line: number, localPath?: string): boolean {
    const top = mod.split('.')[0]!;
    if (localPath !== undefined || !BUILTIN_MODULES.has(top)) {
      const base = localPath ?? top;
      const local = [`${base}.py`, `${base}/__init__.py`].find((p) => this.sink.exists(p));
      if (local) {
        this.localModules.add(localPath ? mod : top);
        this.sink.follow(local, 'python', line, []);
        return true;
      }
      if (localPath !== undefined) {
        this.sink.fail(`imports local module \`${mod}\`, which cannot be read`, line);
        return false;
      }
    }
    if (!moduleFor(mod)) {
      this.sink.fail(`imports \`${mod}\`, a module this analysis does not model`, line);
      return false;
    }
    return true;
  }

  /** `__import__('os')`, `importlib.import_module('os')`: the module, as if imported. */
  private rewriteDynamicImports(toks: Tok[]): void {
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k]!;
      if (t.t !== 'name' || toks[k - 1]?.v === '.') continue;
      let callee = k;
      if (this.modulePath(t.v) === 'importlib' && toks[k + 1]?.v === '.' && toks[k + 2]?.v === 'import_module') callee = k + 2;
      else if (!(t.v === '__import__' || this.modulePath(t.v) === 'importlib.import_module')) continue;
      if (toks[callee + 1]?.v !== '(') continue;
      const close = this.closing(toks, callee + 1);
      const arg = this.word(split(toks.slice(callee + 2, close), ',')[0]);
      if (arg.dynamic) {
        this.sink.fail('imports a module named at run time', t.line);
        continue;
      }
      if (!this.importModule(arg.text, t.line)) continue;
      this.aliases.set(`${MOD}${arg.text}`, arg.text);
      toks.splice(k, close - k + 1, { t: 'name', v: `${MOD}${arg.text}`, line: t.line });
    }
  }

  private countBindings(toks: Tok[]): void {
    const bind = (name: string, value?: Tok[]) => {
      this.bindings.set(name, (this.bindings.get(name) ?? 0) + 1);
      if (value) this.values.set(name, value);
    };
    let depth = 0;
    let start = 0;
    for (let k = 0; k < toks.length; k++) {
      const t = toks[k]!;
      if (t.t === 'name' && toks[k - 1]?.v !== '.') this.uses.set(t.v, (this.uses.get(t.v) ?? 0) + 1);
      if (t.t === 'nl' || t.v === ';') start = k + 1;
      if (t.t === 'op' && '([{'.includes(t.v)) depth++;
      if (t.t === 'op' && ')]}'.includes(t.v)) depth--;
      if (t.t === 'name' && /^(for|as|global|nonlocal|del|def|class|lambda)$/.test(t.v)) {
        // Every name up to `in`, `:`, `(` or the end of the statement is bound here.
        for (let j = k + 1; j < toks.length && !/^(in|:|=|\n)$/.test(toks[j]!.v); j++)
          if (toks[j]!.t === 'name' && toks[j - 1]?.v !== '.') bind(toks[j]!.v);
      }
      if (t.t === 'op' && /^([-+*/%@&|^]|\/\/|\*\*|<<|>>)=$|^:=$/.test(t.v) && toks[k - 1]?.t === 'name') bind(toks[k - 1]!.v);
      if (t.t === 'op' && t.v === '=' && depth === 0) {
        const lhs = toks.slice(start, k);
        const rhs = this.statement(toks, k + 1);
        const simple = lhs.length === 1 && lhs[0]!.t === 'name';
        let d = 0;
        for (const x of lhs) {
          if ('([{'.includes(x.v)) d++;
          if (')]}'.includes(x.v)) d--;
          if (x.t === 'name' && d === 0 && lhs[lhs.indexOf(x) - 1]?.v !== '.') bind(x.v, simple ? rhs : undefined);
        }
        if (simple && rhs.length && rhs.every((x) => x.t === 'name' || x.v === '.')) {
          const path = this.modulePath(rhs[0]!.v);
          if (path !== undefined)
            this.aliases.set(lhs[0]!.v, [path, ...rhs.filter((x, i) => i > 0 && x.t === 'name').map((x) => x.v)].join('.'));
        }
        start = k + 1;
      }
      // Parameters: names inside a def's parentheses.
      if (t.v === 'def') {
        const open = k + 2;
        const close = this.closing(toks, open);
        for (let j = open + 1; j < close; j++) if (toks[j]!.t === 'name' && /^[(,*]|\*\*$/.test(toks[j - 1]!.v)) bind(toks[j]!.v);
      }
    }
  }

  modulePath(name: string): string | undefined {
    return this.aliases.get(name) ?? (name.startsWith(MOD) ? name.slice(MOD.length) : undefined);
  }
  isModuleToken(v: string): boolean {
    return v.startsWith(MOD);
  }
  isLocalModule(name: string): boolean {
    return [...this.localModules].some((m) => name === m || name.startsWith(`${m}.`)) || this.localModules.has(name.split('.')[0]!);
  }
  /** Whether some imported module matches. */
  imports(re: RegExp): boolean {
    return [...this.aliases.values()].some((m) => re.test(m));
  }
  /** `x = os`: the statement only names the module (an alias, already recorded). */
  isAliasAssignment(toks: Tok[], end: number): boolean {
    let k = end;
    while (toks[k - 1]?.v === '.' || (toks[k]?.t === 'name' && toks[k - 1]?.v === '.')) k--;
    return (
      toks[k - 1]?.v === '=' &&
      toks[k - 2]?.t === 'name' &&
      (toks[k - 3] === undefined || toks[k - 3]!.t === 'nl') &&
      (toks[end + 1] === undefined || toks[end + 1]!.t === 'nl')
    );
  }

  closing(toks: Tok[], open: number): number {
    let depth = 0;
    for (let j = open; j < toks.length; j++) {
      if ('([{'.includes(toks[j]!.v) && toks[j]!.t === 'op') depth++;
      if (')]}'.includes(toks[j]!.v) && toks[j]!.t === 'op' && --depth === 0) return j;
    }
    return toks.length - 1;
  }

  parseCall(toks: Tok[], attr: string, open: number, line: number): PyCall {
    const args: Tok[][] = [];
    const kwargs = new Map<string, Tok[]>();
    for (const part of split(toks.slice(open + 1, this.closing(toks, open)), ',')) {
      if (part.length >= 2 && part[0]!.t === 'name' && part[1]!.v === '=') kwargs.set(part[0]!.v, part.slice(2));
      else if (part.length) args.push(part);
    }
    return { attr, args, kwargs, line };
  }

  /** The path a receiver expression stands for: `Path('~/x')`, `open('/etc/x')`. */
  receiverOf(toks: Tok[], close: number): Word | undefined {
    let depth = 0;
    let open = close;
    for (; open >= 0; open--) {
      if (toks[open]!.v === ')') depth++;
      if (toks[open]!.v === '(' && --depth === 0) break;
    }
    const callee = toks[open - 1];
    if (
      !callee ||
      callee.t !== 'name' ||
      !/^(Path|PurePath|PosixPath|WindowsPath|open|expanduser|resolve|joinpath|absolute)$/.test(callee.v)
    )
      return undefined;
    return this.word(toks.slice(open - 1 - (toks[open - 2]?.v === '.' ? 2 : 0), close + 1));
  }

  private readonly evaluating = new Set<string>();

  /** The value of a variable bound exactly once by `NAME = expr`, or undefined. */
  pathOf(name: string): Word | undefined {
    if (this.bindings.get(name) !== 1 || !this.values.has(name) || this.evaluating.has(name)) return undefined;
    this.evaluating.add(name);
    try {
      return this.word(this.values.get(name));
    } finally {
      this.evaluating.delete(name);
    }
  }

  boundTo(name: string): Tok[] | undefined {
    // Lists are mutable and shared: only one bound once and used once is known to be as written.
    return this.bindings.get(name) === 1 && (this.uses.get(name) ?? 0) <= 2 && !this.evaluating.has(name)
      ? this.values.get(name)
      : undefined;
  }

  isBound(name: string): boolean {
    return this.bindings.has(name);
  }
}
