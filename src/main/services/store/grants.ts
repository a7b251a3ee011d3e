import { StoreError } from './errors';
import { toJson } from './json';
import { prepared, whereClause, type StoreDb } from './statements';
import { expectInteger, expectText } from './validate';

/** A persistent permission grant ("always allow"), answered from a confirm prompt. */
export interface GrantRow {
  id: number;
  skillId: string;
  capability: string;
  /** The constraints of the manifest entry the grant answers: a grant never widens scope. */
  constraints: Record<string, unknown>;
  /** `sha256:<hex>` of the skill content the grant was given for; null for grants stored before schema 3 (they answer nothing). */
  skillHash: string | null;
  grantedAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** `stale`: stored before grants named skill content (schema 3); it answers no skill. */
export type GrantState = 'active' | 'expired' | 'revoked' | 'stale';

export interface NewGrant {
  skillId: string;
  capability: string;
  /** @default {} */
  constraints?: Record<string, unknown>;
  /** The content hash of the skill version granted (`Skill.source.contentHash`); the grant applies to that content only. */
  skillHash: string;
  /** @default Date.now() */
  grantedAt?: number;
  /** Epoch ms after which the grant no longer applies; null = until revoked. @default null */
  expiresAt?: number | null;
}

export interface ListGrantsFilter {
  skill?: string;
  capability?: string;
  /** 'active' = not revoked, not expired at `now`, and naming the skill content it was given for. @default 'active' */
  state?: 'active' | 'all';
  /** @default Date.now() */
  now?: number;
}

interface GrantRecord {
  id: number;
  skill_id: string;
  capability: string;
  constraints_json: string;
  skill_hash: string | null;
  granted_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

/** Stores a grant; returns it with its id. */
export function addGrant(db: StoreDb, grant: NewGrant): GrantRow {
  expectText(grant.skillId, 'skillId');
  expectText(grant.capability, 'capability');
  expectText(grant.skillHash, 'skillHash');
  const grantedAt = grant.grantedAt ?? Date.now();
  expectInteger(grantedAt, 'grantedAt');
  const expiresAt = grant.expiresAt ?? null;
  if (expiresAt !== null) {
    expectInteger(expiresAt, 'expiresAt');
    if (expiresAt <= grantedAt)
      throw new StoreError('store.invalid_argument', `Expected \`expiresAt\` (${expiresAt}) to be after \`grantedAt\` (${grantedAt})`);
  }
  const constraints = grant.constraints ?? {};
  const info = prepared(
    db,
    'INSERT INTO grants (skill_id, capability, constraints_json, skill_hash, granted_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(grant.skillId, grant.capability, toJson(constraints, 'constraints'), grant.skillHash, grantedAt, expiresAt);
  return {
    id: Number(info.lastInsertRowid),
    skillId: grant.skillId,
    capability: grant.capability,
    constraints,
    skillHash: grant.skillHash,
    grantedAt,
    expiresAt,
    revokedAt: null,
  };
}

/** One grant by id, or undefined. */
export function getGrant(db: StoreDb, id: number): GrantRow | undefined {
  const record = prepared<GrantRecord>(db, 'SELECT * FROM grants WHERE id = ?').get(id);
  return record && toGrantRow(record);
}

/** Grants (active ones by default), oldest first. */
export function listGrants(db: StoreDb, filter: ListGrantsFilter = {}): GrantRow[] {
  const activeAt = (filter.state ?? 'active') === 'active' ? (filter.now ?? Date.now()) : undefined;
  const where = whereClause([
    ['skill_id = ?', filter.skill],
    ['capability = ?', filter.capability],
    ['revoked_at IS NULL AND skill_hash IS NOT NULL AND (expires_at IS NULL OR expires_at > ?)', activeAt],
  ]);
  return prepared<GrantRecord>(db, `SELECT * FROM grants ${where.sql} ORDER BY id`)
    .all(...where.params)
    .map(toGrantRow);
}

/** Revokes a grant (the row stays for review). */
export function revokeGrant(db: StoreDb, id: number, at: number = Date.now()): 'revoked' | 'already_revoked' | 'not_found' {
  expectInteger(at, 'at');
  const info = prepared(db, 'UPDATE grants SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  if (info.changes > 0) return 'revoked';
  return getGrant(db, id) ? 'already_revoked' : 'not_found';
}

/** Whether a grant applies at `now`. */
export function grantState(grant: GrantRow, now: number = Date.now()): GrantState {
  if (grant.revokedAt !== null) return 'revoked';
  if (grant.skillHash === null) return 'stale';
  if (grant.expiresAt !== null && grant.expiresAt <= now) return 'expired';
  return 'active';
}

function toGrantRow(r: GrantRecord): GrantRow {
  return {
    id: r.id,
    skillId: r.skill_id,
    capability: r.capability,
    constraints: JSON.parse(r.constraints_json) as Record<string, unknown>,
    skillHash: r.skill_hash,
    grantedAt: r.granted_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}
