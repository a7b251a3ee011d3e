/** The executor: runs skills' execution graphs on a desktop, mediated and journaled. */
export { GraphExecutor, systemClock } from './GraphExecutor';
export { PermissionDenied, RunAborted, StepFailure } from './errors';
export { appOwningWindow, windowBelongsToApp } from './appWindows';
export { MemoryRunJournal } from './MemoryRunJournal';
export type * from './types';
