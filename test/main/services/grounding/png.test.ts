import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crop, decodePng, encodePng, resize } from '../../../../src/main/services/grounding';

describe('src/main/services/grounding/png', () => {
  it('round-trips RGB pixels through encode and decode', () => {
    const data = Uint8Array.from({ length: 7 * 5 * 3 }, (_, i) => (i * 37) % 256);
    const back = decodePng(encodePng({ width: 7, height: 5, data }));
    expect(back.width).toBe(7);
    expect([...back.data]).toEqual([...data]);
  });

  it('decodes the filtered rows of a PNG written by ImageMagick', () => {
    const img = decodePng(readFileSync('test/fixtures/grounding/dialog.png'));
    expect([img.width, img.height]).toEqual([480, 200]);
    // background grey and a white button face, as drawn
    expect([...img.data.subarray(0, 3)]).toEqual([0xec, 0xec, 0xec]);
    const at = (x: number, y: number) => [...img.data.subarray((y * 480 + x) * 3, (y * 480 + x) * 3 + 3)];
    expect(at(65, 145)).toEqual([255, 255, 255]);
  });

  it('drops alpha and keeps the high byte of 16-bit samples', () => {
    // 1x1 RGBA 16-bit: R=0x1234 G=0xabcd B=0x00ff A=0x0000
    const raw = Buffer.from([0, 0x12, 0x34, 0xab, 0xcd, 0x00, 0xff, 0, 0]);
    const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 16, 6, 0, 0, 0]);
    const chunk = (t: string, b: Buffer) => {
      const l = Buffer.alloc(4);
      l.writeUInt32BE(b.length);
      return Buffer.concat([l, Buffer.from(t, 'latin1'), b, Buffer.alloc(4)]);
    };
    const png = Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect([...decodePng(png).data]).toEqual([0x12, 0xab, 0x00]);
  });

  it('crops and resizes', () => {
    const img = {
      width: 4,
      height: 2,
      data: Uint8Array.from([0, 0, 0, 10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40, 50, 50, 50, 60, 60, 60, 70, 70, 70]),
    };
    expect([...crop(img, { x: 1, y: 1, width: 2, height: 5 }).data]).toEqual([50, 50, 50, 60, 60, 60]);
    const big = resize(img, 8, 4);
    expect([big.width, big.height, big.data.length]).toEqual([8, 4, 96]);
    expect(big.data[0]).toBe(0);
    expect(big.data[(3 * 8 + 7) * 3]).toBe(70);
  });
});
