import type { SkillLibrary } from '../skill/library';

/** A method an app's interfaces declare that nothing implements on it yet: a goal to learn. */
export interface MissingMethod {
  interface: string;
  method: string;
  description: string;
  intents: string[];
  args: string[];
}

/**
 * The blueprint of an app (after PolySkill's exploration): for every interface it implements,
 * the methods with no implementation on it — composites excepted, which run on the methods they
 * call. On a new site of a known domain these are what to demonstrate (or explore) next.
 */
export function missingMethods(library: SkillLibrary, app: string): MissingMethod[] {
  const profile = library.apps.get(app);
  if (!profile) return [];
  const out: MissingMethod[] = [];
  const seen = new Set<string>();
  for (const declared of profile.implements) {
    for (const iface of library.lineage(declared)) {
      const doc = library.interfaces.get(iface);
      if (!doc) continue;
      for (const [method, m] of Object.entries(doc.methods)) {
        const ref = `${iface}.${method}`;
        if (m.composite || seen.has(ref)) continue;
        seen.add(ref);
        if (library.implementationsOf(ref).some((s) => s.app === app)) continue;
        out.push({ interface: iface, method, description: m.description, intents: m.intents, args: Object.keys(m.args) });
      }
    }
  }
  return out;
}
