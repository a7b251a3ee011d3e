import type { Capability } from '../../../../shared/permissions/taxonomy';
import type { PermissionTarget } from '../../../../shared/permissions/policy';
import { type FileAccess, unknown } from './effects';
import { attributeTable, type ModuleModel, type Rule } from './modelTable';
import type { Tok } from './pythonTokens';
import type { ScriptLanguage, Word } from './types';

/** What a Python module model is: the calls it understands and the attributes usable as plain values. */

export interface PyCall {
  /** The attribute path within the module (`system`, `path.join`, `Session`). */
  attr: string;
  args: Tok[][];
  kwargs: Map<string, Tok[]>;
  line: number;
}

/** What a module model can ask of the analysis. */
export interface PyContext {
  ev: string;
  word(toks: Tok[] | undefined): Word;
  /** A list or tuple literal's words (with `*sys.argv[1:]` spliced), or undefined. */
  words(toks: Tok[] | undefined): Word[] | undefined;
  emit(capability: Capability, target: PermissionTarget): void;
  touch(access: FileAccess, w: Word): void;
  fail(why: string): void;
  /** A command run without a shell (argv), or with one (a command line). */
  run(words: Word[], stdin?: 'piped'): void;
  runCode(code: Word, language: ScriptLanguage): void;
}

export type PyModule = ModuleModel<PyCall, PyContext>;

/** A module with no effect beyond computation: every attribute, called or not. */
export const INERT: PyModule = { values: /./, call: () => true };

export const arg = (c: PyCall, i: number, ...names: string[]): Tok[] | undefined =>
  names.map((n) => c.kwargs.get(n)).find(Boolean) ?? c.args[i];
export const target = (w: Word, hint: string): PermissionTarget => (w.dynamic ? unknown(hint) : { kind: 'url', url: w.text });
export const has = (c: PyCall, ...names: string[]) => names.some((n) => c.kwargs.has(n));

/** A Python module model from attribute patterns (modelTable.ts). */
export const table = (rules: Rule<PyCall, PyContext>[], values?: RegExp): PyModule => attributeTable<PyCall, PyContext>(rules, values);

export function openCall(c: PyCall, ctx: PyContext, modeIndex = 1): void {
  const mode = ctx.word(arg(c, modeIndex, 'mode'));
  const path = ctx.word(arg(c, 0, 'file', 'filename'));
  const write = mode.dynamic || /[wax+]/.test(mode.text);
  const read = !mode.text || mode.dynamic || /[r+]/.test(mode.text) || !/[wax]/.test(mode.text);
  if (read) ctx.touch('read', path);
  if (write) ctx.touch('write', path);
}

export const paths = (c: PyCall, ctx: PyContext, access: FileAccess, ...idx: number[]) =>
  idx.forEach((i) => ctx.touch(access, ctx.word(c.args[i])));
