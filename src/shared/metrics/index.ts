/**
 * Skill metrics from stored runs, after the PolySkill paper: success rate, steps on successful
 * tasks, skill reusability, task coverage, compositionality. Pure: rows and the library in,
 * figures out. Every figure is defined in docs/metrics.md.
 */
import type { SkillLibrary } from '../skill/library';
import { callComposition, isLibrarySkill, librarySkills, skillKind } from './library';
import { appFigures, assembleTasks, share, skillUsage, taskFigures } from './tasks';
import type { MetricsRows, MetricsView } from './types';

export * from './types';
export { callComposition, callsLibrarySkill, isLibrarySkill, librarySkills, skillKind } from './library';
export { appFigures, assembleTasks, mean, median, share, skillUsage, taskFigures, type Task } from './tasks';

/** Every figure for the tasks in `rows` (already limited to the window) against the current library. */
export function computeMetrics(rows: MetricsRows, library: SkillLibrary, window: MetricsView['window']): MetricsView {
  const { tasks, excluded } = assembleTasks(rows);
  const isLibrary = (id: string) => isLibrarySkill(library, id);
  const all = taskFigures(tasks, isLibrary);
  const bySkill = skillUsage(tasks, (id) => skillKind(library, id));
  const used = new Set(bySkill.filter((u) => isLibrary(u.skillId)).map((u) => u.skillId));
  return {
    window,
    tasks: {
      all,
      goals: taskFigures(
        tasks.filter((t) => t.kind === 'goal'),
        isLibrary,
      ),
      direct: taskFigures(
        tasks.filter((t) => t.kind === 'direct'),
        isLibrary,
      ),
    },
    excluded,
    reusability: share(used.size, librarySkills(library).length),
    compositionality: { skills: callComposition(library), tasks: all.multiSkill },
    bySkill,
    byApp: appFigures(tasks),
  };
}
