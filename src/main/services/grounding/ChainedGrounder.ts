import type { Grounder, GroundingContext, GroundingResult, InspectResult } from '../../../shared/ports/grounding';
import type { Target } from '../../../shared/skill';

/** A screenshot older than this is taken again before the next grounder reads it. */
const STALE_SCREENSHOT_MS = 1000;

/**
 * Tries grounders in order (accessibility, OCR, vision model...) and returns the first hit; when
 * all miss, the reasons of each are joined so the step's error says what every method saw.
 */
export class ChainedGrounder implements Grounder {
  constructor(private readonly chain: readonly Grounder[]) {}

  async locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult> {
    const reasons: string[] = [];
    let takenAt = Date.now();
    for (const g of this.chain) {
      if (ctx.signal?.aborted) break;
      // The screenshot is as old as the grounders before this one took: past a second, take it again.
      if (ctx.recapture && Date.now() - takenAt > STALE_SCREENSHOT_MS) {
        ctx = { ...ctx, screenshot: await ctx.recapture() };
        takenAt = Date.now();
      }
      let r: GroundingResult;
      try {
        r = await g.locate(target, ctx);
      } catch (err) {
        if (ctx.signal?.aborted) throw err;
        reasons.push(`${g.constructor.name}: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      if (r.found) return r;
      reasons.push(`${r.source}: ${r.reason}`);
    }
    return { found: false, source: this.chain.length ? 'chain' : 'none', reason: reasons.join('; ') || 'no grounder is configured' };
  }

  /** The first grounder of the chain that reads some text in the window answers. */
  async readText(ctx: GroundingContext): Promise<string> {
    for (const g of this.chain) {
      if (!g.readText || ctx.signal?.aborted) continue;
      const text = await g.readText(ctx).catch(() => '');
      if (text.trim()) return text;
    }
    return '';
  }

  /** The first grounder of the chain that can read the window's accessibility tree answers. */
  async inspect(query: { name: string; role?: string }, ctx: Omit<GroundingContext, 'screenshot'>): Promise<InspectResult> {
    const reasons: string[] = [];
    let retry = false;
    for (const g of this.chain) {
      if (!g.inspect) continue;
      const r = await g.inspect(query, ctx);
      if (r.supported) return r;
      reasons.push(r.reason);
      retry ||= r.retry === true;
    }
    return { supported: false, reason: reasons.join('; ') || 'no accessibility grounder is configured', ...(retry && { retry }) };
  }
}
