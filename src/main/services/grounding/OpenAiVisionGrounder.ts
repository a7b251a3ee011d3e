import { z } from 'zod';
import type { Grounder, GroundingContext, GroundingResult } from '../../../shared/ports/grounding';
import type { Target } from '../../../shared/skill';
import { LlmError } from '../llm/errors';
import type { LlmClient } from '../llm/types';
import type { UsageMeter } from '../llm/UsageMeter';
import { crop, decodePng, encodePng, resize, type RgbImage } from '../image';
import { searchRegion } from './region';

/**
 * How a vision model reports points: pixels of the image it was sent, 0–1000 on both axes
 * (UI-TARS, CogAgent, Gemini-style), or pixels of the image after the model's own resize
 * (Qwen2-VL/2.5-VL "smart resize" to multiples of 28 within a pixel budget).
 */
export type CoordinateConvention = 'absolute' | 'normalized_1000' | 'resized';

export interface VisionOptions {
  /** @default the grounder role's `coordinates` setting */
  coordinates?: CoordinateConvention;
  /** Longest side of the image sent; larger screenshots are scaled down. @default the role's `imageMaxSide` */
  imageMaxSide?: number;
  /** Physical pixels per logical pixel. @default 1 */
  displayScale?: number;
  /** For `resized`: the model's pixel budget. @default 12845056 (Qwen2.5-VL) */
  maxPixels?: number;
  /** For `resized`: lower pixel bound. @default 3136 */
  minPixels?: number;
  meter?: UsageMeter;
}

const LocateSchema = z.object({
  found: z.boolean(),
  x: z.number().nullable().optional(),
  y: z.number().nullable().optional(),
  reason: z.string().optional(),
});

/** Qwen2-VL's resize: both sides multiples of 28, total pixels within [min, max]. */
export function smartResize(
  width: number,
  height: number,
  minPixels = 3136,
  maxPixels = 12_845_056,
  factor = 28,
): { width: number; height: number } {
  let h = Math.max(factor, Math.round(height / factor) * factor);
  let w = Math.max(factor, Math.round(width / factor) * factor);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.max(factor, Math.floor(height / beta / factor) * factor);
    w = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

/** Maps a model's point back to pixels of the image that was sent. */
export function toSentPixels(
  x: number,
  y: number,
  sent: { width: number; height: number },
  convention: CoordinateConvention,
  o: { minPixels?: number; maxPixels?: number } = {},
): { x: number; y: number } {
  switch (convention) {
    case 'absolute':
      return { x, y };
    case 'normalized_1000':
      return { x: (x / 1000) * sent.width, y: (y / 1000) * sent.height };
    case 'resized': {
      const r = smartResize(sent.width, sent.height, o.minPixels, o.maxPixels);
      return { x: (x * sent.width) / r.width, y: (y * sent.height) / r.height };
    }
  }
}

/** Grounding through an OpenAI-compatible vision model (the grounder role): screenshot in, point (screenshot pixels) out. */
export class OpenAiVisionGrounder implements Grounder {
  private readonly convention: CoordinateConvention;
  private readonly maxSide: number;

  constructor(
    private readonly llm: LlmClient,
    private readonly o: VisionOptions = {},
  ) {
    this.convention = o.coordinates ?? llm.config.coordinates;
    this.maxSide = o.imageMaxSide ?? llm.config.imageMaxSide;
  }

  async locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult> {
    const scale = this.o.displayScale ?? 1;
    const full = decodePng(ctx.screenshot.png);
    const region = searchRegion(ctx, full, scale);
    const area = region ? clamp(region, full) : { x: 0, y: 0, width: full.width, height: full.height };
    let img: RgbImage = region ? crop(full, area) : full;
    const k = Math.min(1, this.maxSide / Math.max(img.width, img.height));
    if (k < 1) img = resize(img, Math.round(img.width * k), Math.round(img.height * k));
    const what =
      target.kind === 'text'
        ? `the UI element labelled "${target.text}"${target.nth ? ` (occurrence ${target.nth + 1} in reading order)` : ''}`
        : `the ${target.role ?? 'element'} named "${target.name}"`;
    const units =
      this.convention === 'normalized_1000'
        ? 'on a 0-1000 scale for both axes (0,0 top-left, 1000,1000 bottom-right)'
        : `in pixels of this ${img.width}x${img.height} image`;
    let answer: z.infer<typeof LocateSchema>;
    try {
      answer = await this.llm.structured({
        name: 'locate_element',
        schema: LocateSchema,
        stage: 'ground',
        ...(ctx.signal && { signal: ctx.signal }),
        ...(this.o.meter && { meter: this.o.meter }),
        messages: [
          {
            role: 'system',
            content:
              'You locate elements in screenshots of desktop applications. Answer with the centre point of the requested element, or found=false if it is not visible.',
          },
          {
            role: 'user',
            content: [
              { type: 'text', text: `Find ${what}. Give x and y ${units}.` },
              { type: 'image', png: encodePng(img) },
            ],
          },
        ],
      });
    } catch (err) {
      if (err instanceof LlmError && err.code !== 'llm.aborted')
        return { found: false, source: 'vision', reason: `vision model: ${err.message}` };
      throw err;
    }
    if (!answer.found || answer.x == null || answer.y == null)
      return { found: false, source: 'vision', reason: `vision model did not find ${what}${answer.reason ? `: ${answer.reason}` : ''}` };
    const p = toSentPixels(answer.x, answer.y, img, this.convention, this.o);
    if (p.x < 0 || p.y < 0 || p.x > img.width || p.y > img.height) {
      return {
        found: false,
        source: 'vision',
        reason: `vision model answered (${answer.x}, ${answer.y}), outside the ${img.width}x${img.height} image (${this.convention} coordinates)`,
      };
    }
    return {
      found: true,
      source: 'vision',
      confidence: 0.5,
      point: { x: Math.round((area.x + p.x / k) / scale), y: Math.round((area.y + p.y / k) / scale) },
    };
  }
}

function clamp(r: { x: number; y: number; width: number; height: number }, img: { width: number; height: number }) {
  const x = Math.max(0, Math.round(r.x)),
    y = Math.max(0, Math.round(r.y));
  return { x, y, width: Math.min(img.width, Math.round(r.x + r.width)) - x, height: Math.min(img.height, Math.round(r.y + r.height)) - y };
}
