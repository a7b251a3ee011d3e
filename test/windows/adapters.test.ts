import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteDesktop } from '../../src/main/services/desktopHost';
import { killApps } from '../live/skills/liveCore';
import { windowsDesktop, windowWhere } from './windowsCore';

let desktop: RemoteDesktop;

beforeAll(async () => {
  killApps('notepad.exe');
  desktop = await windowsDesktop();
});
afterAll(async () => {
  await desktop?.close();
  killApps('notepad.exe');
});

describe('the Windows adapters through the desktop host (Windows lane)', () => {
  it('says it is a win32 desktop, with its screen size and DPI scale', () => {
    expect(desktop.platform).toBe('win32');
    expect(desktop.hello.osRelease).toMatch(/^10\./);
    expect(desktop.hello.screen).toEqual({ width: 1280, height: 800, scale: 1 });
  });

  it('launches a program, finds its window by its process, focuses and activates it', async () => {
    const first = await desktop.processes.launch({ command: 'notepad.exe', args: [] });
    const second = await desktop.processes.launch({ command: 'notepad.exe', args: [] });
    const [a, b] = [
      await windowWhere(desktop, (x) => x.pid === first.pid, `a window of process ${first.pid}`),
      await windowWhere(desktop, (x) => x.pid === second.pid, `a window of process ${second.pid}`),
    ];
    expect([a.processName, b.processName]).toEqual(['notepad.exe', 'notepad.exe']);
    expect(a.id).not.toBe(b.id);
    // A program takes the foreground itself once it has started: wait for the last one to have
    // done so, or it could take it back from a window focused before.
    for (let i = 0; i < 100 && (await desktop.windows.active())?.id !== b.id; i++) await new Promise((r) => setTimeout(r, 100));
    for (const w of [a, b, a]) {
      await desktop.windows.focus(w.id);
      expect((await desktop.windows.active())?.id).toBe(w.id);
    }
  });

  it('types every printable ASCII character, Latin-1 letters, tabs, newlines and a Windows path exactly', async () => {
    const notepad = (await desktop.windows.list()).find((w) => w.processName === 'notepad.exe')!;
    await desktop.windows.focus(notepad.id);
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    const latin1 = Array.from({ length: 96 }, (_, i) => String.fromCharCode(0xa0 + i)).join('');
    const text = `${ascii}\n\t${latin1}\nC:\\Users\\Public\\Documents\\report (final).txt`;
    await desktop.input.hotkey(['Control', 'a']);
    await desktop.input.pressKey('Delete');
    await desktop.input.typeText(text);
    await desktop.input.hotkey(['Control', 'a']);
    await desktop.input.hotkey(['Control', 'c']);
    expect((await desktop.clipboard.readText()).replaceAll('\r\n', '\n')).toBe(text);
  });

  it('round-trips Unicode text through the Windows clipboard, and reads an emptied one as empty', async () => {
    for (const text of ['Grüße, ÆØÅ — “quotes” ✓ 😀', 'line 1\r\nline 2\ttab', '']) {
      await desktop.clipboard.writeText(text);
      expect(await desktop.clipboard.readText()).toBe(text);
    }
  });

  it('captures the screen, and a region of it, as PNG', async () => {
    const full = await desktop.screen.capture();
    expect([full.width, full.height]).toEqual([1280, 800]);
    expect(Buffer.from(full.png.slice(1, 4)).toString('latin1')).toBe('PNG');
    const part = await desktop.screen.capture({ x: 10, y: 20, width: 300, height: 200 });
    expect([part.width, part.height]).toEqual([300, 200]);
  });

  it('closes a window politely', async () => {
    const notepads = (await desktop.windows.list()).filter((w) => w.processName === 'notepad.exe');
    const target = notepads[0]!;
    // The document was typed into above: closing it asks to save, so close the other, empty one.
    const empty = notepads.find((w) => w.id !== target.id) ?? target;
    await desktop.windows.close(empty.id);
    for (let i = 0; i < 100 && (await desktop.windows.list()).some((w) => w.id === empty.id); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await desktop.windows.list()).some((w) => w.id === empty.id)).toBe(false);
  });
});
