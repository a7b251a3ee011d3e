import type { Skill } from '../../../shared/skill';
import { canonicalJson, sha256Hex } from '../store';

/**
 * The content hash grants are bound to. Skills loaded from files carry the SHA-256 of the file
 * (`source.contentHash`, set by the loader); a skill built in memory (tests, induction before it
 * is written) gets one from its canonical JSON, so every skill the mediator sees has a hash and
 * a replaced skill never inherits the grants of the one it replaced.
 */
export function skillContentHash(skill: Skill): string {
  if (skill.source.contentHash) return skill.source.contentHash;
  const { source: _source, ...content } = skill;
  return `sha256:${sha256Hex(canonicalJson(content))}`;
}
