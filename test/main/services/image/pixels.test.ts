import { describe, expect, it } from 'vitest';
import { crop, resize, resizeGrey, toGrey, toRgb } from '../../../../src/main/services/image';

const img = {
  width: 4,
  height: 2,
  data: Uint8Array.from([0, 0, 0, 10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40, 50, 50, 50, 60, 60, 60, 70, 70, 70]),
};

describe('src/main/services/image/pixels', () => {
  it('drops the fourth byte and swaps BGRA to RGB, honouring row padding', () => {
    // 2x1 image with 12 bytes per row (4 padding bytes).
    const bgra = Uint8Array.of(1, 2, 3, 99, 4, 5, 6, 99, 0, 0, 0, 0);
    expect([...toRgb(bgra, 2, 1, 'bgra', 12)]).toEqual([3, 2, 1, 6, 5, 4]);
    expect([...toRgb(bgra, 2, 1, 'rgba', 12)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('crops to the rectangle clamped to the image', () => {
    expect([...crop(img, { x: 1, y: 1, width: 2, height: 5 }).data]).toEqual([50, 50, 50, 60, 60, 60]);
  });

  it('resizes bilinearly, keeping the corner pixels', () => {
    const big = resize(img, 8, 4);
    expect([big.width, big.height, big.data.length]).toEqual([8, 4, 96]);
    expect(big.data[0]).toBe(0);
    expect(big.data[(3 * 8 + 7) * 3]).toBe(70);
  });

  it('converts to BT.601 luma and resizes the grey image', () => {
    const grey = toGrey({ width: 2, height: 1, data: Uint8Array.of(255, 0, 0, 0, 0, 255) });
    expect([...grey.data]).toEqual([76, 29]);
    expect([...resizeGrey(grey, 4, 1).data]).toEqual([76, 64, 41, 29]);
  });
});
