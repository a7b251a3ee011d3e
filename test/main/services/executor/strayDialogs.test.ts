import { describe, expect, it } from 'vitest';
import type { Grounder } from '../../../../src/shared/ports/grounding';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const APP = `
kind: app
id: ed
name: ed
platforms: [linux]
launch: { command: ed }
windows: { process: '^ed$', title: ' - ed$' }
interruptions:
  - { id: reload, title: '^Reload\\?$', keys: [[Enter]], why: keeps the file on disk }
  - { id: recovery, title: '^Ed$', text: did not end normally, keys: [[Enter]], why: restores the text }
`;
/** Opens a file: Enter in the Open box, then the wait for the document's title. */
const OPEN = `
kind: skill
id: ed.open
app: ed
description: open
intents: [open]
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: enter }
    enter: { action: key, key: Enter, next: opened }
    opened: { action: wait_until, condition: { kind: window_title, pattern: '^a.txt - ed$' }, timeoutMs: 6000, next: done }
    done: { terminal: success }
`;

const dialog = (id: string, title: string) => ({ ...win(id, title, 'ed'), dialog: true });

/**
 * ed with its document window; the skill's Enter brings up `answer` (a dialog, or the opened
 * document). With `then`, Enter in that dialog (its answer) closes it and brings `then` up.
 */
function setup(answer: ReturnType<typeof win>, grounder?: Grounder, then?: ReturnType<typeof win>) {
  const fake = fakeDesktop({ windows: [win('w', 'untitled - ed', 'ed')] });
  fake.hooks.beforeInput = (call) => {
    if (call.op !== 'key' || call.key !== 'Enter') return;
    const shown = fake.windows.findIndex((w) => w.id === answer.id);
    if (shown < 0) fake.windows.push(answer);
    else if (then) fake.windows.splice(shown, 1, then);
  };
  const exec = testExecutor({ library: libraryOf(APP, OPEN), desktop: fake.desktop, ...(grounder && { grounder }) });
  return () => exec.run({ skill: 'ed.open', app: 'ed' });
}

/** A grounder that reads `text` in any window, and finds a label when the text holds it. */
const reading = (text: string): Grounder => ({
  locate: async (t) =>
    t.kind === 'text' && text.includes(t.text)
      ? { found: true, point: { x: 1, y: 1 }, confidence: 1, source: 'test' }
      : { found: false, reason: 'no', source: 'test' },
  readText: async () => text,
});

describe('src/main/services/executor/strayDialogs', () => {
  it('fails a wait at once on a dialog the skill does not expect, naming it and quoting its text', async () => {
    const run = setup(dialog('e', 'File not found'), reading('a.txt\nFile not found.\nCheck the file name and try again.'));
    const t0 = Date.now();
    const r = await run();
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('dialog.unexpected');
    expect(r.error?.message).toContain('"File not found", which reads: "a.txt / File not found. / Check the file name and try again."');
    expect(r.error?.message).toContain('while waiting for a window titled /^a.txt - ed$/');
    // Not the wait's 6 s: the dialog's grace period.
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.steps.at(-1)).toMatchObject({ nodeId: 'opened', outcome: 'failed' });
  });

  it('names the dialog without its text when nothing can read it', async () => {
    const r = await setup(dialog('e', 'Error'))();
    expect(r.error?.message).toMatch(/shows a dialog this skill does not expect, "Error", while waiting/);
  });

  it("answers the app's known interruption when it comes up during a wait, as its profile says, then waits again", async () => {
    const r = await setup(dialog('r', 'Reload?'), undefined, win('d', 'a.txt - ed', 'ed'))();
    expect(r.error?.message).toBeUndefined();
    expect(r.steps.map((s) => s.nodeId)).toEqual(['focus', 'enter', '(interruption: reload)', '(interruption: reload)', 'opened']);
  });

  it('tells an interruption known by its title and text from another dialog with the same title', async () => {
    const other = await setup(dialog('e', 'Ed'), reading('The document is not UTF-8 valid'))();
    expect(other.error?.code).toBe('dialog.unexpected');
    expect(other.error?.message).toContain('"Ed", which reads: "The document is not UTF-8 valid"');
    // The question wraps over two lines: read whole, it is the known one, answered.
    const known = await setup(
      dialog('e', 'Ed'),
      reading('It seems the previous session did not end\nnormally. Restore?'),
      win('d', 'a.txt - ed', 'ed'),
    )();
    expect(known.error?.message).toBeUndefined();
    expect(known.steps.filter((s) => s.nodeId === '(interruption: recovery)').length).toBe(2);
  }, 20_000);

  it('passes when the awaited window comes, whether or not it is a dialog', async () => {
    expect((await setup(dialog('d', 'a.txt - ed'))()).status).toBe('succeeded');
    expect((await setup(win('d', 'a.txt - ed', 'ed'))()).status).toBe('succeeded');
  });
});
