import { deflateSync } from 'node:zlib';

/**
 * A minimal PNG encoder for 8-bit RGB images (no alpha: screen grabs carry a junk alpha channel
 * that must not reach OCR or people). Node's zlib does the compression; nothing else is needed.
 */

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it. */
export function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  let c = crc;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8);
  out.writeUInt32BE((crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0, 8 + data.length);
  return out;
}

/** Encodes `rgb` (width*height*3 bytes, rows top to bottom) as a PNG file. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  if (rgb.length !== width * height * 3) {
    throw new RangeError(`Expected ${width}x${height}x3 = ${width * height * 3} bytes of RGB, got ${rgb.length}`);
  }
  const stride = width * 3;
  // Every row starts with its filter type; 0 (none) keeps this simple and fast enough.
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type: RGB
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array())]);
}

/** Converts 4-byte pixels (BGRA or RGBA, per `order`) to packed RGB, dropping the fourth byte. */
export function toRgb(pixels: Uint8Array, width: number, height: number, order: 'bgra' | 'rgba', rowBytes = width * 4): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  const [r, b] = order === 'bgra' ? [2, 0] : [0, 2];
  for (let y = 0; y < height; y++) {
    let src = y * rowBytes;
    let dst = y * width * 3;
    for (let x = 0; x < width; x++, src += 4, dst += 3) {
      out[dst] = pixels[src + r] as number;
      out[dst + 1] = pixels[src + 1] as number;
      out[dst + 2] = pixels[src + b] as number;
    }
  }
  return out;
}
