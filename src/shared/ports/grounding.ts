import type { Target } from '../skill/conditions';
import type { Point, Screenshot, WindowInfo } from './desktop';

/** What a grounder sees when asked to find a target. */
export interface GroundingContext {
  /** The window the target should be in, when known. */
  window?: WindowInfo;
  screenshot: Screenshot;
  /**
   * Takes the screenshot again. A grounder that reads pixels after a slow one (an accessibility
   * walk of seconds) asks for a fresh one: the first can show the state before the last key.
   */
  recapture?: () => Promise<Screenshot>;
  signal?: AbortSignal;
}

export type GroundingResult =
  { found: true; point: Point; confidence: number; source: string } | { found: false; reason: string; source: string };

/** An element read from an accessibility tree: its name, role and states (lower-case: `checked`, `showing`...). */
export interface AccessibleElement {
  name: string;
  role: string;
  states: string[];
}

/**
 * The elements read, or why they could not be. `retry` marks a passing failure (the walk of a busy
 * app's tree ran out of time, an app not yet on the bus): a wait asks again instead of failing.
 */
export type InspectResult =
  { supported: true; elements: AccessibleElement[]; source: string } | { supported: false; reason: string; retry?: boolean };

/** Resolves `text` and `accessibility` targets to screen points (accessibility tree, OCR, vision model...). */
export interface Grounder {
  locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult>;
  /**
   * The elements named `name` (and of `role`) in the accessibility tree of the context's window,
   * with their states. Only grounders that read a tree can answer; pixels cannot tell a state.
   */
  inspect?(query: { name: string; role?: string }, ctx: Omit<GroundingContext, 'screenshot'>): Promise<InspectResult>;
  /**
   * The text the context's window shows, a line of text per line ('' when none could be read):
   * what an error report quotes of a dialog nobody expected.
   */
  readText?(ctx: GroundingContext): Promise<string>;
}
