import type { Target } from '../skill/conditions';
import type { Point, Screenshot, WindowInfo } from './desktop';

/** What a grounder sees when asked to find a target. */
export interface GroundingContext {
  /** The window the target should be in, when known. */
  window?: WindowInfo;
  screenshot: Screenshot;
  signal?: AbortSignal;
}

export type GroundingResult =
  { found: true; point: Point; confidence: number; source: string } | { found: false; reason: string; source: string };

/** Resolves `text` and `accessibility` targets to screen points (accessibility tree, OCR, vision model...). */
export interface Grounder {
  locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult>;
}
