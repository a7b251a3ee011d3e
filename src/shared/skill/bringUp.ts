import type { SkillGraph } from './graph';

/**
 * Bringing a skill's app up: an app skill runs with its app open. The executor walks `BRING_UP`
 * before the skill's own graph when none of the app's windows is open, and `mediatedSteps` lists
 * its steps so that manifest derivation sees them.
 */

/** What decides whether a skill brings its app up: its app, its manifest and its graph. */
export interface BringUpSubject {
  app: string | undefined;
  permissions: readonly { capability: string; effect: string }[];
  graph: SkillGraph;
}

/** How long an app may take to show its main window when its profile does not say. */
export const DEFAULT_STARTUP_MS = 30_000;

/**
 * The steps that start a skill's app before its graph runs, when none of the app's windows is
 * open: launch the app's profile, then wait (its `launch.startupMs`) for its main window. Internal
 * and never validated: it deliberately ends at an action node, after which the executor walks the
 * skill's own graph.
 */
export function bringUpGraph(startupMs = DEFAULT_STARTUP_MS): SkillGraph {
  return {
    start: '(bring up)',
    nodes: [
      { id: '(bring up)', kind: 'action', primitive: { action: 'launch' } },
      { id: '(bring up: window)', kind: 'action', primitive: { action: 'wait_for_window', timeoutMs: startupMs } },
    ],
    edges: [{ from: '(bring up)', to: '(bring up: window)' }],
  };
}

export const BRING_UP: SkillGraph = bringUpGraph();

/**
 * Whether a skill starts its app first when the app is not running (a precondition every app skill
 * has): a skill of an app whose manifest allows launching it, and whose graph does not launch the
 * app itself (such a skill handles a closed app its own way, like new_document's launch alternative).
 * Without `app.launch` in the manifest nothing is started and the skill's first window step fails.
 */
export function bringsUpItsApp(skill: Partial<BringUpSubject>): boolean {
  if (!skill.app || !skill.graph) return false;
  const launches = (skill.permissions ?? []).some((e) => e.effect !== 'deny' && ['app.launch', 'app.*', '*'].includes(e.capability));
  return launches && !skill.graph.nodes.some((n) => n.kind === 'action' && n.primitive.action === 'launch');
}
