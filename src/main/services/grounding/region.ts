import type { Rect } from '../../../shared/ports/desktop';
import type { GroundingContext } from '../../../shared/ports/grounding';

/**
 * The part of the screenshot to search, in screenshot pixels. The executor captures the app's
 * window and passes its bounds too; then the whole screenshot is the window. When the screenshot
 * is the full screen and a window is known, the search is cropped to it. Either way grounders
 * answer in screenshot pixels (divided by the display scale), which is what the executor expects.
 */
export function searchRegion(ctx: GroundingContext, shot: { width: number; height: number }, scale: number): Rect | undefined {
  const w = ctx.window?.bounds;
  if (!w) return undefined;
  const isWindowCapture = Math.abs(shot.width - w.width * scale) <= 2 && Math.abs(shot.height - w.height * scale) <= 2;
  if (isWindowCapture) return undefined;
  return { x: w.x * scale, y: w.y * scale, width: w.width * scale, height: w.height * scale };
}
