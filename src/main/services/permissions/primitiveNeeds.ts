import type { NeedContext, ScriptAnalyser, StepNeeds } from '../../../shared/permissions/needs';
import type { PermissionTarget } from '../../../shared/permissions/policy';
import { stepNeeds } from '../../../shared/permissions/stepNeeds';
import type { Primitive, Skill } from '../../../shared/skill';
import { inferScript } from './inference';
import { isSecretPath } from './inference/paths';
import type { ScriptLanguage } from './inference/types';

export type { CapabilityNeed } from '../../../shared/permissions/needs';

/** Analyses a script before it runs (static inference, see ./inference). */
export type ScriptInferrer = ScriptAnalyser;

/** Static inference of this machine (reads the scripts a script refers to, at the moment it is asked). */
export const defaultScriptInferrer: ScriptInferrer = (script, interpreter) => inferScript(script, interpreter as ScriptLanguage);

/**
 * The needs of one step of `skill`, with this machine's script analysis and secret-path list.
 * `raw` is the step's template form (which arguments it uses); `app` the app it addresses.
 */
export function primitiveNeeds(
  skill: Pick<Skill, 'args' | 'app'>,
  primitive: Primitive,
  opts: { raw?: Primitive; app?: string; args?: Readonly<Record<string, unknown>>; screenshot?: boolean; infer: ScriptInferrer },
): StepNeeds {
  return stepNeeds(skill.args, primitive, needContext(opts.app ?? skill.app, opts.infer), {
    ...(opts.raw && { raw: opts.raw }),
    ...(opts.args && { values: opts.args }),
    ...(opts.screenshot && { screenshot: true }),
  });
}

/** The context descriptors' `needs` get: the step's app, script analysis, the secret-path test. */
export function needContext(app: string | undefined, infer: ScriptInferrer): NeedContext {
  const appTarget: PermissionTarget = app ? { kind: 'app', app } : { kind: 'unknown', hint: 'no app' };
  return { appTarget, analyseScript: infer, isSecretPath };
}
