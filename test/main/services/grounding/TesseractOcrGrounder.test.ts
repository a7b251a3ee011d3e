import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { findLabel, TesseractOcrGrounder, type OcrWord } from '../../../../src/main/services/grounding';
import { crop, decodePng, encodePng } from '../../../../src/main/services/image';

const png = new Uint8Array(readFileSync('test/fixtures/grounding/dialog.png'));
const screenshot = { width: 480, height: 200, png };

describe('src/main/services/grounding/TesseractOcrGrounder', () => {
  const ocr = new TesseractOcrGrounder();
  afterAll(() => ocr.close());

  it('reads word boxes offline and clicks a button label at its centre', async () => {
    const cancel = await ocr.locate({ kind: 'text', text: 'Cancel' }, { screenshot });
    // the Cancel button is drawn at x 320..410, y 140..166
    expect(cancel).toMatchObject({ found: true, source: 'ocr' });
    if (!cancel.found) return;
    expect(cancel.point.x).toBeGreaterThan(330);
    expect(cancel.point.x).toBeLessThan(400);
    expect(cancel.point.y).toBeGreaterThan(140);
    expect(cancel.point.y).toBeLessThan(166);
  }, 60_000);

  it('matches multi-word labels and prefers the exact-case button over a word in a sentence', async () => {
    const dont = await ocr.locate({ kind: 'text', text: "Don't Save" }, { screenshot });
    expect(dont.found && dont.point.x > 190 && dont.point.x < 290).toBe(true);
    const save = await ocr.locate({ kind: 'text', text: 'Save' }, { screenshot });
    expect(save.found && save.point.y > 140 && save.point.x < 150).toBe(true);
  }, 60_000);

  it('looks only inside the window when one is given, and explains a miss with what it read', async () => {
    const win = { id: 'w', title: 'Notepad', bounds: { x: 0, y: 0, width: 480, height: 100 } };
    const miss = await ocr.locate({ kind: 'text', text: 'Cancel' }, { screenshot, window: win });
    expect(miss.found).toBe(false);
    if (!miss.found) expect(miss.reason).toMatch(/OCR found no "Cancel" in "Notepad".*it read: Do you want to save changes/);
  }, 60_000);

  it('answers in window pixels when the screenshot is a capture of the window (as the executor takes it)', async () => {
    const shot = encodePng(crop(decodePng(png), { x: 300, y: 120, width: 180, height: 80 }));
    const r = await ocr.locate(
      { kind: 'text', text: 'Cancel' },
      {
        screenshot: { width: 180, height: 80, png: shot },
        window: { id: 'w', title: 'dialog', bounds: { x: 300, y: 120, width: 180, height: 80 } },
      },
    );
    // Cancel's face spans x 320..410, y 140..166 on screen: 20..110, 20..46 in the window
    expect(r.found && r.point.x > 30 && r.point.x < 100 && r.point.y > 20 && r.point.y < 46).toBe(true);
  }, 60_000);

  it('divides by the display scale factor', async () => {
    const hidpi = new TesseractOcrGrounder({ displayScale: 2 });
    try {
      const r = await hidpi.locate({ kind: 'text', text: 'Cancel' }, { screenshot });
      expect(r.found && r.point.x > 165 && r.point.x < 200 && r.point.y > 70 && r.point.y < 83).toBe(true);
    } finally {
      await hidpi.close();
    }
  }, 60_000);
});

describe('src/main/services/grounding/textMatch', () => {
  const w = (text: string, x: number, line: number, confidence = 90): OcrWord => ({
    text,
    line,
    confidence,
    box: { x, y: line * 20, width: text.length * 7, height: 12 },
  });
  it('tolerates one OCR slip in a long label but not a different word', () => {
    const words = [w('Sava', 10, 0), w('Preferences', 10, 1), w('Preferenc3s', 10, 2), w('Saved', 100, 0)];
    expect(findLabel(words, 'Save')).toEqual([]);
    expect(findLabel(words, 'Preferences').map((m) => m.box.y)).toEqual([20, 40]);
    expect(findLabel([w('&Open...', 5, 0)], 'Open')).toHaveLength(1);
  });
});
