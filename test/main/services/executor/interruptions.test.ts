import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Grounder } from '../../../../src/shared/ports/grounding';
import { AppDocSchema } from '../../../../src/shared/skill';
import type { Clock } from '../../../../src/main/services/executor';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const APP = (interruption: string) => `
kind: app
id: ed
name: ed
platforms: [linux]
launch: { command: ed }
windows: { process: '^ed$', title: ' - ed$' }
interruptions:
  - ${interruption}
`;
const RECOVERY = "{ id: recovery, title: '^Ed$', keys: [[Tab], [Enter]], why: restores the text }";
const TYPE = `
kind: skill
id: ed.type
app: ed
description: type
intents: [type]
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: typing }
    typing: { action: type_text, text: hi, next: done }
    done: { terminal: success }
`;

/** ed with its document window and a window titled "Ed" in front, which Enter closes when `closes`. */
function setup(interruption: string, o: { closes?: boolean; grounder?: Grounder; clock?: Clock } = {}) {
  const fake = fakeDesktop({ windows: [win('q', 'Ed', 'ed'), win('w', 'doc - ed', 'ed')] });
  fake.hooks.beforeInput = (call) => {
    if (o.closes !== false && call.op === 'key' && call.key === 'Enter') void fake.desktop.windows.close('q');
  };
  const exec = testExecutor({
    library: libraryOf(APP(interruption), TYPE),
    desktop: fake.desktop,
    ...(o.grounder && { grounder: o.grounder }),
    ...(o.clock && { clock: o.clock }),
  });
  return { fake, run: () => exec.run({ skill: 'ed.type', app: 'ed' }) };
}

const reads = (text: string): Grounder => ({
  locate: async (t) =>
    t.kind === 'text' && t.text === text
      ? { found: true, point: { x: 1, y: 1 }, confidence: 1, source: 'test' }
      : { found: false, reason: 'no', source: 'test' },
});

describe('src/main/services/executor (interruptions)', () => {
  it('answers a known interruption before the first input, as journaled steps, then goes on', async () => {
    const { fake, run } = setup(RECOVERY);
    const r = await run();
    expect(r.error?.message).toBeUndefined();
    expect(r.steps.map((s) => `${s.nodeId} ${s.primitive}`)).toEqual([
      '(interruption: recovery) focus_window',
      '(interruption: recovery) key',
      '(interruption: recovery) key',
      'focus focus_window',
      'typing type_text',
    ]);
    expect(fake.inputCalls().map((c) => (c.op === 'key' ? c.key : c.op))).toEqual(['Tab', 'Enter', 'type']);
  });

  it('tells an interruption from a window with the same title by the text it shows', async () => {
    const other = setup(`${RECOVERY.slice(0, -1)}, text: did not end normally }`, { grounder: reads('Failed to open') });
    const r = await other.run();
    // Not the interruption: nothing is pressed in it, and the skill's own steps run.
    expect(r.steps.map((s) => s.nodeId)).toEqual(['focus', 'typing']);
    const real = setup(`${RECOVERY.slice(0, -1)}, text: did not end normally }`, { grounder: reads('did not end normally') });
    expect((await real.run()).steps.filter((s) => s.nodeId.startsWith('(interruption')).length).toBe(3);
  });

  it('answers a dialog the interruption brought up first, and only while the interruption is open', async () => {
    const NESTED = `${RECOVERY}
  - { id: recovered_import, title: '^Import$', while_open: recovery, keys: [[Escape]], why: imports the recovered file }`;
    // The recovery question, and the import dialog its Start brought up in front of it.
    const fake = fakeDesktop({ windows: [win('q', 'Ed', 'ed'), win('i', 'Import', 'ed'), win('w', 'doc - ed', 'ed')] });
    fake.hooks.beforeInput = (call) => {
      if (call.op === 'key' && call.key === 'Escape') void fake.desktop.windows.close('i');
      if (call.op === 'key' && call.key === 'Enter') void fake.desktop.windows.close('q');
    };
    const r = await testExecutor({ library: libraryOf(APP(NESTED), TYPE), desktop: fake.desktop }).run({ skill: 'ed.type', app: 'ed' });
    expect(r.error?.message).toBeUndefined();
    expect(r.steps.map((s) => s.nodeId).filter((n) => n.startsWith('('))).toEqual([
      '(interruption: recovered_import)',
      '(interruption: recovered_import)',
      '(interruption: recovery)',
      '(interruption: recovery)',
      '(interruption: recovery)',
    ]);
    expect(fake.inputCalls().map((c) => (c.op === 'key' ? c.key : c.op))).toEqual(['Escape', 'Tab', 'Enter', 'type']);

    // The same dialog with no recovery open is a step's own business: nothing answers it.
    const alone = fakeDesktop({ windows: [win('i', 'Import', 'ed'), win('w', 'doc - ed', 'ed')] });
    const r2 = await testExecutor({ library: libraryOf(APP(NESTED), TYPE), desktop: alone.desktop }).run({ skill: 'ed.type', app: 'ed' });
    expect(r2.steps.map((s) => s.nodeId)).toEqual(['focus', 'typing']);
    expect(alone.inputCalls().map((c) => c.op)).toEqual(['type']);
  });

  it('refuses a profile whose while_open names no other interruption', () => {
    const bad = AppDocSchema.safeParse(
      parse(APP("{ id: recovered_import, title: '^Import$', while_open: recovery, keys: [[Escape]], why: x }")),
    );
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/`recovery` is not another interruption of this profile/);
  });

  it('fails the run, naming the window, when an answer leaves the interruption open', async () => {
    // A clock that moves only when slept on: the eight rounds' waits for the window pass at once.
    let t = 0;
    const { run } = setup(RECOVERY, { closes: false, clock: { now: () => t, sleep: async (ms) => void (t += ms) } });
    const r = await run();
    expect(r.status).toBe('failed');
    expect(r.error?.message).toMatch(/"Ed" \(recovery\) of `ed` stayed open after its answer, 8 times/);
  });
});
