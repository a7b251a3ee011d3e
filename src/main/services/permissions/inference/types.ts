import type { PermissionTarget } from '../../../../shared/permissions/policy';
import type { Capability } from '../../../../shared/permissions/taxonomy';
import type { Interpreter } from '../../../../shared/skill/interpreters';

/**
 * Static capability inference: what a script or command may do, found without running it or any
 * model. Sound by construction: every program, module and function a script uses is either
 * modelled (its effects are inferred from its arguments), inert, or unanalysed — and what is
 * unanalysed fails closed (`ok: false`, plus a `script.unanalysed` capability saying why).
 */

/** The languages the analysers read: the interpreters run_script names. */
export type ScriptLanguage = Interpreter;

export interface InferredCapability {
  capability: Capability;
  target: PermissionTarget;
  /** The source text that implies it (shortened). */
  evidence: string;
  /** File it was found in (`<inline>` for a command). */
  file: string;
  line?: number;
}

export interface InferenceFinding {
  kind: 'exfiltration' | 'privilege_escalation' | 'persistence' | 'remote_code';
  message: string;
}

/** A file the analysis read (a followed script), with the SHA-256 of the text it analysed. */
export interface ReferencedFile {
  path: string;
  sha256: string;
}

export interface InferenceResult {
  /** False when some part could not be analysed: the caller must fail closed. */
  ok: boolean;
  language: ScriptLanguage;
  capabilities: InferredCapability[];
  findings: InferenceFinding[];
  /** Why analysis is incomplete: parse errors, dynamic code, unmodelled programs or modules. */
  errors: string[];
  /** Scripts followed from the analysed one (resolved paths). */
  followed: string[];
  /**
   * Every file whose content the result depends on. The result holds only while they are
   * unchanged: check them with `verifyReferencedFiles` just before the script runs.
   */
  referencedFiles: ReferencedFile[];
}

/** How referenced scripts are read; injected so inference stays testable and bounded. */
export interface ScriptReader {
  /** The file's text, or undefined when it cannot be read. */
  read(path: string): string | undefined;
  /** Resolves a path as written in a script, relative to the referring file's folder. */
  resolve(fromDir: string, path: string): string;
  /** The folder of a file path. */
  dirname(path: string): string;
  /** `~` expansion target. */
  home?: string;
}

/** A word of a command line: literal text, or text with parts only known at run time. */
export interface Word {
  /** The text; `\u0000` marks where a run-time value goes. */
  text: string;
  dynamic: boolean;
  /** May stand for any number of words (an unknown `"$@"`, a list computed at run time). */
  many?: boolean;
  /** Unquoted pattern characters: the shell may replace it with whatever file names match. */
  glob?: boolean;
}

/**
 * Arguments a script runs with (`run_script.args`, or the words after a script path): each
 * known, or `undefined` when not known at analysis time (then `$1`, `sys.argv`... are dynamic).
 */
export type ScriptArgs = readonly Word[] | undefined;

/** Collects results while one script and the scripts it references are analysed. */
export interface InferenceSink {
  file: string;
  dir: string;
  /** The arguments this script runs with (positional parameters, `sys.argv[1:]`, `process.argv`). */
  args: ScriptArgs;
  emit(capability: Capability, target: PermissionTarget, evidence: string, line?: number): void;
  /** Something cannot be analysed: the result fails closed (`script.unanalysed`). */
  fail(reason: string, line?: number): void;
  finding(kind: InferenceFinding['kind'], message: string): void;
  /** Analyses a referenced script file (bounded depth, each file once). */
  follow(path: string, language: ScriptLanguage | undefined, line?: number, args?: ScriptArgs): void;
  /** Analyses inline code given to an interpreter (`bash -c '...'`, `python -c '...'`). */
  inline(code: string, language: ScriptLanguage, line?: number, args?: ScriptArgs): void;
  /**
   * Whether a file exists (relative to this script's folder). The answer is recorded with the
   * result's referenced files, so a file appearing later invalidates the analysis.
   */
  exists(path: string): boolean;
}
