import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { resetApps, TaskChecker, TaskRunner } from '../../../src/main/services/synthesis';
import { synthesizeTasks, type SkillLibrary } from '../../../src/shared/skill';
import { liveCore } from '../skills/liveCore';

/**
 * Synthesized tasks on the test desktop (issue 13): one runs and its check passes; with its effect
 * undone (the file it wrote put back as before), the same check fails.
 */
describe('synthesized tasks (live)', () => {
  let core: Core;
  let library: SkillLibrary;
  beforeAll(async () => {
    ({ core } = await liveCore({ approve: true }));
    ({ library } = await core.loadLibrary());
  });
  afterAll(() => {
    resetApps(library, ['mousepad']);
    core.close();
  });

  it('runs a task on mousepad, checks the file it wrote, and the check fails once the file is reverted', async () => {
    const { tasks } = synthesizeTasks(library, {
      apps: ['mousepad'],
      count: 40,
      seed: 21,
      tempDir: '/tmp/skilldesk-live-tasks',
      maxSteps: 5,
    });
    // A task that writes a file with known text (its check reads the bytes).
    const task = tasks.find((t) => t.check.some((c) => c.kind === 'file_text' && !(c.path in t.setup.files)))!;
    expect(task, 'seed 21 makes a task that writes a file').toBeDefined();
    resetApps(library, ['mousepad']);
    const outcome = await new TaskRunner(core, library).run(task);
    expect(outcome.failure, task.instruction).toBeUndefined();
    expect(outcome.checks.length).toBe(task.check.length);
    expect(outcome.checks.every((c) => c.ok)).toBe(true);
    const written = task.check.find((c) => c.kind === 'file_text' && !(c.path in task.setup.files))!;
    if (written.kind !== 'file_text') throw new Error('unreachable');
    writeFileSync(written.path, 'what was there before the task');
    const after = await new TaskChecker(await core.desktop(), library).check(task.check, [], { settleMs: 0 });
    expect(after.find((v) => v.check === written)).toMatchObject({ ok: false, found: '"what was there before the task"' });
  }, 240_000);
});
