import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { GroundingResult } from '../../../src/shared/ports/grounding';
import type { PermissionPrompter } from '../../../src/shared/ports/prompter';
import type { Target } from '../../../src/shared/skill';
import { closeApp, eventually, requireDisplay, watchGrounder, windowsOf } from './liveAgent';

const MOUSEPAD = /^mousepad\./i;
const CALC = /gnome-calculator/i;

/** User skills that click by accessible name and role (community trust: this prompter allows once). */
const SKILLS = {
  'discard.yaml': `kind: skill
id: mousepad.discard_and_close
app: mousepad
description: Close Mousepad without saving, by its save-changes dialog's Don't Save button.
intents: ['discard the changes and close']
permissions:
  - { capability: input.mouse, effect: allow, constraints: { apps: [mousepad] } }
  - { capability: screen.capture, effect: allow }
  - { capability: app.window, effect: allow, constraints: { apps: [mousepad] } }
graph:
  start: box
  nodes:
    box: { action: wait_for_window, title: '^Save Changes$', timeoutMs: 8000, next: click }
    click:
      action: click
      target: { kind: accessibility, name: "Don't Save", role: push button }
      expect: { condition: { kind: window_gone, pattern: 'Mousepad$' }, timeoutMs: 5000 }
      next: done
    done: { terminal: success }
`,
  'buttons.yaml': `kind: skill
id: gnome-calculator.seven_times_six
app: gnome-calculator
description: Compute 7 × 6 with the calculator's own buttons.
intents: ['press 7 times 6 on the keypad']
permissions:
  - { capability: input.mouse, effect: allow, constraints: { apps: [gnome-calculator] } }
  - { capability: input.keyboard, effect: allow, constraints: { apps: [gnome-calculator] } }
  - { capability: screen.capture, effect: allow }
  - { capability: app.window, effect: allow, constraints: { apps: [gnome-calculator] } }
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: clear }
    clear: { action: key, key: Escape, next: seven }
    seven: { action: click, target: { kind: accessibility, name: '7', role: push button }, next: times }
    times: { action: click, target: { kind: accessibility, name: '×', role: push button }, next: six }
    six: { action: click, target: { kind: accessibility, name: '6', role: push button }, next: equals }
    equals: { action: click, target: { kind: accessibility, name: '=', role: push button }, next: done }
    done: { terminal: success }
`,
};

/** What the core's grounder answered, per target. */
const located: { target: Target; r: GroundingResult }[] = [];
let core: Core;

beforeAll(async () => {
  requireDisplay();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-live-atspi-'));
  mkdirSync(join(dataDir, 'skills'));
  for (const [file, text] of Object.entries(SKILLS)) writeFileSync(join(dataDir, 'skills', file), text);
  const allowOnce: PermissionPrompter = { ask: async () => ({ answer: 'allow_once', by: 'user' }) };
  core = await createNodeCore({ dataDir, interactive: true, prompter: allowOnce });
  expect((await core.loadLibrary()).problems.filter((p) => p.severity === 'error')).toEqual([]);
  // The node core's own grounder (as the CLI and host mode get it), watched to see which method answered.
  watchGrounder(core, (target, r) => located.push({ target, r }));
});
afterAll(async () => {
  await closeApp(core, MOUSEPAD);
  await closeApp(core, CALC);
  core?.close();
});

/** The grounder's answers to accessibility targets named `name`. */
const answersFor = (name: string) => located.filter((l) => l.target.kind === 'accessibility' && l.target.name === name).map((l) => l.r);

describe('src/main/services/grounding/AtspiGrounder (live, through the node core)', () => {
  it("clicks a GTK 3 dialog's button by accessible name and role: Mousepad's Don't Save discards and exits", async () => {
    await closeApp(core, MOUSEPAD);
    expect((await core.runSkill({ skill: 'TextEditor.new_document', app: 'mousepad' })).error?.message).toBeUndefined();
    const typed = await core.runSkill({ skill: 'TextEditor.type_text', app: 'mousepad', args: { text: 'unsaved text' } });
    expect(typed.error?.message).toBeUndefined();
    // Closing a modified document raises the save-changes dialog (Cancel / Don't Save / Save).
    const [main] = await windowsOf(core, MOUSEPAD);
    await (await core.desktop()).windows.close(main!.id);
    const run = await core.runSkill({ skill: 'mousepad.discard_and_close' });
    expect(run.error?.message).toBeUndefined();
    expect(run.status).toBe('succeeded');
    expect(answersFor("Don't Save")).toEqual([expect.objectContaining({ found: true, source: 'accessibility' })]);
    expect(await eventually(async () => (await windowsOf(core, MOUSEPAD)).length === 0, 5000), 'Mousepad exits').toBe(true);
  });

  it("clicks a GTK 4 app's buttons by accessible name (extents relative to its window): GNOME Calculator computes 7 × 6", async () => {
    await closeApp(core, CALC);
    expect((await core.runSkill({ skill: 'Desktop.open_app', app: 'gnome-calculator' })).error?.message).toBeUndefined();
    const run = await core.runSkill({ skill: 'gnome-calculator.seven_times_six' });
    expect(run.error?.message).toBeUndefined();
    for (const name of ['7', '×', '6', '='])
      expect(answersFor(name), name).toEqual([expect.objectContaining({ found: true, source: 'accessibility' })]);
    // The display shows 42 once the buttons were the right ones: copy it and read the clipboard.
    const desktop = await core.desktop();
    let shown = '';
    const computed = await eventually(async () => {
      const copy = await core.runSkill({ skill: 'Calculator.copy_result', app: 'gnome-calculator' });
      if (copy.status !== 'succeeded') return false;
      shown = await desktop.clipboard.readText();
      return shown === '42';
    }, 10_000);
    expect(computed, `the display shows 42, not ${JSON.stringify(shown)}`).toBe(true);
  });
});
