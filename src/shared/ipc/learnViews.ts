import type { InductionReport, VerificationRun } from '../learning/report';
import type { ArgSpecs, ArgValues } from '../skill/domains';

/**
 * What the Learn screen gets from main (docs/learning.md): the apps it can learn on, the blueprint
 * of one (the methods it lacks), a recording under way and what induction made of it.
 */

/** An app the Learn screen offers: a website or a desktop app, and how many methods of its interfaces it lacks. */
export interface LearnAppView {
  id: string;
  name: string;
  kind: 'site' | 'desktop';
  /** The interfaces it declares. */
  implements: string[];
  /** Methods of those interfaces nothing implements on it yet (composites excepted). */
  missing: number;
  /** Why no demonstration can be recorded on it here (another platform's app, no display); absent when one can. */
  unavailable?: string;
}

/** A method an app lacks: a goal to demonstrate, with what the argument form needs. */
export interface LearnMethodView {
  /** `Interface.method`. */
  ref: string;
  interface: string;
  method: string;
  description: string;
  intents: string[];
  args: ArgSpecs;
  /** Values to demonstrate with ("Show me how" fills the form with them): examples, defaults, else drawn from the domain. */
  example: ArgValues;
}

/** Every app with its missing count; with `app` asked for, that app's blueprint too. */
export interface LearnBlueprintView {
  apps: LearnAppView[];
  /** The demonstration being recorded now, if any (a reloaded Learn screen takes it up again, to stop it). */
  recording?: LearnRecordingView;
  blueprint?: {
    app: string;
    kind: LearnAppView['kind'];
    /** A site's origin: the start page of a recording is a path on it. */
    origin?: string;
    methods: LearnMethodView[];
  };
}

/** A recording under way: what `learn:stop` ends. */
export interface LearnRecordingView {
  session: string;
  app: string;
  method: string;
  /** The values the demonstration uses, typed. */
  args: ArgValues;
  /** Where the person demonstrates: SkillDesk's browser (a site) or the desktop (an app, through the input hook). */
  where: 'browser' | 'desktop';
  /** The page the browser was opened on. */
  url?: string;
}

/** One re-execution that verified (or refuted) the induced skill. */
export type VerificationRunView = VerificationRun;

/** What induction made of a demonstration (the core's InductionReport), and where the report is kept. */
export interface LearnResultView extends InductionReport {
  /** `<data-dir>/induction/<id>.json`. */
  reportFile: string;
}

/** Progress of a learning session, pushed as `learn:event`. */
export type LearnEventView = { session: string } & (
  | { type: 'recording'; app: string; method: string; where: LearnRecordingView['where'] }
  | { type: 'inducing'; steps: number }
  /** A re-execution starts; the report says whether it verified the skill. */
  | { type: 'verifying'; args: ArgValues }
  | { type: 'finished'; result: LearnResultView }
  | { type: 'failed'; error: { code: string; message: string } }
);
