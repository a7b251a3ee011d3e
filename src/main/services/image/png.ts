import { deflateSync, inflateSync } from 'node:zlib';
import { SkillDeskError } from '../../../shared/errors';
import type { GreyImage, RgbImage } from './pixels';

/**
 * The one PNG codec: screen captures are encoded here (RGB, no alpha: screen grabs carry a junk
 * alpha channel that must not reach OCR or people) and grounding decodes them here to crop, upscale
 * and hand them to OCR or a vision model. 8-bit non-interlaced files of every colour type decode,
 * 16-bit ones keep their high byte; Node's zlib does the compression, so no native library is needed.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as PNG chunks carry it (of the chunk's type and data). */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Encodes RGB (`channels` 3, the default) or grey (`channels` 1) pixels, rows top to bottom, as a PNG file.
 * @example encodePng({ width: 2, height: 1, data: Uint8Array.of(255, 0, 0, 0, 0, 255) })
 */
export function encodePng(img: RgbImage | GreyImage, channels: 1 | 3 = 3): Uint8Array {
  const { width, height, data } = img;
  if (data.length !== width * height * channels) {
    throw new RangeError(
      `Expected ${width}x${height}x${channels} = ${width * height * channels} bytes of ${channels === 3 ? 'RGB' : 'grey'}, got ${data.length}`,
    );
  }
  const stride = width * channels;
  // Every row starts with its filter type; 0 (none) keeps this simple and fast enough.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = channels === 3 ? 2 : 0; // colour type: RGB or grey
  const idat = deflateSync(raw, { level: 6 });
  return new Uint8Array(Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', new Uint8Array())]));
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlace: number;
  palette: Buffer | undefined;
  idat: Buffer;
}

function readChunks(buf: Buffer): Header {
  const h: Header = { width: 0, height: 0, depth: 0, colour: 0, interlace: 0, palette: undefined, idat: Buffer.alloc(0) };
  const idat: Buffer[] = [];
  for (let off = 8; off + 8 <= buf.length;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      h.width = body.readUInt32BE(0);
      h.height = body.readUInt32BE(4);
      h.depth = body[8]!;
      h.colour = body[9]!;
      h.interlace = body[12]!;
    } else if (type === 'PLTE') h.palette = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  h.idat = Buffer.concat(idat);
  return h;
}

/** Undoes the per-row filters (none, sub, up, average, Paeth) of `raw` into packed samples. */
function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Buffer {
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : undefined;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[x - bpp]! : 0;
      const b = prev ? prev[x]! : 0;
      const c = prev && x >= bpp ? prev[x - bpp]! : 0;
      let v = line[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a),
          pb = Math.abs(p - b),
          pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[x] = v & 0xff;
    }
  }
  return pixels;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Decodes a PNG file to RGB; alpha is dropped, grey and palette images are expanded. */
export function decodePng(png: Uint8Array): RgbImage {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE))
    throw new SkillDeskError('image.bad_png', 'Expected PNG bytes (signature 89 50 4E 47), got something else');
  const { width, height, depth, colour, interlace, palette, idat } = readChunks(buf);
  if ((depth !== 8 && depth !== 16) || (depth === 16 && colour === 3) || interlace !== 0) {
    throw new SkillDeskError(
      'image.unsupported_png',
      `Expected an 8- or 16-bit non-interlaced PNG, got bit depth ${depth}, interlace ${interlace}`,
    );
  }
  const channels = CHANNELS[colour];
  if (!channels) throw new SkillDeskError('image.unsupported_png', `Unsupported PNG colour type ${colour}`);
  const bpp = channels * (depth / 8);
  const pixels = unfilter(inflateSync(idat), width * bpp, height, bpp);
  const data = new Uint8Array(width * height * 3);
  // 16-bit samples keep their high byte.
  const sample = depth === 16 ? (i: number) => pixels[i * 2]! : (i: number) => pixels[i]!;
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    if (colour === 3) {
      const p = sample(s) * 3;
      data[i * 3] = palette?.[p] ?? 0;
      data[i * 3 + 1] = palette?.[p + 1] ?? 0;
      data[i * 3 + 2] = palette?.[p + 2] ?? 0;
    } else if (channels <= 2) {
      data[i * 3] = data[i * 3 + 1] = data[i * 3 + 2] = sample(s);
    } else {
      // Alpha is dropped: screen captures carry a junk alpha channel.
      data[i * 3] = sample(s);
      data[i * 3 + 1] = sample(s + 1);
      data[i * 3 + 2] = sample(s + 2);
    }
  }
  return { width, height, data };
}
