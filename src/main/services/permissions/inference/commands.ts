import type { Capability } from '../../../../shared/permissions/taxonomy';
import type { PermissionTarget } from '../../../../shared/permissions/policy';
import { entry, programName, show, touchPath, type FileAccess } from './effects';
import { languageOfExtension } from './paths';
import { CMD_PROGRAMS, PROGRAMS } from './programs';
import type { InferenceSink, ScriptLanguage, Word } from './types';

/**
 * What a program invocation may do. Shared by the bash analysis, the cmd and PowerShell
 * analyses (for native programs) and the Python/JavaScript analyses (for subprocess argv).
 * Every program is either modelled in `programs.ts` (its arguments decide its effects) or
 * unanalysed: a program this analysis does not know fails closed, whatever its name suggests.
 */

export interface CommandContext {
  line?: number;
  /** What the command reads on standard input, when that may be code: known text, a file, or data from elsewhere. */
  stdin?: { code: string } | { file: Word } | 'piped';
  /** The syntax the words come from; it decides what built-ins mean (cmd's `timeout` waits, bash's runs a command). */
  shell: 'bash' | 'cmd' | 'powershell' | 'exec';
  /** Functions the script defines: calling one runs its body, which is analysed where it is defined. */
  functions?: ReadonlySet<string>;
}

/** One program invocation, as a program model sees it. */
export interface Invocation {
  /** The program's base name, lower-case, without `.exe`. */
  name: string;
  args: readonly Word[];
  sink: InferenceSink;
  ctx: CommandContext;
  /** The command line, for evidence and command targets. */
  ev: string;
  line: number | undefined;
  emit(capability: Capability, target: PermissionTarget): void;
  touch(access: FileAccess, w: Word): void;
  /** The invocation cannot be analysed: fail closed with why. */
  fail(why: string): void;
  /** Analyses a command this one runs (`sudo CMD`, `find -exec CMD`, `xargs CMD`). */
  run(words: readonly Word[], stdin?: CommandContext['stdin']): void;
  /** Analyses code this one runs (`watch 'CMD'`, `git -c alias.x='!CMD'`); code known only at run time fails closed. */
  runCode(code: Word, language: ScriptLanguage, args?: readonly Word[]): void;
}

export type ProgramModel = (inv: Invocation) => void;

/** Analyses one invocation (`words[0]` is the program). */
export function analyzeCommand(words: readonly Word[], sink: InferenceSink, ctx: CommandContext): void {
  if (words.length === 0) return;
  const head = words[0]!;
  const line = ctx.line;
  const ev = show(words);
  if (head.dynamic || head.many) return sink.fail(`the command name is computed at run time (${ev})`, line);
  const text = head.text;
  if (ctx.shell === 'bash' && ctx.functions?.has(text)) return;
  if (/[\\/]/.test(text) && !isSystemProgram(text)) return runFile(text, words.slice(1), sink, ctx);
  const name = programName(text).replace(/\.(exe|com)$/, '');
  const model = (ctx.shell === 'cmd' ? entry(CMD_PROGRAMS, name) : undefined) ?? entry(PROGRAMS, name);
  if (!model) return sink.fail(`\`${name}\` is not a program this analysis models, so what it does is unknown (${ev})`, line);
  const inv: Invocation = {
    name,
    args: words.slice(1),
    sink,
    ctx,
    ev,
    line,
    emit: (capability, target) => sink.emit(capability, target, ev, line),
    touch: (access, w) => touchPath(sink, access, w, ev, line),
    fail: (why) => sink.fail(`${why} (${ev})`, line),
    run: (sub, stdin) => analyzeCommand(sub, sink, { shell: 'exec', ...(line !== undefined && { line }), ...(stdin && { stdin }) }),
    runCode: (code, language, args) => {
      if (code.dynamic) return sink.fail(`\`${name}\` runs code built at run time (${ev})`, line);
      sink.inline(code.text, language, line, args);
    },
  };
  model(inv);
}

/** A program in a system folder is judged by its name (`/usr/bin/curl` is curl); any other path is a script to follow. */
function isSystemProgram(path: string): boolean {
  return /^(\/usr)?(\/local)?\/s?bin\/[^/]+$/.test(path) || /^[a-z]:\\windows\\(system32|syswow64)\\[^\\]+$/i.test(path);
}

/** `./tool.sh a b`: the script is followed with its arguments; its language comes from its extension or shebang. */
function runFile(path: string, args: readonly Word[], sink: InferenceSink, ctx: CommandContext): void {
  sink.follow(path, languageOfExtension(path), ctx.line, args);
}
