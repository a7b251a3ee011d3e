/** Learning skills: demonstrations recorded as trajectories, and induction (signature first, verified by re-execution). */
export { Inducer } from './Inducer';
export type { InduceRequest, InductionDeps, InductionReport, VerificationRun } from './Inducer';
export { recordWebDemonstration } from './WebRecorder';
export type { WebDemonstration } from './WebRecorder';
export { recordDesktopDemonstration } from './DesktopRecorder';
export type { DesktopDemonstration, ElementReader, InputHook } from './DesktopRecorder';
export { loadInputHook } from './uiohook';
