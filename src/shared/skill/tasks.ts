import { callEdges, graphPrimitives } from './graph';
import type { Skill, SkillLibrary } from './library';

/** Primitive actions in a skill's own graph (calls to other skills are not primitives). */
export function primitiveCount(skill: Skill): number {
  return graphPrimitives(skill.graph).filter((p) => p.action !== 'call').length;
}

/** The skill and everything it calls on `app`, each once; undefined when it cannot run there. */
export function callTree(library: SkillLibrary, root: Skill, app: string): Skill[] | undefined {
  if (root.app && root.app !== app) return undefined;
  const seen = new Map<string, Skill>();
  const visit = (skill: Skill): boolean => {
    if (seen.has(skill.id)) return true;
    seen.set(skill.id, skill);
    for (const { call } of callEdges(skill.graph)) {
      let callee: Skill;
      try {
        callee = library.resolve(call.skill, skill.app ?? app);
      } catch {
        return false; // not implemented on this app
      }
      if (!visit(callee)) return false;
    }
    return true;
  };
  if (root.kind === 'composite') {
    try {
      library.resolve(root.id, app); // the app must implement the interface
    } catch {
      return undefined;
    }
  }
  return visit(root) ? [...seen.values()] : undefined;
}
