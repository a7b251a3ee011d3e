/** Pixel operations on decoded images: what screen capture, OCR and the vision grounder need. */

/** An RGB image: 3 bytes per pixel, row-major. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A single-channel (grey) image: 1 byte per pixel, row-major. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Converts 4-byte pixels (BGRA or RGBA, per `order`) to packed RGB, dropping the fourth byte; `rowBytes` allows row padding. */
export function toRgb(pixels: Uint8Array, width: number, height: number, order: 'bgra' | 'rgba', rowBytes = width * 4): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  const [r, b] = order === 'bgra' ? [2, 0] : [0, 2];
  for (let y = 0; y < height; y++) {
    let src = y * rowBytes;
    let dst = y * width * 3;
    for (let x = 0; x < width; x++, src += 4, dst += 3) {
      out[dst] = pixels[src + r]!;
      out[dst + 1] = pixels[src + 1]!;
      out[dst + 2] = pixels[src + b]!;
    }
  }
  return out;
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
export function resizeGrey(img: GreyImage, width: number, height: number): GreyImage {
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
export function toGrey(img: RgbImage): GreyImage {
  const data = new Uint8Array(img.width * img.height);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.round(0.299 * img.data[i * 3]! + 0.587 * img.data[i * 3 + 1]! + 0.114 * img.data[i * 3 + 2]!);
  return { width: img.width, height: img.height, data };
}
