/** Grounding: text and accessibility targets to screen points, by the accessibility tree, OCR and/or a vision model, chained with fallback. */
import type { Grounder } from '../../../shared/ports/grounding';
import type { LlmClient } from '../llm/types';
import { AtspiGrounder } from './AtspiGrounder';
import { ChainedGrounder } from './ChainedGrounder';
import { OpenAiVisionGrounder, type VisionOptions } from './OpenAiVisionGrounder';
import { TesseractOcrGrounder, type OcrOptions } from './TesseractOcrGrounder';

export { ChainedGrounder } from './ChainedGrounder';
export { AtspiGrounder, screenPoint } from './AtspiGrounder';
export type { AtspiOptions, AtspiMatch } from './AtspiGrounder';
export { OpenAiVisionGrounder, smartResize, toSentPixels } from './OpenAiVisionGrounder';
export type { CoordinateConvention, VisionOptions } from './OpenAiVisionGrounder';
export { TesseractOcrGrounder, englishLangPath } from './TesseractOcrGrounder';
export type { OcrOptions } from './TesseractOcrGrounder';
export { findLabel, normaliseLabel } from './textMatch';
export type { OcrWord, LabelMatch } from './textMatch';

export interface GrounderSetup {
  /** OCR first (offline, cheap). @default true */
  ocr?: boolean | OcrOptions;
  /** The grounder role's client: the vision model is tried after OCR. */
  vision?: LlmClient;
  visionOptions?: VisionOptions;
  /** Physical pixels per logical pixel, for both. @default 1 */
  displayScale?: number;
  /** Linux: the AT-SPI accessibility tree first (needs python3 with gir1.2-atspi-2.0). @default false */
  accessibility?: boolean;
  /** Grounders tried before OCR (e.g. Windows UI Automation). */
  before?: Grounder[];
}

/**
 * The grounder the executor gets: [accessibility] -> OCR -> vision model, first hit wins.
 * Call `close()` to stop the OCR worker.
 */
export function createGrounder(setup: GrounderSetup = {}): ChainedGrounder & { close(): Promise<void> } {
  const scale = setup.displayScale ?? 1;
  const chain: Grounder[] = [...(setup.before ?? [])];
  if (setup.accessibility) chain.push(new AtspiGrounder({ displayScale: scale }));
  const ocr =
    setup.ocr === false
      ? undefined
      : new TesseractOcrGrounder({ displayScale: scale, ...(typeof setup.ocr === 'object' ? setup.ocr : {}) });
  if (ocr) chain.push(ocr);
  if (setup.vision) chain.push(new OpenAiVisionGrounder(setup.vision, { displayScale: scale, ...setup.visionOptions }));
  return Object.assign(new ChainedGrounder(chain), {
    close: async () => {
      await ocr?.close();
    },
  });
}
export { accessibleAt } from './atspiAt';
