import { describe, expect, it } from 'vitest';
import { primitiveNeeds } from '../../../../src/main/services/permissions/primitiveNeeds';
import type { Grounder } from '../../../../src/shared/ports/grounding';
import { PrimitiveSchema } from '../../../../src/shared/skill';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const APP = `
kind: app
id: box
name: box
platforms: [linux]
launch: { command: box }
windows: { process: '^box$' }
implements: []
`;
/** Close the "Save changes?" box by clicking "No"; if the click has no effect, press Escape instead. */
const DISMISS = `
kind: skill
id: box.dismiss
app: box
description: dismiss the box
intents: [dismiss]
graph:
  start: pick
  nodes:
    pick: { action: wait, ms: 0, next: [ { to: click, weight: 2 }, { to: escape, weight: 1 } ] }
    click:
      action: click
      target: { kind: text, text: 'No' }
      expect: { condition: { kind: window_gone, pattern: '^Save changes' }, timeoutMs: 30 }
      next: done
    escape: { action: key, key: Escape, next: done }
    done: { terminal: success }
`;

function setup(opts: { clickCloses: boolean }) {
  const library = libraryOf(APP, DISMISS);
  const fake = fakeDesktop({ windows: [win('w1', 'Save changes?', 'box')] });
  fake.hooks.beforeInput = (call) => {
    const closes = (call.op === 'click' && opts.clickCloses) || (call.op === 'key' && call.key === 'Escape');
    if (closes) fake.windows.splice(0, fake.windows.length);
  };
  const grounder: Grounder = { locate: async () => ({ found: true, point: { x: 5, y: 7 }, source: 'ocr', confidence: 1 }) };
  const exec = testExecutor({ library, desktop: fake.desktop, grounder });
  return { fake, exec, library };
}

describe('src/main/services/executor (expected effect of a grounded click)', () => {
  it('succeeds when the effect shows after the click', async () => {
    const { exec, fake } = setup({ clickCloses: true });
    const r = await exec.run({ skill: 'box.dismiss' });
    expect(r.status).toBe('succeeded');
    expect(fake.inputCalls().map((c) => c.op)).toEqual(['click']);
  });

  it('fails the click that had no effect, saying where it landed, and takes the next alternative', async () => {
    const { exec, fake } = setup({ clickCloses: false });
    const r = await exec.run({ skill: 'box.dismiss' });
    expect(r.status).toBe('succeeded');
    const click = r.steps.find((s) => s.nodeId === 'click')!;
    expect(click.outcome).toBe('failed');
    expect(click.error).toBe(
      'The click on `No` at (15, 27) had no effect: No window titled /^Save changes/ left did not hold within 30 ms',
    );
    expect(fake.inputCalls().map((c) => c.op)).toEqual(['click', 'key']);
  });

  it('does not wait for the effect in a dry run', async () => {
    const { exec } = setup({ clickCloses: false });
    const r = await exec.run({ skill: 'box.dismiss', dryRun: true });
    expect(r.status).toBe('succeeded');
    expect(r.steps.find((s) => s.nodeId === 'click')?.outcome).toBe('ok');
  });

  it('needs screen.capture when the expected effect is read off the screen', () => {
    const click = PrimitiveSchema.parse({
      action: 'click',
      target: { kind: 'point', x: 1, y: 1 },
      expect: { condition: { kind: 'text_gone', text: 'Saving' } },
    });
    const byTitle = PrimitiveSchema.parse({
      action: 'click',
      target: { kind: 'point', x: 1, y: 1 },
      expect: { condition: { kind: 'window_gone', pattern: 'x' } },
    });
    const skill = setup({ clickCloses: true }).library.skills.get('box.dismiss')!;
    const caps = (p: typeof click) =>
      primitiveNeeds(skill, p, {
        infer: () => {
          throw new Error('no scripts here');
        },
      }).needs.map((n) => n.capability);
    expect(caps(click)).toContain('screen.capture');
    expect(caps(byTitle)).not.toContain('screen.capture');
    // A registry check reads the registry, scoped by its key.
    const byRegistry = PrimitiveSchema.parse({
      action: 'wait_until',
      condition: { kind: 'registry_value', key: 'HKCU\\Software\\X', name: 'Answer', equals: 42 },
    });
    const needs = primitiveNeeds(skill, byRegistry, { infer: () => [] as never }).needs;
    expect(needs.map((n) => [n.capability, n.target])).toContainEqual(['registry.read', { kind: 'path', path: 'HKCU\\Software\\X' }]);
  });
});
