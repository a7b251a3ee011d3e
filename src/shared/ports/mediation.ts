import type { CapabilityNeed } from '../permissions/needs';
import type { ArgValues } from '../skill/domains';
import type { Skill } from '../skill/library';
import type { Primitive } from '../skill/primitives';
import type { WindowInfo } from './desktop';

/**
 * Complete mediation: the executor asks the mediator before every primitive, with the
 * primitive's arguments already resolved. Implementations enforce manifests and session
 * policy (deny by default), ask the user where needed, and write the audit trail.
 */
export interface ActionRequest {
  sessionId: string;
  runId: string;
  skill: Skill;
  /** The app whose windows this step addresses (the caller's app for composites). */
  app?: string;
  nodeId: string;
  /** The step with its templates resolved: what will actually run. */
  primitive: Primitive;
  /** The same step as written in the graph, with `${arg}` templates: which arguments it uses. */
  raw: Primitive;
  /** The graph asks for a screenshot after the step. */
  screenshot: boolean;
  args: ArgValues;
  /** Call chain from the top-level skill down to `skill` (ids). */
  callChain: string[];
  /** For input primitives: the focused window right before the action, and whether it belongs to `app`. */
  activeWindow?: WindowInfo;
  /** Set for live input: false when the focused window is unknown, another program's, or there is no app (the mediator denies). */
  activeWindowIsApp?: boolean;
}

export type MediationDecision =
  | {
      effect: 'allow';
      reason?: string;
      /** A person was asked (a dialog took focus): re-check the focused window before input. */
      prompted?: boolean;
      /**
       * Called right before the step acts: why the allow no longer holds (a file the script runs
       * changed since it was analysed), or undefined. A reason means the step must not run.
       */
      recheck?: () => string | undefined;
    }
  | { effect: 'deny'; reason: string; code: string };

/**
 * An effect of a running step known only when it happens, decided then: a request the step's web
 * page sends (a form POST, a fetch to another host) as the browser's request guard reports it.
 */
export interface EffectRequest extends Pick<
  ActionRequest,
  'sessionId' | 'runId' | 'skill' | 'app' | 'nodeId' | 'primitive' | 'args' | 'callChain'
> {
  /** The capability the effect needs, on what, and why (e.g. `web.post` on the URL a form posts to). */
  need: CapabilityNeed;
}

export interface ActionMediator {
  check(request: ActionRequest, signal?: AbortSignal): Promise<MediationDecision>;
  /**
   * Decides an effect of the step running now, as `check` decides a step's own needs (policy,
   * prompt, audit). A mediator without it cannot judge such effects: they are denied.
   */
  checkEffect?(request: EffectRequest, signal?: AbortSignal): Promise<MediationDecision>;
}
