import type { Migration } from './types';

/**
 * 003: a persistent grant names the content of the skill it was given for (`skill_hash`, the
 * `sha256:<hex>` of the skill's file): a skill replaced under the same id no longer inherits it.
 * Grants stored before carry NULL: they name no content, so they answer no skill any more and
 * show as `stale` in `skilldesk permissions grants` until granted again.
 */
export const migration003: Migration = {
  version: 3,
  name: 'grant-skill-hash',
  up(db) {
    db.exec('ALTER TABLE grants ADD COLUMN skill_hash TEXT;');
  },
};
