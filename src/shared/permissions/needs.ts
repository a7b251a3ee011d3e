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
}

/** Analyses a script with the arguments it will be given. */
export type ScriptAnalyser = (script: string, interpreter: string, args: readonly string[]) => ScriptAnalysis;

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
}

/** A step's needs; `unanalysable` when part of it cannot be judged (the step is denied). */
export interface StepNeeds {
  needs: CapabilityNeed[];
  unanalysable?: string;
  analysis?: ScriptAnalysis;
}
