import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addGrant, grantState, listGrants } from '../../../../../src/main/services/store';
import { migration003 } from '../../../../../src/main/services/store/migrations/003-grant-skill-hash';
import { describeSchema, openAtVersion, upgrade } from '../helpers/migrationHarness';
import { useTempStores } from '../helpers/tempDir';

const temp = useTempStores();
const V = migration003.version;

describe('src/main/services/store/migrations/003-grant-skill-hash', () => {
  it('adds skill_hash to grants, keeps earlier grants, and marks them stale: they name no skill content', () => {
    const db = openAtVersion(join(temp.dir(), 'v2.db'), V - 1);
    try {
      // A grant as the previous schema stored it.
      db.prepare(
        "INSERT INTO grants (skill_id, capability, constraints_json, granted_at) VALUES ('ed.save', 'file.write', '{\"paths\":[\"/tmp\"]}', 100)",
      ).run();
      expect(upgrade(db, V)).toEqual({ from: V - 1, to: V, applied: [V] });
      expect(describeSchema(db).grants).toContain('skill_hash: TEXT');
      const [old] = listGrants(db, { state: 'all', now: 200 });
      expect(old).toMatchObject({ skillId: 'ed.save', constraints: { paths: ['/tmp'] }, skillHash: null });
      expect(grantState(old!, 200)).toBe('stale');
      // Stale grants are not active: nothing loads them into a session.
      expect(listGrants(db, { now: 200 })).toEqual([]);
      const fresh = addGrant(db, { skillId: 'ed.save', capability: 'file.write', skillHash: 'sha256:aa', grantedAt: 150 });
      expect(listGrants(db, { now: 200 }).map((g) => g.id)).toEqual([fresh.id]);
    } finally {
      db.close();
    }
  });
});
