import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import type { PermissionPrompt } from '../../src/shared/ports/prompter';
import { killPrograms, windowsCore, winePath } from './windowsCore';

let core: Core;
let asked: PermissionPrompt[];
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-win-cmd-'));

beforeAll(async () => {
  ({ core, asked } = await windowsCore({ approve: true }));
  await killPrograms('conhost.exe');
});
afterAll(async () => {
  core?.close();
  await killPrograms('conhost.exe');
});

describe('skills/implementations/cmd (Windows lane)', () => {
  it('runs a command in the Command Prompt and returns what it printed, read back from the output file', async () => {
    const output = join(dir, 'echo out.txt');
    const r = await core.runSkill({
      skill: 'CommandLine.run_command',
      app: 'cmd',
      // No ( ) or Latin-1 here: Wine's console ignores Unicode key packets, and Wine's keyboard
      // layout under Xvfb has no key for ( and ) (VkKeyScanW answers -1), so neither path can
      // type them into a Wine console. On Windows both go through (docs/windows.md).
      args: { command: 'echo SkillDesk "%OS%" & set /a 6*7', output: winePath(output) },
    });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(readFileSync(output, 'latin1')).toBe('SkillDesk "Windows_NT" \r\n42');
    expect(r.result).toBe('SkillDesk "Windows_NT" \r\n42');
    // Typing into a command line runs what is typed: the user was asked, for cmd.exe.
    expect(asked.map((p) => [p.capability, p.skill.id])).toContainEqual(['shell.execute', 'cmd.run_command']);
  });

  it('runs nothing when nobody approves the command', async () => {
    const { core: unattended } = await windowsCore();
    const output = join(dir, 'denied.txt');
    try {
      const r = await unattended.runSkill({
        skill: 'CommandLine.run_command',
        app: 'cmd',
        args: { command: 'ver', output: winePath(output) },
      });
      expect(r.status).toBe('failed');
      expect(r.error?.code).toBe('permission.not_confirmed');
      expect(r.steps.some((s) => s.primitive === 'type_text' && s.outcome === 'ok')).toBe(false);
    } finally {
      unattended.close();
    }
  });
});
