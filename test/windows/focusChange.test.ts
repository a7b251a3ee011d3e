import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { iterateAudit, verifyAuditChain } from '../../src/main/services/store';
import type { Desktop, WindowInfo } from '../../src/shared/ports/desktop';
import { killPrograms, windowWhere } from './windowsCore';

/**
 * Complete mediation through the desktop host, as locally (test/live/permissions): a skill types
 * into Windows Notepad in two steps; between them the user focuses WordPad. The core's mediator,
 * reading the active window from the host, denies the second step; WordPad receives nothing.
 */
const SKILL = `
kind: skill
id: notepad.type_in_two_steps
app: notepad
description: Type two words into Notepad, pausing between them (permissions test on the Windows lane)
intents: [type two words slowly]
permissions:
  - { capability: input.keyboard, effect: allow, constraints: { apps: [notepad] } }
  - { capability: app.window, effect: allow, constraints: { apps: [notepad] } }
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: one }
    one: { action: type_text, text: 'alpha ', next: pause }
    pause: { action: wait, ms: 3000, next: two }
    two: { action: type_text, text: 'bravo', next: done }
    done: { terminal: success }
`;

let core: Core;
let desktop: Desktop;
let notepad: WindowInfo;
let wordpad: WindowInfo;

beforeAll(async () => {
  await killPrograms('notepad.exe');
  await killPrograms('(write|wordpad)[.]exe');
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-win-focus-'));
  const userSkills = join(dataDir, 'skills');
  mkdirSync(userSkills);
  writeFileSync(join(userSkills, 'type_in_two_steps.yaml'), SKILL);
  core = await createNodeCore({
    dataDir,
    interactive: false,
    desktopHost: inject('windowsDesktop'),
    overrides: { userSkillsDir: userSkills },
  });
  const { library, problems } = await core.loadLibrary();
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(library.skills.has('notepad.type_in_two_steps')).toBe(true);
  desktop = await core.desktop();
  await desktop.processes.launch({ command: 'write.exe', args: [] });
  wordpad = await windowWhere(desktop, (w) => w.processName === 'wordpad.exe', 'WordPad');
  await desktop.processes.launch({ command: 'notepad.exe', args: [] });
  notepad = await windowWhere(desktop, (w) => w.processName === 'notepad.exe', 'Notepad');
});
afterAll(async () => {
  core?.close();
  await killPrograms('notepad.exe');
  await killPrograms('(write|wordpad)[.]exe');
});

describe('permissions: focus change mid-run (Windows lane, through the desktop host)', () => {
  it('denies input once focus moves to another app, and audits the decision', async () => {
    let moved: Promise<void> | undefined;
    const r = await core.runSkill({
      skill: 'notepad.type_in_two_steps',
      onEvent: (e) => {
        if (e.type === 'step_finished' && e.step.nodeId === 'one' && !moved) moved = desktop.windows.focus(wordpad.id);
      },
    });
    await moved;
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('permission.focus_changed');
    expect(r.steps.map((s) => [s.nodeId, s.outcome])).toEqual([
      ['focus', 'ok'],
      ['one', 'ok'],
      ['pause', 'ok'],
      ['two', 'denied'],
    ]);
    // WordPad's document got nothing, not even keys of the first word still on their way when
    // focus moved (SendInput returns before the app has taken them; those are dropped, here by
    // Wine); Notepad holds at most the first word, never the second.
    const copyOf = async (w: WindowInfo) => {
      await desktop.windows.focus(w.id);
      await desktop.clipboard.writeText('(nothing copied)');
      await desktop.input.hotkey(['Control', 'a']);
      await desktop.input.hotkey(['Control', 'c']);
      const copied = await desktop.clipboard.readText();
      return copied === '(nothing copied)' ? '' : copied;
    };
    expect(await copyOf(wordpad)).toBe('');
    const typed = await copyOf(notepad);
    expect('alpha '.startsWith(typed) && typed.length > 0, `Notepad holds ${JSON.stringify(typed)}`).toBe(true);
    const rows = [...iterateAudit(core.db!, { runId: r.runId })];
    expect(rows.map((x) => [x.nodeId, x.capability, x.decision])).toEqual([
      ['focus', 'app.window', 'allow'],
      ['one', 'input.keyboard', 'allow'],
      ['two', 'input.keyboard', 'deny'],
    ]);
    expect(rows[2]).toMatchObject({ policySource: 'mediation:focus' });
    expect(rows[2]!.target).toMatch(/Wordpad/i);
    expect(verifyAuditChain(core.db!).ok).toBe(true);
  });
});
