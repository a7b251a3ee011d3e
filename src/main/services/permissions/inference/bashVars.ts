import mvdan, { type ShNode } from 'mvdan-sh';
import { DYNAMIC, lit, names } from './effects';
import type { ScriptArgs, Word } from './types';

/**
 * Shell variables, soundly. A variable's value is known at a use only when every definition is
 * a plain top-level `NAME=literal` (not in a function, loop, condition, pipeline or background
 * job), one of them precedes the use, and the name appears nowhere else (`read NAME`,
 * `printf -v NAME`, `for NAME in`, `NAME+=`, `${NAME:=x}`, arithmetic...): any other way of
 * setting it makes the value unknown, whatever order the statements run in.
 */

const syntax = mvdan.syntax;

interface Def {
  offset: number;
  /** The assigned word (none: the empty string). */
  node: ShNode | null;
  /** A plain top-level literal assignment. */
  plain: boolean;
  /** Assigned only numbers (arithmetic, counters, numeric command output). */
  numeric: boolean;
}

/** Commands whose output is a number or a date: safe to evaluate arithmetically. */
const NUMERIC_OUTPUT = new Set(names('wc nproc date id expr seq stat getconf tput'));
const SAFE_ENV = new Set(names('RANDOM LINENO SECONDS BASHPID EUID UID PPID OPTIND COLUMNS LINES SHLVL EPOCHSECONDS'));

export class BashScope {
  /** Functions the script defines at top level, by name, with where each definition ends. */
  private readonly functionDefs = new Map<string, number>();
  private functionsUnset = false;
  /** Whether aliases are expanded (sh, or bash with `shopt -s expand_aliases` / POSIX mode). */
  aliasesExpand: boolean;
  /** IFS is assigned for the whole script: unquoted expansions split in ways not followed here. */
  ifsChanged = false;
  /** Names declared integer (`declare -i`): assigning them evaluates arithmetic. */
  readonly intVars = new Set<string>();
  private readonly defs = new Map<string, Def[]>();
  private readonly mentioned = new Set<string>();
  private readonly funcRanges: [number, number][] = [];
  private positionalChanged = false;
  private firstCd = Infinity;
  private prefixOnly = false;

  constructor(
    file: ShNode,
    variant: 'bash' | 'sh',
    private readonly args: ScriptArgs,
    private readonly home: Word = lit('~'),
  ) {
    this.aliasesExpand = variant === 'sh';
    const topLevel = new Set<number>();
    for (const s of (file.Stmts as ShNode[]) ?? []) if (!s.Background && s.Cmd) topLevel.add((s.Cmd as ShNode).Pos().Offset());
    const excluded = new Set<number>();
    const lits = this.lits;
    syntax.Walk(file, (n) => {
      if (!n) return true;
      const t = syntax.NodeType(n);
      const at = n.Pos().Offset();
      if (t === 'FuncDecl') {
        // Only a top-level definition is sure to exist when a later command names it.
        const name = String((n.Name as ShNode).Value);
        this.functionDefs.set(name, Math.min(this.functionDefs.get(name) ?? Infinity, topLevel.has(at) ? n.End().Offset() : Infinity));
        this.funcRanges.push([at, n.End().Offset()]);
      } else if (t === 'CallExpr') {
        const args = n.Args as ShNode[];
        const head = args[0] ? wordLiteral(args[0]) : undefined;
        this.prefixOnly = args.length > 0;
        for (const a of n.Assigns as ShNode[]) this.assign(a, args.length === 0 && topLevel.has(at), excluded);
        this.prefixOnly = false;
        if (head === 'shopt' && args.some((w) => wordLiteral(w) === 'expand_aliases')) this.aliasesExpand = true;
        if (head === 'set' && args.some((w) => /^(posix|-o)$/.test(wordLiteral(w) ?? '')))
          this.aliasesExpand ||= args.some((w) => wordLiteral(w) === 'posix');
        if (
          !this.inFunction(at) &&
          (head === 'shift' || (head === 'set' && args.some((w, i) => i > 0 && !/^[-+][a-zA-Z]*$|^[-+]o$/.test(wordLiteral(w) ?? '-'))))
        )
          this.positionalChanged = true;
        if (head === 'cd' || head === 'pushd' || head === 'popd') this.firstCd = Math.min(this.firstCd, at);
        if (head === 'unset' && args.some((w) => /^-[a-z]*f/.test(wordLiteral(w) ?? ''))) this.functionsUnset = true;
      } else if (t === 'DeclClause') {
        const flags = (n.Args as ShNode[]).filter((a) => a.Naked && !a.Name).map((a) => wordLiteral(a.Value as ShNode) ?? '\u0000');
        const variant2 = String((n.Variant as ShNode).Value);
        const plain = variant2 !== 'local' && topLevel.has(at) && flags.every((f) => /^-[xrg]+$/.test(f));
        for (const a of n.Args as ShNode[]) {
          if (!a.Name) continue;
          if (flags.some((f) => f.includes('i'))) this.intVars.add(String((a.Name as ShNode).Value));
          if (!a.Naked) this.assign(a, plain, excluded);
          else excluded.add((a.Name as ShNode).Pos().Offset());
        }
      } else if (t === 'WordIter' || t === 'CoprocClause') {
        const name = n.Name as ShNode | null;
        if (name) this.mentioned.add(String(name.Value));
      } else if (t === 'ParamExp') {
        const p = n.Param as ShNode;
        excluded.add(p.Pos().Offset());
        const exp = n.Exp as ShNode | null;
        if (exp && (exp.Op === 74 || exp.Op === 75)) this.mentioned.add(String(p.Value)); // ${X=v}, ${X:=v}
      } else if (t === 'Lit' || t === 'SglQuoted') lits.push({ offset: at, text: String(n.Value) });
      // Names in arithmetic are read, or assigned numbers: not mentions that could set them to text.
      for (const e of arithmeticParts(n, t))
        syntax.Walk(e, (x) => (x && syntax.NodeType(x) === 'Lit' && excluded.add(x.Pos().Offset()), true));
      return true;
    });
    this.excluded = excluded;
  }

  private readonly lits: { offset: number; text: string }[] = [];
  private excluded = new Set<number>();
  private readonly mentionCache = new Map<string, boolean>();

  /** A name written anywhere outside arithmetic (`read X`, `printf -v X`, `X+=`, `for X in`) may be set there, to anything. */
  private isMentioned(name: string): boolean {
    if (this.mentioned.has(name)) return true;
    let hit = this.mentionCache.get(name);
    if (hit === undefined) {
      const re = new RegExp(`(^|[^\\w])${name}([^\\w]|$)`);
      hit = this.lits.some((l) => !this.excluded.has(l.offset) && re.test(l.text));
      this.mentionCache.set(name, hit);
    }
    return hit;
  }

  private assign(a: ShNode, topLevel: boolean, excluded: Set<number>): void {
    const nameNode = a.Name as ShNode | null;
    if (!nameNode) return;
    excluded.add(nameNode.Pos().Offset());
    const name = String(nameNode.Value);
    if (name === 'IFS' && !this.prefixOnly) this.ifsChanged = true;
    const v = a.Value as ShNode | null;
    const numeric = v ? isNumericWord(v) : false;
    const plain = topLevel && !a.Append && !a.Index && !a.Array;
    const list = this.defs.get(name) ?? [];
    list.push({ offset: a.Pos().Offset(), node: v, plain, numeric });
    this.defs.set(name, list);
  }

  /** Functions certainly defined when a command at `offset` runs: calling one runs its body, analysed where it stands. */
  functionsAt(offset: number): Set<string> {
    if (this.functionsUnset) return new Set();
    return new Set(
      [...this.functionDefs].filter(([, end]) => end !== Infinity && (end <= offset || this.inFunction(offset))).map(([name]) => name),
    );
  }

  inFunction(offset: number): boolean {
    return this.funcRanges.some(([s, e]) => offset >= s && offset < e);
  }

  /** Whether the folder may have changed before `offset` (a `cd` earlier in the script). */
  cdBefore(offset: number): boolean {
    return this.firstCd < offset;
  }

  /** The value of `$name` at a use; `resolve` evaluates the defining word where it stands. */
  value(name: string, offset: number, resolve: (node: ShNode, offset: number) => Word): Word {
    const defs = this.defs.get(name);
    if (!defs) return name === 'HOME' ? this.home : DYNAMIC;
    if (this.isMentioned(name) || defs.some((d) => !d.plain)) return DYNAMIC;
    const before = defs.filter((d) => d.offset < offset);
    if (before.length === 0) return name === 'HOME' ? this.home : DYNAMIC;
    if (this.inFunction(offset) && defs.length > 1) return DYNAMIC;
    const def = before.at(-1)!;
    return def.node ? resolve(def.node, def.offset) : lit('');
  }

  /** Whether `$name` can only hold a number (safe to evaluate arithmetically). */
  numeric(name: string, offset: number): boolean {
    if (SAFE_ENV.has(name) || /^[0-9#?$!]$/.test(name)) return true;
    const defs = this.defs.get(name);
    if (!defs) return !this.isMentioned(name);
    if (defs.every((d) => d.numeric) && !this.isMentioned(name)) return true;
    const v = this.value(name, offset, (node) => (wordLiteral(node) !== undefined ? lit(wordLiteral(node)!) : DYNAMIC));
    return !v.dynamic && /^[\s\d+\-*/%()<>=!&|^~?:,.]*$/.test(v.text);
  }

  /** `$N` at a use: the script's argument, or unknown (in a function, after `shift`, or when the arguments are). */
  positional(n: number, offset: number): Word {
    if (n === 0) return DYNAMIC;
    const all = this.positionalAll(offset);
    return all ? (all[n - 1] ?? lit('')) : DYNAMIC;
  }

  /** `"$@"` at a use: the words, or undefined when unknown. */
  positionalAll(offset: number): readonly Word[] | undefined {
    if (this.inFunction(offset) || this.positionalChanged || !this.args) return undefined;
    return this.args;
  }
}

/** The arithmetic expressions directly under a node. */
function arithmeticParts(n: ShNode, t: string): ShNode[] {
  if (t === 'ArithmCmd' || t === 'ArithmExp') return [n.X as ShNode];
  if (t === 'LetClause') return (n.Exprs as ShNode[]) ?? [];
  if (t === 'CStyleLoop') return [n.Init, n.Cond, n.Post].filter(Boolean) as ShNode[];
  if (t === 'ParamExp')
    return [n.Index, (n.Slice as ShNode | null)?.Offset, (n.Slice as ShNode | null)?.Length].filter(Boolean) as ShNode[];
  return [];
}

/** A word's text when it is a literal (quoted or not) with no expansions. */
export function wordLiteral(w: ShNode | null | undefined): string | undefined {
  if (!w) return undefined;
  let text = '';
  for (const p of (w.Parts as ShNode[]) ?? []) {
    const t = syntax.NodeType(p);
    if (t === 'Lit' || (t === 'SglQuoted' && !p.Dollar)) text += String(p.Value);
    else if (t === 'DblQuoted' && ((p.Parts as ShNode[]) ?? []).every((q) => syntax.NodeType(q) === 'Lit'))
      text += ((p.Parts as ShNode[]) ?? []).map((q) => String(q.Value)).join('');
    else return undefined;
  }
  return text;
}

/** A value that can only be a number: arithmetic, or the output of a command that prints numbers. */
function isNumericWord(w: ShNode): boolean {
  const parts = (w.Parts as ShNode[]) ?? [];
  return parts.every((p) => {
    const t = syntax.NodeType(p);
    if (t === 'ArithmExp') return true;
    if (t === 'Lit') return /^\d*$/.test(String(p.Value));
    if (t === 'DblQuoted') return isNumericWord(p);
    if (t === 'CmdSubst') {
      const stmts = (p.Stmts as ShNode[]) ?? [];
      const cmd = stmts.length === 1 ? (stmts[0]!.Cmd as ShNode | null) : null;
      const head = cmd && syntax.NodeType(cmd) === 'CallExpr' ? wordLiteral((cmd.Args as ShNode[])[0]) : undefined;
      return head !== undefined && NUMERIC_OUTPUT.has(head);
    }
    return false;
  });
}
