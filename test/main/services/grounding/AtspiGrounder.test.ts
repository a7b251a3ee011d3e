import { describe, expect, it } from 'vitest';
import { AtspiGrounder, screenPoint, type AtspiMatch } from '../../../../src/main/services/grounding';
import type { WindowInfo } from '../../../../src/shared/ports/desktop';

const shot = { width: 1, height: 1, png: new Uint8Array() };

describe('src/main/services/grounding/AtspiGrounder', () => {
  it('reports a miss with the reason, so the chain falls through, when AT-SPI cannot be reached', async () => {
    const g = new AtspiGrounder({ python: '/nonexistent/python3', timeoutMs: 2000 });
    const r = await g.locate({ kind: 'accessibility', name: 'Save', role: 'push button' }, { screenshot: shot });
    expect(r).toMatchObject({ found: false, source: 'accessibility' });
    if (!r.found) expect(r.reason).toMatch(/^AT-SPI unavailable: .*ENOENT/);
  });

  it('misses at once, without asking AT-SPI, for a Wine window', async () => {
    const g = new AtspiGrounder({ python: '/nonexistent/python3' });
    const notepad: WindowInfo = {
      id: '0x1',
      title: 'Untitled - Notepad',
      processName: 'notepad.exe',
      className: 'notepad.exe.Notepad.exe',
      bounds: { x: 0, y: 0, width: 10, height: 10 },
    };
    const r = await g.locate({ kind: 'text', text: 'No' }, { screenshot: shot, window: notepad });
    expect(r).toEqual({ found: false, source: 'accessibility', reason: 'notepad.exe has no AT-SPI tree (Wine)' });
  });
});

describe('src/main/services/grounding/AtspiGrounder screenPoint', () => {
  const calculator: WindowInfo = { id: '0x2', title: 'Calculator', bounds: { x: 0, y: 303, width: 365, height: 497 } };
  const button = { x: 16, y: 289, width: 55, height: 40, role: 'push button', name: '7', states: ['showing'] };

  it('uses screen extents as they are (GTK 3, Qt)', () => {
    const m: AtspiMatch = { ...button, windowRelative: false, frame: { name: 'Calculator', x: 0, y: 0, width: 355, height: 487 } };
    expect(screenPoint(m, calculator)).toEqual({ x: 43.5, y: 309 });
  });

  it('places window-relative extents (GTK 4) in the window, inside its client-side decoration margins', () => {
    // GNOME Calculator 43 on Xvfb: a 365x497 X window around a 355x487 top-level widget.
    const m: AtspiMatch = { ...button, windowRelative: true, frame: { name: 'Calculator', x: 0, y: 0, width: 355, height: 487 } };
    expect(screenPoint(m, calculator)).toEqual({ x: 5 + 43.5, y: 303 + 5 + 309 });
  });

  it('cannot place window-relative extents of another window (a dialog), nor without the window', () => {
    const m: AtspiMatch = { ...button, windowRelative: true, frame: { name: 'Preferences', x: 0, y: 0, width: 300, height: 200 } };
    expect(screenPoint(m, calculator)).toBeUndefined();
    expect(screenPoint({ ...m, frame: { ...m.frame!, name: 'Calculator' } }, undefined)).toBeUndefined();
  });

  it("places them in the window of the app's only showing frame whatever that frame is named (GTK 4 names Clocks' ClocksWindow)", () => {
    const clocks: WindowInfo = { id: '0x3', title: 'Clocks', pid: 42, bounds: { x: 0, y: 303, width: 365, height: 497 } };
    const m: AtspiMatch = { ...button, windowRelative: true, frame: { name: 'ClocksWindow', x: 0, y: 0, width: 355, height: 487 } };
    expect(screenPoint(m, clocks)).toBeUndefined();
    expect(screenPoint({ ...m, soleFrame: true }, clocks)).toEqual({ x: 5 + 43.5, y: 303 + 5 + 309 });
    // Without the window's process the walk covered every app: one app's only frame says nothing of this window.
    expect(screenPoint({ ...m, soleFrame: true }, { ...clocks, pid: undefined })).toBeUndefined();
  });
});
