import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import type { Grounder } from '../../../src/shared/ports/grounding';
import { agentCore, closeApp, eventually, windowsOf } from './liveAgent';

const NOTEPAD = /notepad\.exe/i;
/** What the grounder answered, with the window and capture size it was given (shown when the test fails). */
const located: unknown[] = [];
let core: Core;

beforeAll(async () => {
  // The node core's own grounder (lazy OCR, as the CLI and host mode get it), watched so that a
  // failure shows what it answered.
  ({ core } = await agentCore());
  const own = core.options.grounder;
  if (!own) throw new Error('createNodeCore gave the core no grounder: Desktop.click_text cannot work from the CLI');
  Object.assign(core.options, {
    grounder: {
      locate: async (target, ctx) => {
        const r = await own.locate(target, ctx);
        located.push({ r, window: ctx.window && [ctx.window.title, ctx.window.bounds], shot: [ctx.screenshot.width, ctx.screenshot.height] });
        return r;
      },
    } satisfies Grounder,
  });
});
afterAll(async () => {
  await closeApp(core, NOTEPAD);
  core?.close();
});

describe('src/main/services/grounding (live, Wine Notepad)', () => {
  it('OCR grounding clicks a button by its label in a real app', async () => {
    await closeApp(core, NOTEPAD);
    const open = await core.runSkill({ skill: 'TextEditor.new_document', app: 'wine-notepad' });
    expect(open.error?.message).toBeUndefined();
    const type = await core.runSkill({ skill: 'TextEditor.type_text', app: 'wine-notepad', args: { text: 'unsaved text' } });
    expect(type.error?.message).toBeUndefined();
    // Closing a modified document raises Notepad's "save the changes?" box with Yes / No / Cancel.
    const close = await core.runSkill({ skill: 'Desktop.hotkey', args: { modifier: 'Alt', key: 'F4' } });
    expect(close.error?.message).toBeUndefined();
    expect(await eventually(async () => (await windowsOf(core, NOTEPAD)).length >= 2), 'the save-changes box appears after Alt+F4').toBe(true);
    const click = await core.runSkill({ skill: 'Desktop.click_text', args: { label: 'No' } });
    expect(click.error?.message).toBeUndefined();
    expect(click.status).toBe('succeeded');
    // "No" discards the changes and Notepad exits: the effect of clicking the right button.
    const gone = await eventually(async () => (await windowsOf(core, NOTEPAD).catch(() => [{}])).length === 0, 15_000);
    const left = gone ? [] : (await windowsOf(core, NOTEPAD)).map((w) => w.title);
    expect(left, `Notepad exits after "No" (grounding: ${JSON.stringify(located.slice(-2))})`).toEqual([]);
  });
});
