/**
 * The one list of script interpreters: what a `run_script` primitive and a `command` choice source
 * may name, what the desktop's process runner runs, and what the permission analysers read. Adding
 * one here makes the compiler point at every switch that must learn it.
 */
export const INTERPRETERS = ['bash', 'sh', 'powershell', 'cmd', 'python', 'node'] as const;

/** A script interpreter (one of INTERPRETERS). */
export type Interpreter = (typeof INTERPRETERS)[number];
