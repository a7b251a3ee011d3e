import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDesktop } from '../../../src/main/services/desktop';
import { openDesktop, requireCommand } from '../helpers/desktop';

describe('src/main/services/desktop/XclipClipboard (live)', () => {
  let desktop: LiveDesktop;

  beforeAll(async () => {
    requireCommand('xclip');
    desktop = await openDesktop();
  });

  afterAll(async () => {
    await desktop?.close();
  });

  it('round-trips text exactly, Unicode, tabs, CRLF and trailing newlines included', async () => {
    for (const text of ['C:\\Users\\a_b\\My Files (1)\\', 'é ü ß ñ € ✓ 😀 漢字', 'tab\there\r\nCRLF\n\n', ' ']) {
      await desktop.clipboard.writeText(text);
      expect(await desktop.clipboard.readText()).toBe(text);
    }
  });

  it('serves the text to other programs on the display', async () => {
    await desktop.clipboard.writeText('shared ✓');
    expect(execFileSync('xclip', ['-selection', 'clipboard', '-o', '-t', 'UTF8_STRING'], { encoding: 'utf8' })).toBe('shared ✓');
  });

  it('reads what another program put on the clipboard', async () => {
    execFileSync('sh', ['-c', 'printf "from xclip é" | xclip -selection clipboard -i'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await desktop.clipboard.readText()).toBe('from xclip é');
  });
});
