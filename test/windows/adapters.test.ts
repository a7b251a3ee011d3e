import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteDesktop } from '../../src/main/services/desktopHost';
import { killPrograms, windowsDesktop, windowWhere } from './windowsCore';

let desktop: RemoteDesktop;
/** The two notepads the launch test opened, and the one the typing test typed into. */
let launched: string[] = [];
let typedInto: string | undefined;

beforeAll(async () => {
  await killPrograms('notepad.exe');
  desktop = await windowsDesktop();
});
afterAll(async () => {
  await desktop?.close();
  await killPrograms('notepad.exe');
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
    launched = [a.id, b.id];
    // A program takes the foreground itself once it has started: wait for the last one to have
    // done so, or it could take it back from a window focused before.
    for (let i = 0; i < 100 && (await desktop.windows.active())?.id !== b.id; i++) await new Promise((r) => setTimeout(r, 100));
    for (const w of [a, b, a]) {
      await desktop.windows.focus(w.id);
      expect((await desktop.windows.active())?.id).toBe(w.id);
    }
  });

  it('types every printable ASCII character, Latin-1 letters, tabs, newlines and a Windows path exactly', async () => {
    expect(launched, 'the launch test opened two notepads').toHaveLength(2);
    typedInto = launched[0]!;
    await desktop.windows.focus(typedInto);
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
    // One document was typed into above: closing it asks to save, so close the other, empty one.
    // (Which one that is must be remembered: the order of a window listing follows the z-order.)
    const empty = launched.find((id) => id !== typedInto)!;
    expect(empty).toBeDefined();
    await desktop.windows.close(empty);
    const open = async () => (await desktop.windows.list()).filter((w) => w.id === empty).map((w) => w.title);
    for (let i = 0; i < 100 && (await open()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await open()).toEqual([]);
  });
});
