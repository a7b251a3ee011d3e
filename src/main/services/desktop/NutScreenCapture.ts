import type { NutModule } from './nut';
import type { Rect, ScreenCapture, Screenshot } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import { encodePng, toRgb } from '../image';

/** Screenshots through nut.js (libnut), returned as RGB PNGs. */
export class NutScreenCapture implements ScreenCapture {
  constructor(private readonly nut: NutModule) {}

  async capture(region?: Rect): Promise<Screenshot> {
    const { screen, Region } = this.nut;
    let image;
    if (region) {
      const [sw, sh] = await Promise.all([screen.width(), screen.height()]);
      // Windows partly off screen are common; grab what is visible of them.
      const x = Math.max(0, Math.round(region.x));
      const y = Math.max(0, Math.round(region.y));
      const width = Math.min(sw, Math.round(region.x + region.width)) - x;
      const height = Math.min(sh, Math.round(region.y + region.height)) - y;
      if (width <= 0 || height <= 0) {
        throw new DesktopError(
          'screen.empty_region',
          `Expected a region overlapping the ${sw}x${sh} screen, got ${JSON.stringify(region)}`,
        );
      }
      image = await screen.grabRegion(new Region(x, y, width, height));
    } else {
      image = await screen.grab();
    }
    // libnut hands out BGRA on Linux and Windows (colorMode BGR); the alpha byte is garbage.
    const order = image.colorMode === this.nut.ColorMode.RGB ? 'rgba' : 'bgra';
    const rgb = toRgb(image.data, image.width, image.height, order, image.byteWidth || image.width * 4);
    return { width: image.width, height: image.height, png: encodePng({ width: image.width, height: image.height, data: rgb }) };
  }
}
