/** Running synthesized tasks on a real desktop: the runner, the programmatic checker, app isolation. */
export { TaskRunner, prepareTaskFolder, describeCheck } from './TaskRunner';
export type { TaskOutcome, TaskFailure, TaskRunnerCore } from './TaskRunner';
export { TaskChecker, imageSize } from './TaskChecker';
export type { CheckVerdict } from './TaskChecker';
export { appState, endProcesses, launchedProgram, liveDesktopApps, resetApps, testDesktopPath } from './AppIsolation';
