import { describe, expect, it } from 'vitest';
import { NodeWindowManager, type NwmAddon } from '../../../../src/main/services/desktop/NodeWindowManager';

interface FakeWindow {
  title: string;
  pid: number;
  path: string;
  visible: boolean;
}

function fakeAddon(windows: Record<number, FakeWindow>, foreground: { handle: number }): NwmAddon {
  const get = (h: number) => windows[h] as FakeWindow;
  return {
    getWindows: () => Object.keys(windows).map(Number),
    getActiveWindow: () => foreground.handle,
    getWindowTitle: (h) => get(h).title,
    getWindowBounds: () => ({ x: 1, y: 2, width: 3, height: 4 }),
    initWindow: (h) => ({ processId: get(h).pid, path: get(h).path }),
    isWindow: (h) => h in windows,
    isWindowVisible: (h) => get(h).visible,
    getMonitors: () => [7],
    getMonitorInfo: () => ({ bounds: { x: 0, y: 0, width: 1920, height: 1080 }, isPrimary: true }),
    getMonitorScaleFactor: () => 1.25,
  };
}

const windows = {
  100: { title: 'Untitled - Notepad', pid: 5, path: 'C:\\Windows\\System32\\notepad.exe', visible: true },
  200: { title: '', pid: 6, path: 'C:\\x\\tool.exe', visible: true },
  300: { title: 'Hidden', pid: 7, path: 'C:\\x\\hidden.exe', visible: false },
};

describe('src/main/services/desktop/NodeWindowManager', () => {
  it('lists visible titled windows with their process, and reports no active window for a foreground of 0', async () => {
    const foreground = { handle: 0 };
    const wm = new NodeWindowManager(fakeAddon(windows, foreground), { raise: async () => undefined, close: () => undefined });
    expect(await wm.list()).toEqual([
      { id: '100', title: 'Untitled - Notepad', pid: 5, processName: 'notepad.exe', bounds: { x: 1, y: 2, width: 3, height: 4 } },
    ]);
    expect(await wm.active()).toBeUndefined();
    foreground.handle = 100;
    expect((await wm.active())?.processName).toBe('notepad.exe');
    expect(wm.primaryScreen()).toEqual({ width: 1920, height: 1080, scale: 1.25 });
  });

  it('focuses by raising and confirms through the foreground window, retrying once', async () => {
    const foreground = { handle: 0 };
    let raises = 0;
    const wm = new NodeWindowManager(fakeAddon(windows, foreground), {
      raise: async (h) => {
        raises++;
        // The first request is ignored, as Windows may do for a process not in front.
        if (raises === 2) foreground.handle = h;
      },
      close: () => undefined,
    });
    await wm.focus('100');
    expect(raises).toBe(2);
    await expect(wm.focus('999')).rejects.toMatchObject({ code: 'window.not_found' });
    await expect(wm.focus('abc')).rejects.toMatchObject({ code: 'window.not_found' });
  });

  it('fails focus with an actionable error when the window never comes to the front', async () => {
    const wm = new NodeWindowManager(fakeAddon(windows, { handle: 0 }), { raise: async () => undefined, close: () => undefined });
    await expect(wm.focus('100')).rejects.toMatchObject({ code: 'window.focus_failed' });
  });

  it('returns from focus once the window takes keys in one control for a while, and gives up waiting without failing', async () => {
    const asked: { at: number; focus: number | undefined }[] = [];
    // A dialog still setting itself up: its thread does not answer, then the focus is on its
    // folder list (11) for a few readings in a row, then on its file name field (12) for good.
    const answers = [undefined, 11, 11, 11];
    const wm = new NodeWindowManager(fakeAddon(windows, { handle: 100 }), {
      raise: async () => undefined,
      close: () => undefined,
      keyFocus: async (h, timeoutMs) => {
        expect(h).toBe(100);
        expect(timeoutMs).toBeGreaterThan(0);
        const focus = answers.length ? answers.shift() : 12;
        asked.push({ at: Date.now(), focus });
        return focus;
      },
    });
    await wm.focus('100');
    const firstSteady = asked.find((a) => a.focus === 12)!;
    // Not on the folder list's equal readings: only once the file name field kept the focus.
    expect(asked.at(-1)!.focus).toBe(12);
    expect(asked.at(-1)!.at - firstSteady.at).toBeGreaterThanOrEqual(200);
    let n = 0;
    const never = new NodeWindowManager(fakeAddon(windows, { handle: 100 }), {
      raise: async () => undefined,
      close: () => undefined,
      keyFocus: async () => (n++ % 2 ? 11 : undefined),
    });
    const t0 = Date.now();
    await never.focus('100');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_900);
  });
});
