import { SkillDeskError } from '../errors';
import { sampleArg, seededRandom, type ArgValues } from './domains';
import { callEdges, graphPrimitives } from './graph';
import type { Skill, SkillLibrary } from './library';

/** A task synthesized from the composition graph: a root skill on one app, with arguments sampled from their domains. */
export interface SynthesizedTask {
  /** `<skill>@<app>#<n>`, stable for a given seed. */
  id: string;
  skill: string;
  app: string;
  args: ArgValues;
  /**
   * Skills to run first on the same app: the opener, when nothing under the root launches the app
   * (its first step would otherwise find no window). The chain is the task.
   */
  before: { skill: string; args: ArgValues }[];
  /** The concrete skills the task runs on this app (the root first, then its callees, resolved by dispatch). */
  skills: string[];
  /** Primitive actions summed over those skills' graphs (calls excluded). */
  primitives: number;
}

export interface TaskSynthesisOptions {
  /** Apps to synthesize for; a root is kept for an app only when every call under it resolves there. */
  apps: readonly string[];
  /** Tasks per (root skill, app). @default 3 */
  perSkill?: number;
  /** @default 1 */
  seed?: number;
  /** Folder for sampled paths (POSIX). */
  tempDir: string;
  /** Folder for sampled paths of apps that run only on Windows. @default `C:\Users\Public\Documents` */
  windowsTempDir?: string;
  /** Roots to synthesize for (by skill id); @default every root of the composition graph */
  only?: (skill: Skill) => boolean;
  /** A skill without arguments that brings the app up (focus, else launch). @default `Desktop.open_app` when the library has it */
  opener?: string;
}

/**
 * Synthesizes tasks from the composition graph (after CUA-Skill): the roots are the skills no other
 * skill calls (interface composites and top-level app skills); each becomes `perSkill` tasks on
 * every app where its whole call tree resolves, with arguments drawn from the feasible domains.
 * Pure and deterministic for a seed.
 */
export function synthesizeTasks(library: SkillLibrary, opts: TaskSynthesisOptions): SynthesizedTask[] {
  const perSkill = opts.perSkill ?? 3;
  if (!Number.isInteger(perSkill) || perSkill < 1)
    throw new SkillDeskError('tasks.bad_option', `Expected \`perSkill\` to be a positive integer, got \`${perSkill}\``);
  const rand = seededRandom(opts.seed ?? 1);
  const called = calledRefs(library);
  const opener = opts.opener ?? (library.skills.has('Desktop.open_app') ? 'Desktop.open_app' : undefined);
  const tasks: SynthesizedTask[] = [];
  for (const root of [...library.skills.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    if (called.has(root.id) || (root.implements && called.has(root.implements))) continue;
    if (opts.only && !opts.only(root)) continue;
    for (const app of opts.apps) {
      const tree = callTree(library, root, app);
      if (!tree) continue;
      const windowsOnly = library.apps.get(app)?.platforms.every((p) => p === 'win32');
      const paths = windowsOnly
        ? { tempDir: opts.windowsTempDir ?? 'C:\\Users\\Public\\Documents', pathStyle: 'win32' as const }
        : { tempDir: opts.tempDir, pathStyle: 'posix' as const };
      for (let n = 0; n < perSkill; n++) {
        const args: ArgValues = {};
        for (const [name, spec] of Object.entries(root.args)) args[name] = sampleArg(spec, rand, paths);
        const launches = tree.some((s) => graphPrimitives(s.graph).some((p) => p.action === 'launch'));
        const before = !launches && opener && opener !== root.id ? [{ skill: opener, args: {} }] : [];
        tasks.push({
          id: `${root.id}@${app}#${n + 1}`,
          skill: root.id,
          app,
          args,
          before,
          skills: tree.map((s) => s.id),
          primitives: tree.reduce((sum, s) => sum + primitiveCount(s), 0),
        });
      }
    }
  }
  return tasks;
}

/** Primitive actions in a skill's own graph (calls to other skills are not primitives). */
export function primitiveCount(skill: Skill): number {
  return graphPrimitives(skill.graph).filter((p) => p.action !== 'call').length;
}

/** References that some skill calls (interface methods or concrete ids). */
function calledRefs(library: SkillLibrary): Set<string> {
  const refs = new Set<string>();
  for (const s of library.skills.values()) {
    for (const { call } of callEdges(s.graph)) refs.add(library.canonicalRef(call.skill));
  }
  return refs;
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
