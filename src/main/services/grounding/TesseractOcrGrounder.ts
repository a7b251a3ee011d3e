import { dirname, join } from 'node:path';
import type { Worker as TesseractWorker } from 'tesseract.js';
import type { Rect } from '../../../shared/ports/desktop';
import type { Grounder, GroundingContext, GroundingResult } from '../../../shared/ports/grounding';
import type { Target } from '../../../shared/skill';
import { crop, decodePng, encodePng, resizeGrey, toGrey, type RgbImage } from '../image';
import { searchRegion } from './region';
import { findLabel, type OcrWord } from './textMatch';

export interface OcrOptions {
  /** Upscaling before OCR: small UI fonts read far better at 2x. @default 2 */
  upscale?: number;
  /** Physical pixels per logical pixel (HiDPI): screenshot coordinates are divided by it. @default 1 */
  displayScale?: number;
  /** Words below this confidence (0..100) are ignored. @default 30 */
  minConfidence?: number;
}

/** English traineddata shipped in @tesseract.js-data/eng: nothing is downloaded at run time. */
export function englishLangPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

/**
 * Offline OCR grounding (tesseract.js): reads the words in the screenshot (within the target
 * window when known), and resolves a `text` target to the centre of the matching label, in
 * screenshot pixels.
 */
export class TesseractOcrGrounder implements Grounder {
  private worker?: Promise<TesseractWorker>;
  private readonly o: Required<OcrOptions>;

  constructor(options: OcrOptions = {}) {
    this.o = { upscale: 2, displayScale: 1, minConfidence: 30, ...options };
  }

  /** Every word read in `region` of the screenshot (default: all of it), in screenshot pixels. */
  async readWords(png: Uint8Array, region?: Rect): Promise<OcrWord[]> {
    return this.readImageWords(decodePng(png), region);
  }

  private async readImageWords(full: RgbImage, region?: Rect): Promise<OcrWord[]> {
    const area = region ? clampRect(region, full) : { x: 0, y: 0, width: full.width, height: full.height };
    if (area.width < 4 || area.height < 4) return [];
    let grey = toGrey(region ? crop(full, area) : full);
    const k = this.o.upscale;
    if (k !== 1) grey = resizeGrey(grey, Math.round(grey.width * k), Math.round(grey.height * k));
    const worker = await this.getWorker();
    const { data } = await worker.recognize(Buffer.from(encodePng(grey, 1)), {}, { blocks: true, text: false });
    const words: OcrWord[] = [];
    let line = 0;
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const l of para.lines) {
          for (const w of l.words) {
            if (w.confidence < this.o.minConfidence || !w.text.trim()) continue;
            words.push({
              text: w.text,
              confidence: w.confidence,
              line,
              box: {
                x: area.x + w.bbox.x0 / k,
                y: area.y + w.bbox.y0 / k,
                width: (w.bbox.x1 - w.bbox.x0) / k,
                height: (w.bbox.y1 - w.bbox.y0) / k,
              },
            });
          }
          line += 1;
        }
      }
    }
    return words;
  }

  async locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult> {
    const label = target.kind === 'text' ? target.text : target.name;
    const nth = target.kind === 'text' ? (target.nth ?? 0) : 0;
    const s = this.o.displayScale;
    const shot = decodePng(ctx.screenshot.png);
    const words = await this.readImageWords(shot, searchRegion(ctx, shot, s));
    const matches = findLabel(words, label);
    const m = matches[nth];
    if (!m) {
      const seen = words
        .slice(0, 25)
        .map((w) => w.text)
        .join(' ');
      return {
        found: false,
        source: 'ocr',
        reason: `OCR found no${nth ? ` ${nth + 1}th` : ''} "${label}"${ctx.window ? ` in "${ctx.window.title}"` : ''} (${matches.length} match(es)); it read: ${seen || '(nothing)'}`,
      };
    }
    return {
      found: true,
      source: 'ocr',
      confidence: m.confidence / 100,
      point: { x: Math.round((m.box.x + m.box.width / 2) / s), y: Math.round((m.box.y + m.box.height / 2) / s) },
    };
  }

  async readText(ctx: GroundingContext): Promise<string> {
    const shot = decodePng(ctx.screenshot.png);
    const lines = new Map<number, string[]>();
    for (const w of await this.readImageWords(shot, searchRegion(ctx, shot, this.o.displayScale))) {
      lines.set(w.line, [...(lines.get(w.line) ?? []), w.text]);
    }
    return [...lines.values()].map((words) => words.join(' ')).join('\n');
  }

  /** Stops the OCR worker (it keeps the process alive otherwise). */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await (await w).terminate();
  }

  private getWorker(): Promise<TesseractWorker> {
    this.worker ??= (async () => {
      const { createWorker, OEM, PSM } = await import('tesseract.js');
      const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: englishLangPath(), gzip: true, cacheMethod: 'none' });
      // Sparse text: UI screenshots are scattered labels, not paragraphs.
      // A fixed DPI also silences tesseract's "Estimating resolution" chatter on stdout. Sauvola
      // (local) thresholding: with global Otsu, a dark desktop around a light window wipes out the labels.
      await worker.setParameters({
        tessedit_pageseg_mode: PSM.SPARSE_TEXT,
        user_defined_dpi: String(96 * this.o.upscale),
        thresholding_method: '2',
      } as Record<string, string>);
      return worker;
    })();
    this.worker.catch(() => {
      this.worker = undefined;
    });
    return this.worker;
  }
}

function clampRect(r: Rect, img: { width: number; height: number }): Rect {
  const x = Math.max(0, Math.round(r.x)),
    y = Math.max(0, Math.round(r.y));
  return {
    x,
    y,
    width: Math.max(0, Math.min(img.width, Math.round(r.x + r.width)) - x),
    height: Math.max(0, Math.min(img.height, Math.round(r.y + r.height)) - y),
  };
}
