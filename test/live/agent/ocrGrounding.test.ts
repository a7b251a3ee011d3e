import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { PermissionPrompter } from '../../../src/shared/ports/prompter';
import { agentCore, closeApp, eventually, watchGrounder, windowsOf } from './liveAgent';

const NOTEPAD = /notepad\.exe/i;
/** Clicks the discarding skill needed, per run (1, or 2 when Wine dropped the first). */
const discardClicks: number[] = [];
/** What the grounder answered, with the window and capture size it was given (shown when the test fails). */
const located: unknown[] = [];
let core: Core;

beforeAll(async () => {
  // The node core's own grounder (lazy OCR, as the CLI and host mode get it), watched so that a
  // failure shows what it answered.
  ({ core } = await agentCore());
  watchGrounder(core, (_target, r, ctx) =>
    located.push({ r, window: ctx.window && [ctx.window.title, ctx.window.bounds], shot: [ctx.screenshot.width, ctx.screenshot.height] }),
  );
});
afterAll(async () => {
  if (discardClicks.some((n) => n > 1)) console.info(`clicks needed to discard: ${discardClicks.join(', ')}`);
  await closeApp(core, NOTEPAD);
  core?.close();
});

/**
 * Asks Notepad to close through the window manager (WM_DELETE_WINDOW), which raises its save-changes
 * box, so that these tests are about clicking only. (Alt+F4 sent as four events at once left Wine's
 * menu bar in menu mode in 8 of 40 tries, swallowing every click on the box; the driver now paces
 * shortcuts to Wine windows: `npm run bench -- wine-shortcuts` measures both.)
 */
async function askToSave(c: Core): Promise<void> {
  const [main] = await windowsOf(c, NOTEPAD);
  if (!main) throw new Error('Notepad is not open');
  await (await c.desktop()).windows.close(main.id);
  expect(await eventually(async () => (await windowsOf(c, NOTEPAD)).length >= 2), 'the save-changes box appears').toBe(true);
}

describe('src/main/services/grounding (live, Wine Notepad)', () => {
  it('OCR grounding clicks a button by its label in a real app', async () => {
    await closeApp(core, NOTEPAD);
    const open = await core.runSkill({ skill: 'TextEditor.new_document', app: 'wine-notepad' });
    expect(open.error?.message).toBeUndefined();
    const type = await core.runSkill({ skill: 'TextEditor.type_text', app: 'wine-notepad', args: { text: 'unsaved text' } });
    expect(type.error?.message).toBeUndefined();
    // Closing a modified document raises Notepad's "save the changes?" box with Yes / No / Cancel.
    await askToSave(core);
    const click = await core.runSkill({ skill: 'Desktop.click_text', args: { label: 'No' } });
    expect(click.error?.message).toBeUndefined();
    expect(click.status).toBe('succeeded');
    // "No" discards the changes and Notepad exits: the effect of clicking the right button.
    const gone = await eventually(async () => (await windowsOf(core, NOTEPAD).catch(() => [{}])).length === 0, 15_000);
    const left = gone ? [] : (await windowsOf(core, NOTEPAD)).map((w) => w.title);
    expect(left, `Notepad exits after "No" (grounding: ${JSON.stringify(located.slice(-2))})`).toEqual([]);
  });

  it('a click with an expected effect checks it: "No" closes Notepad, "Cancel" does not and the step fails', async () => {
    // A user skill (community trust: its screen reads ask first; this prompter answers allow once).
    const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-live-expect-'));
    mkdirSync(join(dataDir, 'skills'));
    const skill = (id: string, label: string) => `kind: skill
id: wine-notepad.${id}
app: wine-notepad
description: Close Notepad by clicking ${label} in its save-changes box.
intents: ['${id}']
permissions:
  - { capability: input.mouse, effect: allow, constraints: { apps: [wine-notepad] } }
  - { capability: screen.capture, effect: allow }
  - { capability: app.window, effect: allow, constraints: { apps: [wine-notepad] } }
graph:
  start: box
  nodes:
    box: { action: wait_until, condition: { kind: text_visible, text: '${label}' }, timeoutMs: 8000, next: settle }
    settle: { action: wait, ms: 300, next: [ { to: click, weight: 2 }, { to: again, weight: 1 } ] }
    click:
      action: click
      target: { kind: text, text: '${label}' }
      expect: { condition: { kind: window_gone, pattern: 'Notepad$' }, timeoutMs: 4000 }
      next: done
    # A click Wine dropped shows no effect: the alternative looks again and clicks once more.
    again: { action: wait, ms: 500, next: click_again }
    click_again:
      action: click
      target: { kind: text, text: '${label}' }
      expect: { condition: { kind: window_gone, pattern: 'Notepad$' }, timeoutMs: 4000 }
      next: done
    done: { terminal: success }
`;
    writeFileSync(join(dataDir, 'skills', 'discard.yaml'), skill('discard_and_close', 'No'));
    writeFileSync(join(dataDir, 'skills', 'keep.yaml'), skill('cancel_close', 'Cancel'));
    const allowOnce: PermissionPrompter = { ask: async () => ({ answer: 'allow_once', by: 'user' }) };
    const own = await createNodeCore({ dataDir, interactive: true, prompter: allowOnce });
    try {
      expect((await own.loadLibrary()).problems.filter((p) => p.severity === 'error')).toEqual([]);
      const dirty = async () => {
        await closeApp(own, NOTEPAD);
        expect((await own.runSkill({ skill: 'TextEditor.new_document', app: 'wine-notepad' })).status).toBe('succeeded');
        expect((await own.runSkill({ skill: 'TextEditor.type_text', app: 'wine-notepad', args: { text: 'unsaved' } })).status).toBe(
          'succeeded',
        );
        await askToSave(own);
      };
      await dirty();
      const cancel = await own.runSkill({ skill: 'wine-notepad.cancel_close' });
      expect(cancel.status).toBe('failed');
      // The first click had no effect (Cancel keeps Notepad); the alternative then finds no box to click.
      const clicks = cancel.steps.filter((st) => st.primitive === 'click');
      expect(clicks.map((st) => st.outcome)).toEqual(['failed', 'failed']);
      expect(clicks[0]!.error).toMatch(
        /^The click on `Cancel` at \(\d+, \d+\) had no effect: No window titled \/Notepad\$\/ left did not hold within 4000 ms$/,
      );
      expect((await windowsOf(own, NOTEPAD)).length).toBeGreaterThan(0); // Cancel kept Notepad open
      await dirty();
      const discard = await own.runSkill({ skill: 'wine-notepad.discard_and_close' });
      expect(discard.error?.message).toBeUndefined();
      expect(discard.status).toBe('succeeded');
      discardClicks.push(discard.steps.filter((st) => st.primitive === 'click').length);
      expect(await eventually(async () => (await windowsOf(own, NOTEPAD).catch(() => [{}])).length === 0, 5000)).toBe(true);
    } finally {
      await closeApp(own, NOTEPAD);
      own.close();
    }
  });
});
