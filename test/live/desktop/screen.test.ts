import { execFileSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
import { launchApp, MOUSEPAD, openDesktop, type LaunchedApp } from '../helpers/desktop';

/** Width, height, colour type and the distinct colours of a PNG written by PngEncoder (filter 0). */
function inspectPng(png: Uint8Array) {
  const buf = Buffer.from(png);
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length;) {
    const len = buf.readUInt32BE(at);
    if (buf.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const colours = new Set<number>();
  for (let y = 0; y < height; y += 7) {
    for (let x = 0; x < width; x += 7) {
      const i = y * (width * 3 + 1) + 1 + x * 3;
      colours.add((raw[i]! << 16) | (raw[i + 1]! << 8) | raw[i + 2]!);
    }
  }
  return { width, height, colourType: buf[25], colours };
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
