import { deflateSync, inflateSync } from 'node:zlib';
import { SkillDeskError } from '../../../shared/errors';

/**
 * A minimal PNG codec (8-bit, non-interlaced; grey, grey+alpha, RGB, RGBA, palette) so grounding
 * can upscale, crop and resize screenshots without a native image library.
 */
export interface RgbImage {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel, row-major. */
  data: Uint8Array;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

export function decodePng(png: Uint8Array): RgbImage {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE))
    throw new SkillDeskError('image.bad_png', 'Expected PNG bytes (signature 89 50 4E 47), got something else');
  let width = 0,
    height = 0,
    depth = 0,
    colour = 0,
    interlace = 0;
  let palette: Buffer | undefined;
  const idat: Buffer[] = [];
  for (let off = 8; off + 8 <= buf.length;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      depth = body[8]!;
      colour = body[9]!;
      interlace = body[12]!;
    } else if (type === 'PLTE') palette = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  if ((depth !== 8 && depth !== 16) || (depth === 16 && colour === 3) || interlace !== 0) {
    throw new SkillDeskError(
      'image.unsupported_png',
      `Expected an 8- or 16-bit non-interlaced PNG, got bit depth ${depth}, interlace ${interlace}`,
    );
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[colour];
  if (!channels) throw new SkillDeskError('image.unsupported_png', `Unsupported PNG colour type ${colour}`);
  const raw = inflateSync(Buffer.concat(idat));
  const bpp = channels * (depth / 8);
  const stride = width * bpp;
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
      switch (filter) {
        case 1:
          v += a;
          break;
        case 2:
          v += b;
          break;
        case 3:
          v += (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a),
            pb = Math.abs(p - b),
            pc = Math.abs(p - c);
          v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
      }
      out[x] = v & 0xff;
    }
  }
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

/** Encodes RGB (3 channels) or grey (1 channel) pixels as PNG. */
export function encodePng(img: { width: number; height: number; data: Uint8Array }, channels: 1 | 3 = 3): Uint8Array {
  const stride = img.width * channels;
  const raw = Buffer.alloc((stride + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    raw[y * (stride + 1)] = 0;
    Buffer.from(img.data.buffer, img.data.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  }
  const chunk = (type: string, body: Buffer) => {
    const out = Buffer.alloc(12 + body.length);
    out.writeUInt32BE(body.length, 0);
    out.write(type, 4, 'latin1');
    body.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)), 8 + body.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 3 ? 2 : 0;
  return new Uint8Array(
    Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', Buffer.alloc(0))]),
  );
}

let CRC_TABLE: Uint32Array | undefined;
function crc32(buf: Uint8Array): number {
  CRC_TABLE ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Crops to the rectangle (clamped to the image). */
export function crop(img: RgbImage, r: { x: number; y: number; width: number; height: number }): RgbImage {
  const x0 = Math.max(0, Math.floor(r.x)),
    y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(img.width, Math.ceil(r.x + r.width)),
    y1 = Math.min(img.height, Math.ceil(r.y + r.height));
  const w = Math.max(0, x1 - x0),
    h = Math.max(0, y1 - y0);
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((y0 + y) * img.width + x0) * 3, ((y0 + y) * img.width + x1) * 3), y * w * 3);
  return { width: w, height: h, data };
}

/** Bilinear resize to the given size (RGB). */
export function resize(img: RgbImage, width: number, height: number): RgbImage {
  return { width, height, data: resizeChannels(img.data, img.width, img.height, width, height, 3) };
}

/** Bilinear resize of a single-channel image. */
export function resizeGrey(
  img: { width: number; height: number; data: Uint8Array },
  width: number,
  height: number,
): { width: number; height: number; data: Uint8Array } {
  return { width, height, data: resizeChannels(img.data, img.width, img.height, width, height, 1) };
}

function axis(src: number, dst: number): { i0: Int32Array; i1: Int32Array; w: Float32Array } {
  const i0 = new Int32Array(dst),
    i1 = new Int32Array(dst),
    w = new Float32Array(dst);
  const scale = src / dst;
  for (let d = 0; d < dst; d++) {
    const f = Math.max(0, (d + 0.5) * scale - 0.5);
    const a = Math.min(src - 1, Math.floor(f));
    i0[d] = a;
    i1[d] = Math.min(src - 1, a + 1);
    w[d] = f - a;
  }
  return { i0, i1, w };
}

// Index arithmetic is precomputed per axis: a 1280x800 screenshot doubles in well under a second.
function resizeChannels(src: Uint8Array, sw: number, sh: number, dw: number, dh: number, ch: number): Uint8Array {
  const out = new Uint8Array(dw * dh * ch);
  const xs = axis(sw, dw),
    ys = axis(sh, dh);
  for (let y = 0; y < dh; y++) {
    const r0 = ys.i0[y]! * sw * ch,
      r1 = ys.i1[y]! * sw * ch,
      wy = ys.w[y]!;
    for (let x = 0; x < dw; x++) {
      const c0 = xs.i0[x]! * ch,
        c1 = xs.i1[x]! * ch,
        wx = xs.w[x]!;
      const o = (y * dw + x) * ch;
      for (let c = 0; c < ch; c++) {
        const top = src[r0 + c0 + c]! + (src[r0 + c1 + c]! - src[r0 + c0 + c]!) * wx;
        const bottom = src[r1 + c0 + c]! + (src[r1 + c1 + c]! - src[r1 + c0 + c]!) * wx;
        out[o + c] = Math.round(top + (bottom - top) * wy);
      }
    }
  }
  return out;
}

/** Luma (BT.601) as a single-channel image, for OCR. */
export function toGrey(img: RgbImage): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(img.width * img.height);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.round(0.299 * img.data[i * 3]! + 0.587 * img.data[i * 3 + 1]! + 0.114 * img.data[i * 3 + 2]!);
  return { width: img.width, height: img.height, data };
}
