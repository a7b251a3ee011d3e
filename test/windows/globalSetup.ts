import type { TestProject } from 'vitest/node';

/**
 * The Windows lane for the `windows` project: SkillDesk's desktop host running under Wine as a
 * Windows program (scripts/windows-lane.cjs), started once for all files and stopped after them.
 * The tests reach it through `inject('windowsDesktop')`.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const { createRequire } = await import('node:module');
  const lane = createRequire(import.meta.url)('../../scripts/windows-lane.cjs') as {
    start(env?: NodeJS.ProcessEnv): { url: string; token: string; pid: number };
    stop(): boolean;
  };
  // A missing display or Wine is a failure, never a skip (the test desktop is part of `npm test`).
  const host = lane.start(process.env);
  project.provide('windowsDesktop', { url: host.url, token: host.token });
  return () => void lane.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    windowsDesktop: { url: string; token: string };
  }
}
