import mvdan, { type ShNode } from 'mvdan-sh';
import { BashScope, wordLiteral } from './bashVars';
import { expandWord, wordValue, type WordEnv } from './bashWords';
import { analyzeCommand, type CommandContext } from './commands';
import { DYNAMIC, names, programName, touchPath } from './effects';
import type { InferenceSink, Word } from './types';
import { isCodeLoadingEnv } from './wrappers';

/**
 * Bash and POSIX sh, parsed with mvdan/sh (the `mvdan-sh` build, which exposes the typed AST;
 * `sh-syntax`'s JSON output drops the contents of every command node, un-ts/sh-syntax#128).
 * Every command is analysed with its words expanded as the shell would (bashWords.ts), with
 * variables known only where that is sound (bashVars.ts). Arithmetic is checked too: bash
 * evaluates array subscripts in arithmetic, so `let 'a[$(cmd)]'` or `$((x))` with an unknown
 * `x` can run commands.
 */

const syntax = mvdan.syntax;

// mvdan/sh token values (syntax.RedirOperator / BinCmdOperator / test operators) as exposed by the JS build.
const REDIR_WRITE = new Set([54, 55, 60, 64, 65]); // >  >>  >|  &>  &>>
const RDR_IN = 56; // <
const RDR_IN_OUT = 57; // <>
const DPL_IN = 58; // <&
const DPL_OUT = 59; // >&
const HEREDOCS = new Set([61, 62]); // <<  <<-
const HERESTRING = 63; // <<<
const PIPE = new Set([12, 13]); // |  |&
const ARITH_TESTS = new Set([116, 117, 118, 119, 120, 121]); // -eq -ne -le -ge -lt -gt
const VAR_TESTS = new Set([110, 111]); // -v -R
/** Built-ins whose operands name variables (a subscript there is evaluated arithmetically). */
const NAMES_VARIABLES = new Set(names('read mapfile readarray unset getopts wait'));
const SYSTEM_PATH = /^(\/usr)?(\/local)?\/s?bin$|^\$PATH$/;

/** Analyses bash source; parse errors and code built at run time fail closed through the sink. */
export function analyzeBash(source: string, sink: InferenceSink, variant: 'bash' | 'sh' = 'bash'): void {
  let file: ShNode;
  try {
    file = syntax.NewParser(syntax.Variant(variant === 'sh' ? syntax.LangPOSIX : syntax.LangBash)).Parse(source, sink.file);
  } catch (err) {
    const e = err as { message?: string; Error?: () => string };
    sink.fail(`cannot parse as ${variant}: ${e.message ?? e.Error?.() ?? String(err)}`);
    return;
  }
  const scope = new BashScope(file, variant, sink.args);
  // Keyed by source offset: the JS build hands out a fresh wrapper object on every access.
  const stdinOf = new Map<number, CommandContext['stdin']>();
  const key = (n: ShNode) => n.Pos().Offset();
  const envAt = (line: number): WordEnv => ({
    scope,
    braces: variant === 'bash',
    dir: sink.dir,
    fail: (reason) => sink.fail(reason, line),
  });

  syntax.Walk(file, (node) => {
    if (!node) return true;
    const line = node.Pos().Line();
    switch (syntax.NodeType(node)) {
      case 'Stmt':
        stdin(node, line);
        break;
      case 'BinaryCmd': {
        // `... | bash`: the right-hand side reads what the left-hand side prints.
        const y = node.Y as ShNode | null;
        if (PIPE.has(node.Op as number) && y?.Cmd) stdinOf.set(key(y.Cmd as ShNode), printed(node.X as ShNode, line) ?? 'piped');
        break;
      }
      case 'CallExpr':
        command(node, line);
        break;
      case 'DeclClause':
        declaration(node, line);
        break;
      case 'Redirect':
        redirect(node, line);
        break;
      case 'ArithmCmd':
      case 'ArithmExp':
        arithmetic(node.X as ShNode, line);
        break;
      case 'LetClause':
        for (const e of node.Exprs as ShNode[]) arithmetic(e, line);
        break;
      case 'CStyleLoop':
        for (const e of [node.Init, node.Cond, node.Post] as (ShNode | null)[]) if (e) arithmetic(e, line);
        break;
      case 'BinaryTest':
        if (ARITH_TESTS.has(node.Op as number)) [node.X, node.Y].forEach((e) => arithmetic(e as ShNode, line));
        break;
      case 'UnaryTest':
        if (VAR_TESTS.has(node.Op as number)) variableName(wordOfTest(node.X as ShNode, line), line);
        break;
      case 'ParamExp':
        if (node.Index) arithmetic(node.Index as ShNode, line);
        if (node.Slice)
          for (const e of [(node.Slice as ShNode).Offset, (node.Slice as ShNode).Length] as (ShNode | null)[]) if (e) arithmetic(e, line);
        break;
      default:
        break;
    }
    return true;
  });

  function stdin(stmt: ShNode, line: number): void {
    const cmd = stmt.Cmd as ShNode | null;
    if (!cmd) return;
    for (const r of (stmt.Redirs as ShNode[]) ?? []) {
      const op = r.Op as number;
      if (HEREDOCS.has(op) && r.Hdoc) stdinOf.set(key(cmd), codeOf(wordValue(r.Hdoc as ShNode, envAt(line))));
      else if (op === HERESTRING) stdinOf.set(key(cmd), codeOf(wordValue(r.Word as ShNode, envAt(line)), '\n'));
      else if (op === RDR_IN && !r.N) stdinOf.set(key(cmd), { file: wordValue(r.Word as ShNode, envAt(line)) });
    }
  }

  /** What a pipeline's left-hand side prints, when it is literal text (`echo '...' | sh`, `cat <<EOF | sh`). */
  function printed(left: ShNode, line: number): CommandContext['stdin'] | undefined {
    const cmd = left.Cmd as ShNode | null;
    if (!cmd || syntax.NodeType(cmd) !== 'CallExpr' || ((left.Redirs as ShNode[]) ?? []).some((r) => !HEREDOCS.has(r.Op as number)))
      return undefined;
    const words = (cmd.Args as ShNode[]).flatMap((w) => expandWord(w, envAt(line)));
    if (words.some((w) => w.dynamic)) return undefined;
    const [head, ...rest] = words.map((w) => w.text);
    if (head === 'echo' && !rest.some((t) => /^-[neE]*e/.test(t)))
      return { code: `${rest.filter((t, i) => !(i === 0 && /^-n$/.test(t))).join(' ')}\n` };
    if (head === 'printf' && rest.length === 1 && !/[%\\]/.test(rest[0]!)) return { code: rest[0]! };
    if (head === 'cat' && rest.length === 0) return stdinOf.get(key(cmd));
    return undefined;
  }

  function codeOf(w: Word, suffix = ''): CommandContext['stdin'] {
    return w.dynamic ? 'piped' : { code: w.text + suffix };
  }

  function command(node: ShNode, line: number): void {
    const args = node.Args as ShNode[];
    for (const a of node.Assigns as ShNode[]) assignment(a, line);
    if (args.length === 0) return;
    const words = args.flatMap((w) => expandWord(w, envAt(line)));
    const head = words[0];
    if (!head) return;
    if (head.glob) return sink.fail(`the command name is a pattern the shell expands to file names (${head.text})`, line);
    const name = head.dynamic ? '' : programName(head.text);
    if (NAMES_VARIABLES.has(name)) words.slice(1).forEach((w) => variableName(w, line, true));
    if (name === 'printf') words.forEach((w, i) => words[i - 1]?.text === '-v' && variableName(w, line, true));
    if ((name === 'test' || name === '[') && words.some((w) => w.text === '-v' || w.text === '-R'))
      words.forEach((w, i) => /^-[vR]$/.test(words[i - 1]?.text ?? '') && variableName(w, line));
    if (name === 'alias' && scope.aliasesExpand && words.some((w) => w.text.includes('=') || w.dynamic))
      return sink.fail('defines an alias, which rewrites later commands before they run', line);
    const at = key(node);
    const followSink: InferenceSink = scope.cdBefore(at)
      ? {
          ...sink,
          follow: (p, lang, l, a) =>
            /^[/~]/.test(p)
              ? sink.follow(p, lang, l, a)
              : sink.fail(`runs ${p} after changing folders, so which file that is depends on the folder`, l),
        }
      : sink;
    const stdinHere = stdinOf.get(at);
    analyzeCommand(words, followSink, { shell: 'bash', line, functions: scope.functionsAt(at), ...(stdinHere && { stdin: stdinHere }) });
  }

  function declaration(node: ShNode, line: number): void {
    for (const a of node.Args as ShNode[]) {
      if (a.Name) {
        assignment(a, line);
        continue;
      }
      const flag = a.Value ? wordLiteral(a.Value as ShNode) : undefined;
      if (flag === undefined) return sink.fail('declares variables named only at run time', line);
      if (/^[-+]\w*n/.test(flag)) return sink.fail('declares a name reference, which assigns another variable', line);
    }
  }

  /** `NAME=value` (alone, as a command prefix or in declare/export): variables that make programs load code fail closed. */
  function assignment(a: ShNode, line: number): void {
    const name = String((a.Name as ShNode | null)?.Value ?? '');
    if (a.Index) arithmetic(a.Index as ShNode, line);
    if (scope.intVars.has(name) && a.Value) arithmetic(a.Value as ShNode, line);
    if (!isCodeLoadingEnv(name)) return;
    if (name === 'PATH' && a.Value && safePath(a.Value as ShNode)) return;
    sink.fail(`sets \`${name}\`, which makes programs load code this analysis does not see`, line);
  }

  /** A PATH made of system folders, with `$PATH` (the inherited one) only first. */
  function safePath(w: ShNode): boolean {
    let text = '';
    for (const p of (w.Parts as ShNode[]) ?? []) {
      const t = syntax.NodeType(p);
      if (t === 'Lit' || t === 'SglQuoted') text += String(p.Value);
      else if (t === 'ParamExp' && String((p.Param as ShNode).Value) === 'PATH' && !p.Exp) text += '$PATH';
      else if (t === 'DblQuoted') text += wordLiteral(p as ShNode) ?? (safePath(p) ? '$PATH' : '\u0000');
      else return false;
    }
    const dirs = text.split(':');
    return dirs.every((d, i) => SYSTEM_PATH.test(d) && (d !== '$PATH' || i === 0));
  }

  function redirect(node: ShNode, line: number): void {
    const op = node.Op as number;
    if (HEREDOCS.has(op) || op === HERESTRING) return;
    const target = wordValue(node.Word as ShNode, envAt(line));
    const ev = `redirect to ${target.dynamic ? '$…' : target.text}`;
    const dup = (op === DPL_IN || op === DPL_OUT) && /^(\d+|-)$/.test(target.text);
    if (dup) return;
    if (REDIR_WRITE.has(op) || op === RDR_IN_OUT || op === DPL_OUT) touchPath(sink, 'write', target, ev, line);
    if (op === RDR_IN || op === RDR_IN_OUT || op === DPL_IN) touchPath(sink, 'read', target, ev, line);
  }

  function wordOfTest(x: ShNode, line: number): Word {
    return syntax.NodeType(x) === 'Word' ? wordValue(x, envAt(line)) : DYNAMIC;
  }

  /** An operand naming a variable: a subscript in it is evaluated as arithmetic. */
  function variableName(w: Word, line: number, assigns = false): void {
    if (w.dynamic) {
      if (assigns && !w.text.startsWith('-')) sink.fail('assigns a variable whose name is only known at run time', line);
      else if (!assigns) sink.fail('tests a variable whose name is only known at run time (its subscript could run commands)', line);
      return;
    }
    const sub = /\[(.*)\]$/s.exec(w.text)?.[1];
    if (sub !== undefined && !arithmeticTextSafe(sub, 0))
      sink.fail(`the subscript in \`${w.text}\` is evaluated as arithmetic and may run commands`, line);
  }

  /** Fails closed when an arithmetic expression evaluates text that could hold `a[$(cmd)]`. */
  function arithmetic(expr: ShNode, line: number): void {
    let unsafe: string | undefined;
    syntax.Walk(expr, (n) => {
      if (!n || unsafe) return false;
      const t = syntax.NodeType(n);
      if (t === 'Lit' && !arithmeticTextSafe(String(n.Value), 0, n.Pos().Offset())) unsafe = String(n.Value);
      else if (t === 'SglQuoted' && !arithmeticTextSafe(String(n.Value), 0, n.Pos().Offset())) unsafe = String(n.Value);
      else if (t === 'ParamExp') {
        const name = String((n.Param as ShNode).Value);
        const at = n.Pos().Offset();
        if (/^\d+$/.test(name)) {
          const v = scope.positional(Number(name), at);
          if (v.dynamic || !arithmeticTextSafe(v.text, 0, at)) unsafe = `$${name}`;
        } else if (!n.Length && !arithmeticTextSafe(name, 0, at)) unsafe = `$${name}`;
        return !unsafe;
      } else if (t === 'CmdSubst') {
        const stmts = (n.Stmts as ShNode[]) ?? [];
        const cmd = stmts.length === 1 ? (stmts[0]!.Cmd as ShNode | null) : null;
        const head = cmd && syntax.NodeType(cmd) === 'CallExpr' ? wordLiteral((cmd.Args as ShNode[])[0]) : undefined;
        if (!head || !/^(wc|nproc|date|id|expr|seq|stat|getconf)$/.test(head)) unsafe = '$(...)';
        return false;
      }
      return true;
    });
    if (unsafe !== undefined)
      sink.fail(`arithmetic evaluates \`${unsafe}\`, whose value is only known at run time and may run commands (a[$(cmd)])`, line);
  }

  /** Text evaluated as arithmetic: no expansions, and every name in it a variable that holds only a number. */
  function arithmeticTextSafe(text: string, depth: number, at = Number.MAX_SAFE_INTEGER): boolean {
    if (/[$`]/.test(text) || depth > 8) return false;
    const names = text.match(/[A-Za-z_]\w*/g) ?? [];
    return names.every((n) => {
      if (scope.numeric(n, at)) return true;
      const v = scope.value(n, at, (node) => wordValue(node, envAt(0)));
      return !v.dynamic && arithmeticTextSafe(v.text, depth + 1, at);
    });
  }
}
