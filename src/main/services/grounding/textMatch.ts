import type { Rect } from '../../../shared/ports/desktop';
import { editDistance } from '../../../shared/text';

/** A word OCR found, in screen pixels. */
export interface OcrWord {
  text: string;
  box: Rect;
  /** 0..100 */
  confidence: number;
  /** Index of the OCR line it belongs to (words of a label are matched within one line). */
  line: number;
}

export interface LabelMatch {
  box: Rect;
  text: string;
  confidence: number;
  /** Edit distance between the label and what OCR read. */
  distance: number;
  /** Whether the letters' case differs ("save" in a sentence vs the "Save" button). */
  caseDiffers: boolean;
}

/** Lower case, letters and digits only: `&Save As...` -> `saveas`. Accelerator ampersands and punctuation vanish. */
export function normaliseLabel(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function union(boxes: Rect[]): Rect {
  const x0 = Math.min(...boxes.map((b) => b.x)),
    y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width)),
    y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Where a label appears among OCR words: runs of consecutive words on one line whose joined
 * letters equal the label's, allowing one OCR slip per six letters. Exact matches (case included)
 * come first, each tier in reading order.
 */
export function findLabel(words: readonly OcrWord[], label: string): LabelMatch[] {
  const want = normaliseLabel(label);
  if (!want) return [];
  const tolerance = Math.floor(want.length / 6);
  const matches: LabelMatch[] = [];
  const lines = new Map<number, OcrWord[]>();
  for (const w of words) (lines.get(w.line) ?? lines.set(w.line, []).get(w.line)!).push(w);
  for (const line of lines.values()) {
    line.sort((a, b) => a.box.x - b.box.x);
    for (let i = 0; i < line.length; i++) {
      let joined = '';
      for (let j = i; j < line.length && joined.length < want.length + tolerance + 1; j++) {
        const n = normaliseLabel(line[j]!.text);
        if (!n && j === i) break;
        joined += n;
        const distance = editDistance(joined, want);
        // A word that merely contains the label ("Saved" for "Save") must not count: compare whole runs.
        if (distance <= tolerance && Math.abs(joined.length - want.length) <= tolerance) {
          const run = line.slice(i, j + 1);
          const text = run.map((w) => w.text).join(' ');
          const caseDiffers = text.replace(/[^\p{L}\p{N}]/gu, '') !== label.replace(/[^\p{L}\p{N}]/gu, '');
          matches.push({
            box: union(run.map((w) => w.box)),
            text,
            confidence: run.reduce((s, w) => s + w.confidence, 0) / run.length,
            distance,
            caseDiffers,
          });
          break;
        }
      }
    }
  }
  // Exact readings first, then those differing only in case, each tier in reading order.
  const tier = (m: LabelMatch) => m.distance * 2 + (m.caseDiffers ? 1 : 0);
  return matches.sort(
    (a, b) =>
      tier(a) - tier(b) || (Math.abs(a.box.y - b.box.y) > Math.min(a.box.height, b.box.height) / 2 ? a.box.y - b.box.y : a.box.x - b.box.x),
  );
}
