import { describe, expect, it } from 'vitest';
import type { Grounder } from '../../../../src/shared/ports/grounding';
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
function setup(interruption: string, o: { closes?: boolean; grounder?: Grounder } = {}) {
  const fake = fakeDesktop({ windows: [win('q', 'Ed', 'ed'), win('w', 'doc - ed', 'ed')] });
  fake.hooks.beforeInput = (call) => {
    if (o.closes !== false && call.op === 'key' && call.key === 'Enter') void fake.desktop.windows.close('q');
  };
  const exec = testExecutor({
    library: libraryOf(APP(interruption), TYPE),
    desktop: fake.desktop,
    ...(o.grounder && { grounder: o.grounder }),
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

  it('fails the run, naming the window, when an answer leaves the interruption open', async () => {
    const { run } = setup(RECOVERY, { closes: false });
    const r = await run();
    expect(r.status).toBe('failed');
    expect(r.error?.message).toMatch(/"Ed" \(recovery\) of `ed` stayed open after its answer, 3 times/);
  });
});
