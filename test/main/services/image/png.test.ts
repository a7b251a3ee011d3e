import { readFileSync } from 'node:fs';
import { inflateSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, decodePng, encodePng } from '../../../../src/main/services/image';

/** The chunks of a PNG file, each checked against its CRC. */
function chunks(png: Uint8Array): { type: string; data: Buffer }[] {
  const buf = Buffer.from(png);
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    expect(crc32(buf.subarray(at + 4, at + 8 + len))).toBe(buf.readUInt32BE(at + 8 + len));
    out.push({ type: buf.toString('latin1', at + 4, at + 8), data: buf.subarray(at + 8, at + 8 + len) });
    at += 12 + len;
  }
  return out;
}

/** A PNG file built by hand (CRCs left zero: the decoder does not check them). */
function handmade(ihdr: number[], raw: number[]): Buffer {
  const chunk = (t: string, b: Buffer) => {
    const l = Buffer.alloc(4);
    l.writeUInt32BE(b.length);
    return Buffer.concat([l, Buffer.from(t, 'latin1'), b, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', Buffer.from(ihdr)),
    chunk('IDAT', deflateSync(Buffer.from(raw))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('src/main/services/image/png', () => {
  it('computes the CRC-32 PNG uses', () => {
    // The IEND chunk's CRC, found in every PNG file.
    expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
  });

  it('writes an 8-bit RGB file without alpha whose rows hold the pixels', () => {
    const data = Uint8Array.from({ length: 5 * 3 * 3 }, (_, i) => (i * 37) % 256);
    const cs = chunks(encodePng({ width: 5, height: 3, data }));
    expect(cs.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = cs[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([5, 3, 8, 2]);
    const raw = inflateSync(cs[1]!.data);
    const rows = [0, 1, 2].map((y) => [...raw.subarray(y * 16 + 1, (y + 1) * 16)]);
    expect(rows.flat()).toEqual([...data]);
  });

  it('writes grey images as colour type 0, which decode to equal RGB channels', () => {
    const png = encodePng({ width: 2, height: 1, data: Uint8Array.of(10, 200) }, 1);
    expect(chunks(png)[0]!.data[9]).toBe(0);
    expect([...decodePng(png).data]).toEqual([10, 10, 10, 200, 200, 200]);
  });

  it('rejects pixels of the wrong size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8Array(11) })).toThrow(/Expected 2x2x3 = 12 bytes of RGB, got 11/);
  });

  it('round-trips RGB pixels through encode and decode', () => {
    const data = Uint8Array.from({ length: 7 * 5 * 3 }, (_, i) => (i * 37) % 256);
    const back = decodePng(encodePng({ width: 7, height: 5, data }));
    expect([back.width, back.height]).toEqual([7, 5]);
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
    const png = handmade([0, 0, 0, 1, 0, 0, 0, 1, 16, 6, 0, 0, 0], [0, 0x12, 0x34, 0xab, 0xcd, 0x00, 0xff, 0, 0]);
    expect([...decodePng(png).data]).toEqual([0x12, 0xab, 0x00]);
  });

  it('fails with image.bad_png on bytes that are not a PNG, and image.unsupported_png on an interlaced one', () => {
    expect(() => decodePng(Uint8Array.of(1, 2, 3))).toThrow(expect.objectContaining({ code: 'image.bad_png' }));
    const interlaced = handmade([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 1], [0, 1, 2, 3]);
    expect(() => decodePng(interlaced)).toThrow(expect.objectContaining({ code: 'image.unsupported_png' }));
  });
});
