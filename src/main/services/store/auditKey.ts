import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { writeFileAtomic } from './auditFiles';

/**
 * The secret the audit chain is keyed with, and the row it starts at. Kept in a file beside the
 * database, not in it: whoever can rewrite the database but not read this file cannot forge a
 * row's MAC. (An OS keychain would also keep it from other programs of the same user; the CLI and
 * host mode have no keychain under plain Node, and a file works the same everywhere.)
 */
export interface AuditKey {
  /** 32 random bytes. */
  readonly key: Buffer;
  /** Rows up to this id were written before the key existed: a plain SHA-256 chain, checked as such. */
  readonly legacyThroughId: number;
  /** When the key was created (epoch ms). */
  readonly createdAt: number;
}

/** Why the key cannot be used; `verify` reports it and appends refuse. */
export interface AuditKeyProblem {
  reason: 'key_missing' | 'key_exposed' | 'key_unreadable';
  message: string;
}

const FORMAT = 'skilldesk-audit-key/1';

/** Reads the key file: the key, undefined when there is no file, or what is wrong with it. */
export function readAuditKey(keyFile: string): AuditKey | AuditKeyProblem | undefined {
  let text: string;
  try {
    text = readFileSync(keyFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { reason: 'key_unreadable', message: `Cannot read the audit key ${keyFile}: ${(err as Error).message}` };
  }
  const parsed = parseKey(text);
  if (!parsed) {
    return {
      reason: 'key_unreadable',
      message: `The audit key ${keyFile} is not a SkillDesk audit key (expected ${FORMAT} JSON with 32 key bytes): restore it from a backup`,
    };
  }
  // Windows has no mode bits: the file inherits the ACL of the user's profile folder (docs/security.md).
  const mode = process.platform === 'win32' ? 0 : statSync(keyFile).mode & 0o077;
  if (mode !== 0) {
    return {
      reason: 'key_exposed',
      message:
        `The audit key ${keyFile} can be read or written by other users (mode ${(statSync(keyFile).mode & 0o777).toString(8)}): ` +
        `anyone who can read it can forge audit rows. Run \`chmod 600 ${keyFile}\`, then \`skilldesk audit --verify\`.`,
    };
  }
  return parsed;
}

function parseKey(text: string): AuditKey | undefined {
  try {
    const o = JSON.parse(text) as { format?: unknown; key?: unknown; legacyThroughId?: unknown; createdAt?: unknown };
    const key = typeof o.key === 'string' ? Buffer.from(o.key, 'base64') : undefined;
    if (o.format !== FORMAT || key?.length !== 32) return undefined;
    if (!Number.isSafeInteger(o.legacyThroughId) || (o.legacyThroughId as number) < 0 || !Number.isSafeInteger(o.createdAt))
      return undefined;
    return { key, legacyThroughId: o.legacyThroughId as number, createdAt: o.createdAt as number };
  } catch {
    return undefined;
  }
}

/**
 * Creates a key in two steps around `writeAnchor`: the key goes to `<keyFile>.new`, the first
 * anchor is written with it, and only then is the key renamed into place. A crash before the
 * rename leaves `.new` (finished by `completeAuditKey` when the anchor checks out with it, or
 * discarded); so a key never exists without its anchor, and an anchor alone means a lost key.
 */
export function createAuditKey(
  keyFile: string,
  legacyThroughId: number,
  createdAt: number,
  writeAnchor: (key: AuditKey) => void,
): AuditKey {
  const key: AuditKey = { key: randomBytes(32), legacyThroughId, createdAt };
  const pending = `${keyFile}.new`;
  writeFileAtomic(pending, JSON.stringify({ format: FORMAT, key: key.key.toString('base64'), legacyThroughId, createdAt }), 0o600);
  writeAnchor(key);
  renameSync(pending, keyFile);
  return key;
}

/**
 * Finishes a creation a crash interrupted: `<keyFile>.new` becomes the key if `anchorMatches` says
 * the anchor was written with it; otherwise the leftover is removed. Returns the key, if any.
 */
export function completeAuditKey(keyFile: string, anchorMatches: (key: AuditKey) => boolean): AuditKey | undefined {
  const pending = `${keyFile}.new`;
  if (!existsSync(pending)) return undefined;
  const key = parseKey(readFileSync(pending, 'utf8'));
  if (key && anchorMatches(key)) {
    renameSync(pending, keyFile);
    return key;
  }
  rmSync(pending, { force: true });
  return undefined;
}
