import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, encodePng, toRgb } from '../../../../src/main/services/desktop/PngEncoder';

/** Decodes what encodePng writes (filter 0 rows, one IDAT) and checks every chunk's CRC. */
function decode(png: Uint8Array) {
  const buf = Buffer.from(png);
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    expect((crc32(buf.subarray(at + 4, at + 8 + len)) ^ 0xffffffff) >>> 0).toBe(buf.readUInt32BE(at + 8 + len));
    chunks.push({ type, data });
    at += 12 + len;
  }
  const ihdr = chunks[0]?.data as Buffer;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const rgb = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) raw.copy(rgb, y * width * 3, y * (width * 3 + 1) + 1, (y + 1) * (width * 3 + 1));
  return { types: chunks.map((c) => c.type), width, height, bitDepth: ihdr[8], colorType: ihdr[9], rgb };
}

describe('src/main/services/desktop/PngEncoder', () => {
  it('computes the CRC-32 PNG uses', () => {
    // The IEND chunk's CRC, found in every PNG file.
    expect((crc32(Buffer.from('IEND', 'latin1')) ^ 0xffffffff) >>> 0).toBe(0xae426082);
  });

  it('encodes RGB pixels that decode to the same pixels, without alpha', () => {
    const width = 5;
    const height = 3;
    const rgb = Uint8Array.from({ length: width * height * 3 }, (_, i) => (i * 37) % 256);
    const d = decode(encodePng(width, height, rgb));
    expect(d.types).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect({ width: d.width, height: d.height, bitDepth: d.bitDepth, colorType: d.colorType }).toEqual({
      width,
      height,
      bitDepth: 8,
      colorType: 2,
    });
    expect([...d.rgb]).toEqual([...rgb]);
  });

  it('rejects a buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow(/Expected 2x2x3 = 12 bytes/);
  });

  it('drops the fourth byte and swaps BGRA to RGB, honouring row padding', () => {
    // 2x1 image with 12 bytes per row (4 padding bytes).
    const bgra = Uint8Array.of(1, 2, 3, 99, 4, 5, 6, 99, 0, 0, 0, 0);
    expect([...toRgb(bgra, 2, 1, 'bgra', 12)]).toEqual([3, 2, 1, 6, 5, 4]);
    expect([...toRgb(bgra, 2, 1, 'rgba', 12)]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
