import type { PermissionTarget } from './policy';
import type { Capability } from './taxonomy';

/**
 * What one step needs from the policy: the vocabulary primitive descriptors speak
 * (`src/shared/skill/primitives.ts`). Pure; the analysers it calls are injected.
 */

/** One capability a step needs, on what, and why. */
export interface CapabilityNeed {
  capability: Capability;
  target: PermissionTarget;
  /** Why: the primitive field or script line that needs it. */
  detail: string;
}

/** What static analysis found a script will do; `ok: false` means it could not tell (fail closed). */
export interface ScriptAnalysis {
  ok: boolean;
  capabilities: readonly { capability: Capability; target: PermissionTarget; evidence: string; line?: number }[];
  errors: readonly string[];
  /** Files the analysis read or relied on being absent, with their hashes: what must not change before the script runs. */
  referencedFiles?: readonly { path: string; sha256: string }[];
}

/** Analyses a script with the arguments it will be given (`undefined`: not known yet, e.g. `${arg}` templates). */
export type ScriptAnalyser = (script: string, interpreter: string, args: readonly string[] | undefined) => ScriptAnalysis;

/**
 * Why a script analysis blocks the step outright, or undefined. Code the analyser could not
 * resolve is reported as the `script.unanalysed` capability, which goes to the policy like any
 * other need (deny by default, or confirm where a manifest says so); only an analysis that failed
 * without saying what it could not judge is a hard deny.
 */
export function analysisBlocks(analysis: ScriptAnalysis, what: string): string | undefined {
  if (analysis.ok || analysis.capabilities.some((c) => c.capability === 'script.unanalysed')) return undefined;
  return `${what} cannot be fully analysed: ${analysis.errors.slice(0, 2).join('; ')}`;
}

/** What a descriptor's `needs` gets besides the primitive. */
export interface NeedContext {
  /** The app whose windows the step addresses: `{ kind: 'app' }`, or `unknown` outside an app. */
  appTarget: PermissionTarget;
  analyseScript: ScriptAnalyser;
  /** Whether a path names credentials (SSH keys, tokens, browser profiles...). */
  isSecretPath(path: string): boolean;
  /**
   * The command line a `launch` of the step's app would run with `extraArgs`, and whether it is
   * exactly a profile SkillDesk ships; undefined when the app is unknown.
   */
  launchCommand?(extraArgs: readonly string[]): { commandLine: string; shipped: boolean } | undefined;
  /**
   * The origin of the website the step's app is, against which a web step's relative URLs resolve:
   * the resolved origin at run time, the `${site}` slot when a manifest is derived; undefined for
   * a desktop app.
   */
  site?: string;
}

/** A step's needs; `unanalysable` when part of it cannot be judged (the step is denied). */
export interface StepNeeds {
  needs: CapabilityNeed[];
  unanalysable?: string;
  analysis?: ScriptAnalysis;
}
