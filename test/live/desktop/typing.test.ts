import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
import { X11Connection } from '../../../src/main/services/desktop/x11/X11Connection';
import { launchApp, MOUSEPAD, openDesktop, waitFor, WINE_NOTEPAD, wineEnv, type LaunchedApp } from '../helpers/desktop';

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
/** Every printable ASCII character, tabs, newlines, Latin-1 letters and a Windows path. */
const TEXT = `${PRINTABLE_ASCII}\n\tindented\tand tabbed\nA_B>C:D! é ü ß ñ É Ü Ñ ç à ø å æ ÿ\nC:\\Users\\a_b\\My Files (1)\\\nend`;

async function keyboardMapping(): Promise<number[][]> {
  const x = await X11Connection.open();
  try {
    return await x.keyboardMapping();
  } finally {
    await x.close();
  }
}

/** Selects everything in the focused editor and reads it back through the clipboard. */
async function editorText(desktop: LiveDesktop): Promise<string> {
  await desktop.clipboard.writeText('<nothing copied>');
  await desktop.input.hotkey(['Control', 'a']);
  await desktop.input.hotkey(['Control', 'c']);
  try {
    return await waitFor(
      'the copied text',
      async () => {
        const t = await desktop.clipboard.readText();
        return t === '<nothing copied>' ? undefined : t;
      },
      10_000,
    );
  } catch (err) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync('/tmp/skilldesk-live-typing-failure.png', (await desktop.screen.capture()).png);
    throw err;
  }
}

for (const app of [
  { name: 'mousepad', ...MOUSEPAD },
  { name: 'Wine Notepad', ...WINE_NOTEPAD, env: wineEnv() },
]) {
  describe(`src/main/services/desktop (typing into ${app.name})`, () => {
    let desktop: LiveDesktop;
    let launched: LaunchedApp;

    beforeAll(async () => {
      desktop = await openDesktop();
      launched = await launchApp(desktop, app);
      await desktop.windows.focus(launched.window.id);
    });

    afterAll(async () => {
      await launched?.kill();
      await desktop?.close();
    });

    it('types every printable ASCII character, tabs, newlines, Latin-1 letters and a Windows path exactly', async () => {
      const mappingBefore = await keyboardMapping();
      await desktop.input.typeText(TEXT);
      expect(await editorText(desktop)).toBe(TEXT);
      // The spare keycodes borrowed for é, ß... are given back.
      expect(await keyboardMapping()).toEqual(mappingBefore);
    });

    it('replaces a selection and presses named keys', async () => {
      await desktop.input.hotkey(['Control', 'a']);
      await desktop.input.typeText('x(1)');
      await desktop.input.pressKey('Enter');
      await desktop.input.pressKey('?');
      await desktop.input.pressKey('Left');
      await desktop.input.pressKey('Backspace');
      await desktop.input.typeText('~');
      expect(await editorText(desktop)).toBe('x(1)~?');
    });
  });
}
