import type { NeedContext, ScriptAnalyser, StepNeeds } from '../../../shared/permissions/needs';
import type { PermissionTarget } from '../../../shared/permissions/policy';
import { stepNeeds } from '../../../shared/permissions/stepNeeds';
import { primitiveInput, type AppDoc, type Primitive, type Skill, type SourceRef } from '../../../shared/skill';
import { inferScript, verifyReferencedFiles } from './inference';
import { inputEffects } from './inputEffects';
import { isSecretPath } from './inference/paths';
import type { InferenceResult, ScriptLanguage } from './inference/types';

export type { CapabilityNeed } from '../../../shared/permissions/needs';

/** Analyses a script before it runs (static inference, see ./inference). */
export type ScriptInferrer = ScriptAnalyser;

/**
 * Static inference of this machine (reads the scripts a script refers to, at the moment it is
 * asked). Loading the library derives every skill's manifest, and a library is loaded again at
 * each save and reload: an analysis is reused for the same script, interpreter, arguments and
 * working folder while every file it read (or found missing) is unchanged, checked by hash each time.
 */
export const defaultScriptInferrer: ScriptInferrer = (script, interpreter, args) => {
  const key = JSON.stringify([interpreter, script, args ?? null, process.cwd()]);
  const hit = analyses.get(key);
  if (hit && verifyReferencedFiles(hit.referencedFiles).length === 0) return structuredClone(hit);
  const result = inferScript(script, interpreter as ScriptLanguage, args ? { args } : {});
  if (analyses.size >= MAX_CACHED_ANALYSES) analyses.delete(analyses.keys().next().value!);
  analyses.set(key, structuredClone(result));
  return result;
};

const MAX_CACHED_ANALYSES = 4000;
const analyses = new Map<string, InferenceResult>();

/**
 * The needs of one step of `skill`, with this machine's script analysis and secret-path list.
 * `raw` is the step's template form (which arguments it uses); `app` the app it addresses.
 */
export function primitiveNeeds(
  skill: Pick<Skill, 'args' | 'app'>,
  primitive: Primitive,
  opts: {
    raw?: Primitive;
    app?: string;
    args?: Readonly<Record<string, unknown>>;
    screenshot?: boolean;
    infer: ScriptInferrer;
    /** The app's profile, for what a `launch` runs and which program its input reaches. */
    profile?: LaunchProfile & Partial<Pick<AppDoc, 'windows'>>;
    /** The origin of the website the app is (`${site}` when deriving a manifest), for web steps. */
    site?: string;
  },
): StepNeeds {
  const app = opts.app ?? skill.app;
  const step = stepNeeds(skill.args, primitive, needContext(app, opts.infer, opts.profile, opts.site), {
    ...(opts.raw && { raw: opts.raw }),
    ...(opts.args && { values: opts.args }),
    ...(opts.screenshot && { screenshot: true }),
  });
  // Typing into a registry editor or a terminal does what is typed.
  if (!primitiveInput(primitive) || !app) return step;
  const extra = inputEffects(app, opts.profile?.windows, primitive.action);
  return extra.length ? { ...step, needs: [...step.needs, ...extra] } : step;
}

/** What a launch of an app runs: its profile's command, and whether the profile ships with SkillDesk. */
export type LaunchProfile = Pick<AppDoc, 'launch'> & { source: Pick<SourceRef, 'origin'> };

/** The context descriptors' `needs` get: the step's app, script analysis, the secret-path test, the launch line, the site. */
export function needContext(app: string | undefined, infer: ScriptInferrer, profile?: LaunchProfile, site?: string): NeedContext {
  const appTarget: PermissionTarget = app ? { kind: 'app', app } : { kind: 'unknown', hint: 'no app' };
  const launch = profile?.launch;
  return {
    appTarget,
    analyseScript: infer,
    isSecretPath,
    ...(site !== undefined && { site }),
    ...(launch && {
      launchCommand: (extraArgs: readonly string[]) => ({
        commandLine: [
          ...Object.entries(launch.env ?? {}).map(([k, v]) => `${k}=${shellWord(v)}`),
          ...[launch.command, ...launch.args, ...extraArgs].map(shellWord),
        ].join(' '),
        shipped: profile.source.origin === 'builtin',
      }),
    }),
  };
}

/** A word as a POSIX shell reads it back unchanged: bare when it is plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
