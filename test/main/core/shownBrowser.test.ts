import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { BrowserCookie, BrowserSession } from '../../../src/shared/ports/browser';

const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-shown-browser-'));
let core: Core | undefined;
afterAll(async () => {
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('src/main/core/Core (the browser a person demonstrates in)', () => {
  it('closes a browser a web skill opened hidden and opens it again shown, once, with its cookies', async () => {
    const cart: BrowserCookie = {
      name: 'cart',
      value: 'mug*2',
      domain: '127.0.0.1',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: false,
      sameSite: 'Lax',
    };
    const opened: { n: number; visible: boolean; closed: boolean; given?: BrowserCookie[] }[] = [];
    const open = async (o?: { cookies?: BrowserCookie[] }): Promise<BrowserSession> => {
      // Web skills run headless; once a demonstration asks, the settings say "shown".
      const s = { n: opened.length + 1, visible: opened.length > 0, closed: false, ...(o?.cookies && { given: o.cookies }) };
      opened.push(s);
      return {
        visible: s.visible,
        cookies: async () => (s.n === 1 ? [cart] : (s.given ?? [])),
        page: () => Promise.reject(new Error('no page in this test')),
        setRequestGuard: () => undefined,
        close: async () => void (s.closed = true),
      };
    };
    core = await createNodeCore({ dataDir, interactive: false, overrides: { createBrowser: open } });
    const hidden = await core.browser();
    expect(hidden?.visible).toBe(false);
    const shown = await core.shownBrowser();
    expect(shown?.visible).toBe(true);
    expect(opened.map((s) => [s.n, s.closed])).toEqual([
      [1, true],
      [2, false],
    ]);
    // The site still knows the person: the hidden browser's cookies came along.
    expect(opened[1]!.given).toEqual([cart]);
    // Shown already: kept, and it is the browser web skills now use too.
    expect(await core.shownBrowser()).toBe(shown);
    expect(await core.browser()).toBe(shown);
    expect(opened).toHaveLength(2);
  });
});
