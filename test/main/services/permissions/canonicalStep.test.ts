import { describe, expect, it } from 'vitest';
import { canonicalizeStep } from '../../../../src/main/services/permissions/canonicalStep';
import type { CapabilityNeed } from '../../../../src/shared/permissions/needs';
import { PrimitiveSchema } from '../../../../src/shared/skill';

const step = (key: string, capability: CapabilityNeed['capability'] = 'registry.read') =>
  canonicalizeStep({
    primitive: PrimitiveSchema.parse({ action: 'wait_until', condition: { kind: 'registry_value', key, name: 'x' } }),
    needs: [{ capability, target: { kind: 'path', path: key }, detail: 'verify' }],
    inferred: new Set(),
    args: {},
    argSpecs: {},
    // Any file path would be refused: a registry key must never reach the file-path canonicaliser.
    canonicalize: (p) => ({ ok: false, reason: `not a file path: ${p}` }),
    home: undefined,
  });

describe('src/main/services/permissions/canonicalStep (registry keys)', () => {
  it('names a registry key one way (its root spelled out), never as a file path', () => {
    const r = step('HKCU\\Software\\SkillDesk\\');
    expect(r.ok && r.needs).toEqual([
      { capability: 'registry.read', target: { kind: 'path', path: 'HKEY_CURRENT_USER\\Software\\SkillDesk' }, detail: 'verify' },
    ]);
    const w = step('Computer\\HKEY_LOCAL_MACHINE\\SOFTWARE\\X', 'registry.write');
    expect(w.ok && w.needs[0]!.target).toEqual({ kind: 'path', path: 'HKEY_LOCAL_MACHINE\\SOFTWARE\\X' });
  });

  it('fails closed on a key without a root (what analysis could not pin down)', () => {
    const r = step('registry');
    expect(r).toMatchObject({ ok: false, capability: 'registry.read', target: 'registry' });
    expect(!r.ok && r.reason).toMatch(/`registry` is not a registry key \(it starts with none of HKEY_CURRENT_USER \(HKCU\)/);
  });
});
