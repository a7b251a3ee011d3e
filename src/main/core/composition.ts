import { callEdges, compositionGraph, type CompositionGraph, type SkillLibrary } from '../../shared/skill';
import { loadCompositionGraph, sha256Hex, storeCompositionGraph, storedGraphDigest, type StoreDb } from '../services/store';

/**
 * What the composition graph is built from: each skill's conditions, arguments and calls, and
 * which interfaces each app implements. The stored graph is rebuilt when this changes.
 */
export function graphDigest(library: SkillLibrary): string {
  const skills = [...library.skills.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((s) => [s.id, s.app ?? null, s.implements ?? null, s.conditions, s.args, callEdges(s.graph).map((c) => c.call.skill)]);
  const apps = [...library.apps.values()].sort((a, b) => a.id.localeCompare(b.id)).map((a) => [a.id, a.implements]);
  return sha256Hex(JSON.stringify({ skills, apps }));
}

/**
 * The composition graph (or the part touching `app`), kept in the store: built and stored once
 * per library content, then read back with SQL. Without a store it is computed each time.
 */
export function storedCompositionGraph(library: SkillLibrary, db: StoreDb | undefined, app?: string): CompositionGraph {
  if (!db) return compositionGraph(library, app);
  const digest = graphDigest(library);
  if (storedGraphDigest(db) !== digest) storeCompositionGraph(db, compositionGraph(library), digest);
  return loadCompositionGraph(db, app);
}
