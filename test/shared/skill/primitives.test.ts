import { describe, expect, it } from 'vitest';
import type { NeedContext } from '../../../src/shared/permissions/needs';
import {
  PRIMITIVE_ACTIONS,
  PRIMITIVES,
  PrimitiveSchema,
  describePrimitive,
  descriptorOf,
  primitiveInput,
  primitiveInto,
  primitivePaths,
  type Primitive,
} from '../../../src/shared/skill';
import { z } from 'zod';

const ctx: NeedContext = {
  appTarget: { kind: 'app', app: 'ed' },
  analyseScript: () => ({ ok: true, capabilities: [], errors: [] }),
  isSecretPath: (p) => p.includes('.ssh'),
  isSettingsPath: (p) => p.endsWith('.bashrc'),
};

describe('src/shared/skill/primitives', () => {
  it('gives every action a descriptor whose sample is valid and whose needs stay within its documented capabilities', () => {
    expect(PRIMITIVE_ACTIONS.length).toBeGreaterThanOrEqual(16);
    for (const action of PRIMITIVE_ACTIONS) {
      const d = PRIMITIVES[action];
      expect(d.doc.length, action).toBeGreaterThan(10);
      const sample = PrimitiveSchema.parse(d.sample);
      expect(sample.action).toBe(action);
      const own = descriptorOf(sample).needs(sample, ctx);
      for (const n of Array.isArray(own) ? own : own.needs) expect(d.capabilities, action).toContain(n.capability);
    }
  });

  it('derives input, written variables and path fields from the table', () => {
    const typed: Primitive = { action: 'type_text', text: 'x' };
    expect(primitiveInput(typed)).toBe('keyboard');
    expect(primitiveInput({ action: 'scroll', dy: 1 })).toBe('mouse');
    expect(primitiveInput({ action: 'wait', ms: 1 })).toBeUndefined();
    expect(primitiveInto({ action: 'run_script', interpreter: 'bash', script: 'echo', into: 'out' })).toBe('out');
    expect(primitiveInto({ action: 'call', skill: 'A.b', into: 'v' })).toBe('v');
    expect(primitiveInto({ action: 'read', source: 'clipboard', into: 'result' })).toBe('result');
    expect(primitiveInto(typed)).toBeUndefined();
    expect(primitivePaths({ action: 'read', source: 'file', path: '/tmp/a', into: 'x' })).toEqual(['/tmp/a']);
    expect(primitivePaths({ action: 'wait_until', condition: { kind: 'file_exists', path: '${p}' } })).toEqual(['${p}']);
    expect(primitivePaths({ action: 'click', target: { kind: 'point', x: 1, y: 1 } })).toEqual([]);
  });

  it('rejects a misspelt key with the closest names, and leaves `${arg}` keys to run time', () => {
    const bad = PrimitiveSchema.safeParse({ action: 'hotkey', keys: ['Contol', 's'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['keys', 0]);
    expect(bad.error?.issues[0]?.message).toMatch(/got `Contol`.*did you mean `Control`\?/);
    expect(PrimitiveSchema.safeParse({ action: 'key', key: 'enter' }).error?.issues[0]?.message).toMatch(/did you mean `Enter`/);
    expect(PrimitiveSchema.safeParse({ action: 'key', key: '${key}' }).success).toBe(true);
    expect(PrimitiveSchema.safeParse({ action: 'hotkey', keys: ['Control', 'Shift', 'F5'] }).success).toBe(true);
  });

  it('will not compile a descriptor without `needs` (a new primitive cannot silently need nothing)', () => {
    const schema = z.object({ action: z.literal('beep') }).strict();
    // @ts-expect-error `needs` is required
    const d = describePrimitive({
      schema,
      doc: 'Beeps.',
      forwardsArgs: false,
      capabilities: [],
      sample: { action: 'beep' },
      group: 'flow',
    });
    expect(d.schema).toBe(schema);
  });
});
