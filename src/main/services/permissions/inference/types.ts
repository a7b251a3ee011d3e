import type { PermissionTarget } from '../../../../shared/permissions/policy';
import type { Capability } from '../../../../shared/permissions/taxonomy';
import type { Interpreter } from '../../../../shared/skill/interpreters';

/** Static capability inference: what a script or command may do, found without running it or any model. */

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

export interface InferenceResult {
  /** False when some part could not be analysed: the caller must fail closed (deny). */
  ok: boolean;
  language: ScriptLanguage;
  capabilities: InferredCapability[];
  findings: InferenceFinding[];
  /** Why analysis is incomplete: parse errors, dynamic code, unreadable referenced scripts. */
  errors: string[];
  /** Scripts followed from the analysed one (resolved paths). */
  followed: string[];
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

/** Collects results while one script and the scripts it references are analysed. */
export interface InferenceSink {
  file: string;
  dir: string;
  emit(capability: Capability, target: PermissionTarget, evidence: string, line?: number): void;
  fail(reason: string, line?: number): void;
  finding(kind: InferenceFinding['kind'], message: string): void;
  /** Analyses a referenced script file (bounded depth, each file once). */
  follow(path: string, language: ScriptLanguage | undefined, line?: number): void;
  /** Analyses inline code given to an interpreter (`bash -c '...'`, `python -c '...'`). */
  inline(code: string, language: ScriptLanguage, line?: number): void;
}
