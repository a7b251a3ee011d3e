import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
import { loadInputHook } from '../../../src/main/services/learning';
import type { WindowInfo } from '../../../src/shared/ports/desktop';
import { launchApp, MOUSEPAD, openDesktop, waitFor, WINE_NOTEPAD, wineEnv, type LaunchedApp } from '../helpers/desktop';

describe('src/main/services/desktop/X11WindowManager (live)', () => {
  let desktop: LiveDesktop;
  let mousepad: LaunchedApp;
  let notepad: LaunchedApp;

  beforeAll(async () => {
    desktop = await openDesktop();
    mousepad = await launchApp(desktop, MOUSEPAD);
    notepad = await launchApp(desktop, { ...WINE_NOTEPAD, env: wineEnv() });
  });

  afterAll(async () => {
    await mousepad?.kill();
    await notepad?.kill().catch(() => undefined);
    await desktop?.close();
  });

  it('lists both apps with title, process name, class, pid and on-screen bounds', async () => {
    const wins = await desktop.windows.list();
    const mp = wins.find((w) => w.id === mousepad.window.id);
    const np = wins.find((w) => w.id === notepad.window.id);
    expect(mp).toMatchObject({ processName: 'mousepad', className: 'mousepad.Mousepad' });
    expect(mp?.title).toMatch(/Mousepad$/);
    expect(np).toMatchObject({ processName: 'notepad.exe', className: 'notepad.exe.notepad.exe', title: 'Untitled - Notepad' });
    for (const w of [mp, np]) {
      expect(w?.pid).toBeGreaterThan(1);
      expect(w?.id).toMatch(/^0x[0-9a-f]{8}$/);
      expect(w?.bounds.width).toBeGreaterThan(100);
      expect(w?.bounds.height).toBeGreaterThan(100);
      expect(w?.bounds.x).toBeGreaterThanOrEqual(0);
      expect(w?.bounds.y).toBeGreaterThanOrEqual(0);
    }
  });

  it('focuses each window in turn and reports it as active', async () => {
    await desktop.windows.focus(mousepad.window.id);
    expect((await desktop.windows.active())?.id).toBe(mousepad.window.id);
    await desktop.windows.focus(notepad.window.id);
    expect((await desktop.windows.active())?.id).toBe(notepad.window.id);
    // Keystrokes now reach Notepad, not mousepad.
    await desktop.input.typeText('focus');
    await desktop.input.hotkey(['Control', 'a']);
    await desktop.input.hotkey(['Control', 'c']);
    await waitFor(
      'Notepad text on the clipboard',
      async () => ((await desktop.clipboard.readText()) === 'focus' ? true : undefined),
      10_000,
    );
  });

  it('refuses to focus a window that does not exist', async () => {
    await expect(desktop.windows.focus('0x7fffffff')).rejects.toMatchObject({ code: 'window.not_found' });
    await expect(desktop.windows.focus('dry:notepad:main')).rejects.toMatchObject({ code: 'window.bad_id' });
  });

  it('closes a window politely', async () => {
    // A Notepad with no unsaved text closes without asking.
    const fresh = await launchApp(desktop, { ...WINE_NOTEPAD, env: wineEnv() });
    await desktop.windows.close(fresh.window.id);
    await waitFor(
      'the closed Notepad window to go away',
      async () => ((await desktop.windows.list()).some((w) => w.id === fresh.window.id) ? undefined : true),
      10_000,
    );
  });

  it('tells of the window in front and of its retitles, stamped with the clock the input hook stamps keys with', async () => {
    await desktop.windows.focus(notepad.window.id);
    const changes: { window: WindowInfo | undefined; time: number }[] = [];
    const keys: number[] = [];
    const hook = loadInputHook();
    hook.on('keydown', (e) => void (e.time !== undefined && keys.push(e.time)));
    const stop = await desktop.windows.watchFront!((window, time) => changes.push({ window, time }));
    hook.start();
    try {
      await desktop.windows.focus(mousepad.window.id);
      await waitFor(
        'mousepad told as in front',
        async () => (changes.some((c) => c.window?.id === mousepad.window.id) ? true : undefined),
        10_000,
      );
      // A typed letter marks the document changed: mousepad retitles its window after the key.
      await desktop.input.typeText('x');
      await waitFor('the retitle told', async () => (changes.some((c) => c.window?.title.startsWith('*')) ? true : undefined), 10_000);
    } finally {
      hook.stop();
      hook.removeAllListeners();
      await stop();
    }
    const front = changes.find((c) => c.window?.id === mousepad.window.id)!;
    const retitle = changes.find((c) => c.window?.title.startsWith('*'))!;
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    // Server milliseconds: the focus came before the key, the retitle after it.
    expect((front.time - key) | 0).toBeLessThan(0);
    expect((retitle.time - key) | 0).toBeGreaterThan(0);
    expect(retitle.window?.id).toBe(mousepad.window.id);
  });
});
