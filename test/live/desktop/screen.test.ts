import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
import { decodePng } from '../../../src/main/services/image';
import { launchApp, MOUSEPAD, openDesktop, type LaunchedApp } from '../helpers/desktop';

/** Width, height, colour type and the distinct colours (sampled every 7 pixels) of a captured PNG. */
function inspectPng(png: Uint8Array) {
  const img = decodePng(png);
  const colours = new Set<number>();
  for (let y = 0; y < img.height; y += 7) {
    for (let x = 0; x < img.width; x += 7) {
      const i = (y * img.width + x) * 3;
      colours.add((img.data[i]! << 16) | (img.data[i + 1]! << 8) | img.data[i + 2]!);
    }
  }
  // The colour type is the tenth byte of IHDR, which always comes first.
  return { width: img.width, height: img.height, colourType: png[25], colours };
}

describe('src/main/services/desktop/NutScreenCapture (live)', () => {
  let desktop: LiveDesktop;
  let mousepad: LaunchedApp;

  beforeAll(async () => {
    desktop = await openDesktop();
    mousepad = await launchApp(desktop, MOUSEPAD);
    await desktop.windows.focus(mousepad.window.id);
  });

  afterAll(async () => {
    await mousepad?.kill();
    await desktop?.close();
  });

  it('captures the whole screen as an RGB PNG of the display size', async () => {
    const dims = /dimensions:\s+(\d+)x(\d+) pixels/.exec(execFileSync('xdpyinfo', { encoding: 'utf8' }));
    const shot = await desktop.screen.capture();
    const png = inspectPng(shot.png);
    expect([shot.width, shot.height]).toEqual([Number(dims?.[1]), Number(dims?.[2])]);
    expect([png.width, png.height, png.colourType]).toEqual([shot.width, shot.height, 2]);
    // A window on a black root: more than one colour.
    expect(png.colours.size).toBeGreaterThan(3);
  });

  it('captures a window region at the window size, showing the window', async () => {
    const w = (await desktop.windows.list()).find((x) => x.id === mousepad.window.id);
    expect(w).toBeDefined();
    const shot = await desktop.screen.capture(w!.bounds);
    const png = inspectPng(shot.png);
    expect([shot.width, shot.height]).toEqual([w!.bounds.width, w!.bounds.height]);
    expect([png.width, png.height]).toEqual([w!.bounds.width, w!.bounds.height]);
    // Mousepad's text area is white.
    expect(png.colours.has(0xffffff)).toBe(true);
  });

  it('rejects a region entirely off screen', async () => {
    await expect(desktop.screen.capture({ x: 5000, y: 5000, width: 10, height: 10 })).rejects.toMatchObject({
      code: 'screen.empty_region',
    });
  });
});
