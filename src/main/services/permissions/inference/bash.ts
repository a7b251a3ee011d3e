import mvdan, { type ShNode } from 'mvdan-sh';
import { analyzeCommand, DYNAMIC, touchPath, type Word } from './commands';
import type { InferenceSink } from './types';

/**
 * Bash and POSIX sh, parsed with mvdan/sh (the `mvdan-sh` build, which exposes the typed AST;
 * `sh-syntax`'s JSON output drops the contents of every command node, un-ts/sh-syntax#128).
 * Literal assignments are propagated so `F=~/.ssh/id_rsa; curl -F "k=@$F" ...` is understood.
 */

const syntax = mvdan.syntax;

// mvdan/sh token values (syntax.RedirOperator / BinCmdOperator) as exposed by the JS build.
const REDIR_WRITE = new Set([54, 55, 60, 64, 65]); // >  >>  >|  &>  &>>
const REDIR_READ = new Set([56, 57]); // <  <>
const PIPE = new Set([12, 13]); // |  |&

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
  const vars = new Map<string, Word>([['HOME', { text: '~', dynamic: false }]]);
  // Keyed by source offset: the JS build hands out a fresh wrapper object on every access.
  const pipedInto = new Set<number>();
  const heredocs = new Map<number, string>();
  const key = (n: ShNode) => n.Pos().Offset();
  const wordOf = (w: ShNode | null | undefined): Word => {
    if (!w) return DYNAMIC;
    let text = '';
    let dynamic = false;
    const visit = (parts: ShNode[]) => {
      for (const part of parts) {
        const t = syntax.NodeType(part);
        if (t === 'Lit' || t === 'SglQuoted') text += String(part.Value);
        else if (t === 'DblQuoted') visit(part.Parts as ShNode[]);
        else if (t === 'ParamExp') {
          const name = String((part.Param as ShNode | null)?.Value ?? '');
          const known = vars.get(name);
          // Only a plain `$X` / `${X}` is substituted; `${X:-y}`, `${X/a/b}` etc. are computed.
          const plain = !part.Exp && !part.Repl && !part.Slice && !part.Index && !part.Excl && !part.Length && !part.Width;
          if (known && plain && !known.dynamic) text += known.text;
          else {
            text += '\u0000';
            dynamic = true;
          }
        } else if (t === 'CmdSubst' && isOwnDirname(part)) {
          // `$(dirname "$0")`, `$(dirname "${BASH_SOURCE[0]}")`: the folder of this script.
          text += sink.dir;
        } else {
          text += '\u0000';
          dynamic = true;
        }
      }
    };
    visit(w.Parts as ShNode[]);
    return { text, dynamic };
  };

  syntax.Walk(file, (node) => {
    if (!node) return true;
    const type = syntax.NodeType(node);
    const line = node.Pos().Line();
    switch (type) {
      case 'Stmt':
        // `python3 <<EOF ... EOF`: the here-document is the program.
        for (const r of (node.Redirs as ShNode[]) ?? []) {
          if ((r.Op === 61 || r.Op === 62) && r.Hdoc && node.Cmd) {
            const doc = wordOf(r.Hdoc as ShNode);
            if (doc.dynamic) pipedInto.add(key(node.Cmd as ShNode));
            else heredocs.set(key(node.Cmd as ShNode), doc.text);
          }
        }
        break;
      case 'BinaryCmd':
        // `... | bash`: the right-hand side runs what the left-hand side prints.
        // (`x | <file` has a right-hand side with no command at all.)
        if (PIPE.has(node.Op as number) && (node.Y as ShNode | null)?.Cmd) pipedInto.add(key((node.Y as ShNode).Cmd as ShNode));
        break;
      case 'CallExpr': {
        const args = node.Args as ShNode[];
        if (args.length === 0) {
          for (const a of node.Assigns as ShNode[]) assign(a);
          break;
        }
        const words = args.map(wordOf);
        analyzeCommand(words, sink, line, {
          stdinPiped: pipedInto.has(key(node)),
          ...(heredocs.has(key(node)) && { stdinCode: heredocs.get(key(node))! }),
        });
        break;
      }
      case 'DeclClause':
        for (const a of node.Args as ShNode[]) assign(a);
        break;
      case 'Redirect': {
        const op = node.Op as number;
        const target = wordOf(node.Word as ShNode);
        const ev = `redirect to ${target.dynamic ? '$…' : target.text}`;
        if (REDIR_WRITE.has(op)) touchPath(sink, 'write', target, ev, line);
        else if (REDIR_READ.has(op)) touchPath(sink, 'read', target, ev, line);
        break;
      }
      default:
        break;
    }
    return true;
  });

  function assign(a: ShNode): void {
    const name = String((a.Name as ShNode | null)?.Value ?? '');
    if (!name) return;
    if (a.Array || a.Index) {
      vars.set(name, DYNAMIC);
      return;
    }
    const value = a.Value ? wordOf(a.Value as ShNode) : { text: '', dynamic: false };
    vars.set(name, value);
  }
}

/** Whether a command substitution is `dirname` of the script's own path (`$0` or `BASH_SOURCE`). */
function isOwnDirname(subst: ShNode): boolean {
  const stmts = (subst.Stmts as ShNode[] | undefined) ?? [];
  const call = stmts.length === 1 ? (stmts[0]!.Cmd as ShNode | null) : null;
  if (!call || syntax.NodeType(call) !== 'CallExpr') return false;
  const args = call.Args as ShNode[];
  if (args.length !== 2 || (args[0]!.Lit as () => string)() !== 'dirname') return false;
  const params: string[] = [];
  const collect = (parts: ShNode[]) => {
    for (const p of parts) {
      const t = syntax.NodeType(p);
      if (t === 'DblQuoted') collect(p.Parts as ShNode[]);
      else if (t === 'ParamExp') params.push(String((p.Param as ShNode | null)?.Value ?? ''));
      else params.push('\u0000');
    }
  };
  collect(args[1]!.Parts as ShNode[]);
  return params.length === 1 && (params[0] === '0' || params[0] === 'BASH_SOURCE');
}
