import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
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
});
