import { callEdges } from '../skill/graph';
import type { Skill, SkillLibrary } from '../skill/library';
import { share } from './tasks';
import type { MetricsSkillKind, Share } from './types';

/**
 * How a skill id relates to the current library. `fallback`: a method of a universal interface
 * (`Desktop.press_key`...), which acts on any focused window and is what the agent falls back to
 * when no skill fits, whether the composite itself or an app's implementation of it. `unknown`:
 * not in the library (removed or renamed since it ran, or never resolved).
 */
export function skillKind(library: SkillLibrary, skillId: string): MetricsSkillKind {
  const skill = library.skills.get(skillId);
  const ref = skill?.implements ?? skillId;
  const head = ref.slice(0, Math.max(ref.indexOf('.'), 0));
  if (library.interfaces.get(head)?.universal) return 'fallback';
  return skill ? skill.kind : 'unknown';
}

/** Whether `skillId` counts as a library skill: in the library and not a fallback. */
export function isLibrarySkill(library: SkillLibrary, skillId: string): boolean {
  const kind = skillKind(library, skillId);
  return kind !== 'fallback' && kind !== 'unknown';
}

/** The library's skills that the reusability and compositionality figures range over: all but the fallbacks. */
export function librarySkills(library: SkillLibrary): Skill[] {
  return [...library.skills.values()].filter((s) => isLibrarySkill(library, s.id));
}

/**
 * Whether a call node of `caller` calls another library skill: a skill of the library, or an
 * interface method with at least one implementation to dispatch to; not a fallback, not itself.
 */
export function callsLibrarySkill(library: SkillLibrary, caller: Skill, ref: string): boolean {
  const target = library.canonicalRef(ref);
  if (target === caller.id || target === caller.implements) return false;
  const kind = skillKind(library, target);
  if (kind === 'fallback') return false;
  if (kind !== 'unknown') return true;
  return library.implementationsOf(target).length > 0;
}

/**
 * Compositionality of the library: over its composites and its user skills (`origin: user`,
 * induced or written in the editor), the share of their call nodes that call another library skill.
 */
export function callComposition(library: SkillLibrary): Share & { skills: number; skillsWithCalls: number } {
  const builders = librarySkills(library).filter((s) => s.kind === 'composite' || s.source.origin === 'user');
  let callNodes = 0;
  let libraryCalls = 0;
  let skillsWithCalls = 0;
  for (const skill of builders) {
    const calls = callEdges(skill.graph);
    if (calls.length > 0) skillsWithCalls++;
    callNodes += calls.length;
    libraryCalls += calls.filter((c) => callsLibrarySkill(library, skill, c.call.skill)).length;
  }
  return { ...share(libraryCalls, callNodes), skills: builders.length, skillsWithCalls };
}
