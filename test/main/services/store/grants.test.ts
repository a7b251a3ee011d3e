import { describe, expect, it } from 'vitest';
import { addGrant, getGrant, grantState, listGrants, revokeGrant } from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();
const H = `sha256:${'ab'.repeat(32)}`;

describe('src/main/services/store/grants', () => {
  it('stores a grant with the constraints it answers and lists only active ones by default', () => {
    const { db } = temp.open();
    const keep = addGrant(db, {
      skillId: 'mousepad.save_as',
      capability: 'file.write',
      constraints: { paths: ['~/Documents/**'] },
      skillHash: H,
      grantedAt: 100,
    });
    const expiring = addGrant(db, {
      skillId: 'mousepad.save_as',
      capability: 'input.keyboard',
      skillHash: H,
      grantedAt: 100,
      expiresAt: 200,
    });
    const revoked = addGrant(db, { skillId: 'calc.evaluate', capability: 'clipboard.read', skillHash: H, grantedAt: 100 });
    expect(revokeGrant(db, revoked.id, 150)).toBe('revoked');
    expect(listGrants(db, { now: 150 }).map((g) => g.id)).toEqual([keep.id, expiring.id]);
    expect(listGrants(db, { now: 200 }).map((g) => g.id)).toEqual([keep.id]);
    expect(listGrants(db, { state: 'all' }).map((g) => g.id)).toEqual([keep.id, expiring.id, revoked.id]);
    expect(listGrants(db, { skill: 'mousepad.save_as', capability: 'file.write', now: 150 })).toEqual([
      {
        id: keep.id,
        skillId: 'mousepad.save_as',
        capability: 'file.write',
        constraints: { paths: ['~/Documents/**'] },
        skillHash: H,
        grantedAt: 100,
        expiresAt: null,
        revokedAt: null,
      },
    ]);
    expect(grantState(getGrant(db, expiring.id)!, 250)).toBe('expired');
    expect(grantState(getGrant(db, revoked.id)!, 120)).toBe('revoked');
    expect(grantState(keep, 10_000)).toBe('active');
  });

  it('says whether a revoke changed anything', () => {
    const { db } = temp.open();
    const g = addGrant(db, { skillId: 's.a', capability: 'file.read', skillHash: H });
    expect(revokeGrant(db, g.id)).toBe('revoked');
    expect(revokeGrant(db, g.id)).toBe('already_revoked');
    expect(revokeGrant(db, 9999)).toBe('not_found');
  });

  it('refuses an expiry that is not after the grant', () => {
    const { db } = temp.open();
    expect(() => addGrant(db, { skillId: 's.a', capability: 'file.read', skillHash: H, grantedAt: 100, expiresAt: 100 })).toThrow(
      'Expected `expiresAt` (100) to be after `grantedAt` (100)',
    );
  });
});
