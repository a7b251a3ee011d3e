import { describe, expect, it } from 'vitest';
import { ChoiceSourceSchema, INTERPRETERS, PrimitiveSchema } from '../../../src/shared/skill';

describe('src/shared/skill/interpreters', () => {
  it('is the list run_script and command choice sources accept, and nothing else', () => {
    for (const interpreter of [...INTERPRETERS, 'ruby']) {
      const known = (INTERPRETERS as readonly string[]).includes(interpreter);
      expect(PrimitiveSchema.safeParse({ action: 'run_script', interpreter, script: 'x' }).success).toBe(known);
      expect(ChoiceSourceSchema.safeParse({ kind: 'command', interpreter, script: 'x' }).success).toBe(known);
    }
  });
});
