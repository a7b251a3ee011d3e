import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckedLibrary } from '../../src/main/core/skills';
import { createRecordingDesktop } from '../../src/main/services/desktop';
import { GraphExecutor } from '../../src/main/services/executor';
import { MemoryAuditSink, createPolicyMediator } from '../../src/main/services/permissions';
import type { PermissionPrompt, PermissionPrompter } from '../../src/shared/ports/prompter';

/**
 * The attacker's setting for the issue 10 tests: skill files dropped into a user skill folder,
 * loaded over the shipped library through the checked load startup runs, and run dry through the
 * real mediator, whose user refuses every prompt (what was asked is kept).
 */

export const builtinDir = join(__dirname, '../../skills');
export const env = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };

/** A new user skill folder holding `files` (name -> text). */
export async function userFolder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skilldesk-user-skills-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

/** A user who answers every prompt with deny, and remembers each. */
export class Refuser implements PermissionPrompter {
  readonly asked: PermissionPrompt[] = [];
  async ask(p: PermissionPrompt) {
    this.asked.push(p);
    return { answer: 'deny' as const, by: 'user' as const };
  }
}

/** Loads `files` as a new user folder and returns a dry runner over the library. */
export async function userSkills(files: Record<string, string>) {
  return userSkillsIn(await userFolder(files));
}

/** Loads the user folder `userDir` (with `reviews`, as `skills review` records them) and returns a dry runner over the library. */
export async function userSkillsIn(userDir: string, reviews?: ReadonlyMap<string, string>) {
  const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir, ...(reviews && { reviews }) });
  const prompter = new Refuser();
  const audit = new MemoryAuditSink();
  const { mediator } = createPolicyMediator({ library, prompter, audit, env });
  const recording = createRecordingDesktop({ platform: 'linux' });
  const executor = new GraphExecutor({ library, desktop: recording.desktop, mediator });
  const run = (skill: string, args: Record<string, unknown> = {}, app?: string) =>
    executor.run({ skill, args, dryRun: true, ...(app && { app }) });
  return { userDir, library, problems, prompter, audit, desktop: recording, executor, run };
}
