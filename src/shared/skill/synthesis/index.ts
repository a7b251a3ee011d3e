/** Task synthesis: walks on the composition graph over a symbolic world, with programmatic checks. */
export { synthesizeTasks, SynthesizedTaskSchema } from './walks';
export type { SynthesisOptions, SynthesisSpace, SynthesizedTask } from './walks';
export { TaskCheckSchema } from './checks';
export type { TaskCheck } from './checks';
export { evaluateArithmetic } from './arithmetic';
export { ARCHIVE_MEMBERS, TEXT_SAMPLES } from './fixtures';
export type { FixtureFile } from './fixtures';
