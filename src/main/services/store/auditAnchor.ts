import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './auditFiles';
import { canonicalJson } from './json';

/**
 * The audit chain's head as last seen, kept outside the database and MACed with the audit key:
 * rows removed from the end of the chain, or a chain emptied, no longer match it. It may lag the
 * chain (rows committed after it was written are accepted, since each carries its own MAC) but
 * it never leads: it is written only after the rows it names were committed and flushed to disk.
 */
export interface AuditAnchor {
  /** The newest row's id when the anchor was written (0 for an empty chain). */
  headId: number;
  /** That row's hash (the genesis hash for an empty chain). */
  headHash: string;
  /** Rows in the chain up to and including `headId`. */
  count: number;
  /** When it was written (epoch ms). */
  writtenAt: number;
}

/** What reading the anchor found. */
export type AnchorRead =
  | { state: 'ok'; anchor: AuditAnchor }
  | { state: 'missing' }
  /** Unparsable, or its MAC does not match the key: edited, forged or written with another key. */
  | { state: 'forged'; detail: string };

/** The `prevHash` of the first row, and the head of an empty chain. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

const FORMAT = 'skilldesk-audit-anchor/1';
// A different prefix than any row's MAC input (a row's canonical JSON starts with `{`), so a row
// MAC can never be replayed as an anchor MAC or the other way round.
const MAC_DOMAIN = `${FORMAT}\n`;

function anchorMac(key: Buffer, anchor: AuditAnchor): string {
  const { headId, headHash, count, writtenAt } = anchor;
  return createHmac('sha256', key)
    .update(MAC_DOMAIN + canonicalJson({ format: FORMAT, headId, headHash, count, writtenAt }))
    .digest('hex');
}

/** Writes the anchor atomically (temp file, flush, rename, flush the folder). */
export function writeAnchor(file: string, key: Buffer, anchor: AuditAnchor): void {
  const { headId, headHash, count, writtenAt } = anchor;
  writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, headId, headHash, count, writtenAt, mac: anchorMac(key, anchor) })}\n`);
}

/** Reads and authenticates the anchor with `key`. */
export function readAnchor(file: string, key: Buffer): AnchorRead {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'forged', detail: `it cannot be read: ${(err as Error).message}` };
  }
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { state: 'forged', detail: 'it is not JSON' };
  }
  const { headId, headHash, count, writtenAt, mac } = o;
  if (
    o.format !== FORMAT ||
    !isCount(headId) ||
    !isCount(count) ||
    !isCount(writtenAt) ||
    typeof headHash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(headHash) ||
    typeof mac !== 'string'
  ) {
    return { state: 'forged', detail: `it is not a ${FORMAT} record` };
  }
  const anchor: AuditAnchor = { headId, headHash, count, writtenAt };
  const expected = Buffer.from(anchorMac(key, anchor), 'hex');
  const given = Buffer.from(mac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { state: 'forged', detail: 'its MAC does not match the audit key (edited, or written without the key)' };
  }
  return { state: 'ok', anchor };
}

function isCount(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}
