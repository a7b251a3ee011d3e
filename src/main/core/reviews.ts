import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import { z } from 'zod';
import { SkillDeskError } from '../../shared/errors';
import { getSetting, setSetting, type StoreDb } from '../services/store';

/**
 * Reviews: the user's statement "I read this skill file and trust it", bound to the file's exact
 * bytes. A reviewed user file loads as `verified` (no trust cap on dangerous steps); any change to
 * it makes it `community` again until it is reviewed anew. Kept in the store, not in the file.
 */

const REVIEWS_KEY = 'reviewedSkills';
const ReviewsSchema = z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/));

/** Reviewed user files: path -> SHA-256 of the bytes that were reviewed. A malformed record counts as no reviews. */
export function skillReviews(db: StoreDb | undefined): Map<string, string> {
  if (!db) return new Map();
  const parsed = ReviewsSchema.safeParse(getSetting(db, REVIEWS_KEY));
  return new Map(parsed.success ? Object.entries(parsed.data) : []);
}

/** The file's canonical path, which must lie in the user skill folder (built-in files are trusted already). */
async function userFile(userDir: string, file: string): Promise<string> {
  const [dir, path] = await Promise.all([realpath(userDir).catch(() => userDir), realpath(file).catch(() => undefined)]);
  if (!path) throw new SkillDeskError('skills.no_file', `No file \`${file}\``);
  if (!path.startsWith(dir + sep)) {
    throw new SkillDeskError(
      'skills.not_user_file',
      `Expected a file in the user skill folder ${dir}, got \`${path}\`; install it first with \`skilldesk skills add\``,
    );
  }
  return path;
}

/** Records that the user reviewed `file` as it is now; returns its path and the hash reviewed. */
export async function reviewSkillFile(db: StoreDb, userDir: string, file: string): Promise<{ file: string; sha256: string }> {
  const path = await userFile(userDir, file);
  const sha256 = createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
  const reviews = skillReviews(db);
  reviews.set(path, sha256);
  setSetting(db, REVIEWS_KEY, Object.fromEntries(reviews));
  return { file: path, sha256 };
}

/** Withdraws a review; true when there was one. */
export async function revokeSkillReview(db: StoreDb, userDir: string, file: string): Promise<boolean> {
  const path = await userFile(userDir, file);
  const reviews = skillReviews(db);
  const had = reviews.delete(path);
  setSetting(db, REVIEWS_KEY, Object.fromEntries(reviews));
  return had;
}
