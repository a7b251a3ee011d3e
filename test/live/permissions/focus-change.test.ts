import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCommand } from '../../../src/main/cli/commands/audit';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { windowBelongsToApp } from '../../../src/main/services/executor';
import { iterateAudit, verifyAuditChain } from '../../../src/main/services/store';
import type { Desktop, WindowInfo } from '../../../src/shared/ports/desktop';
import type { AppDoc } from '../../../src/shared/skill';
import { requireDisplay } from '../skills/liveCore';

/**
 * Complete mediation on a real desktop: a skill typing into Wine Notepad in three steps; between
 * the first and the second, focus is moved to mousepad (another app). The mediator must deny the
 * second keystroke step, the run must stop there, mousepad must receive nothing, and the audit
 * must show the decision.
 */
const SKILL = `
kind: skill
id: wine-notepad.type_in_three_steps
app: wine-notepad
description: Type three words into Notepad, pausing between them (permissions live test)
intents: [type three words slowly]
permissions:
  - { capability: input.keyboard, effect: allow, constraints: { apps: [wine-notepad] } }
  - { capability: app.window, effect: allow, constraints: { apps: [wine-notepad] } }
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: one }
    one: { action: type_text, text: 'alpha ', next: pause }
    pause: { action: wait, ms: 4000, next: two }
    two: { action: type_text, text: 'bravo ', next: three }
    three: { action: type_text, text: 'charlie', next: done }
    done: { terminal: success }
`;

let core: Core;
let desktop: Desktop;
const started: ChildProcess[] = [];
const opened: string[] = [];

async function waitForWindow(app: AppDoc['windows'], notIn: Set<string>): Promise<WindowInfo> {
  for (let i = 0; i < 150; i++) {
    const w = (await desktop.windows.list()).find((x) => !notIn.has(x.id) && windowBelongsToApp(x, app));
    if (w) return w;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no window matching ${JSON.stringify(app)} appeared within 30 s`);
}

function start(command: string, args: string[]): void {
  const child = spawn(command, args, { detached: true, stdio: 'ignore', env: process.env });
  child.unref();
  started.push(child);
}

beforeAll(async () => {
  requireDisplay();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-perm-live-'));
  const userSkills = join(dataDir, 'skills');
  mkdirSync(userSkills);
  writeFileSync(join(userSkills, 'type_in_three_steps.yaml'), SKILL);
  core = await createNodeCore({ dataDir, interactive: false, overrides: { userSkillsDir: userSkills } });
  desktop = await core.desktop();
  const { library, problems } = await core.loadLibrary();
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect(library.skills.has('wine-notepad.type_in_three_steps')).toBe(true);
  const before = new Set((await desktop.windows.list()).map((w) => w.id));
  start('wine', ['notepad.exe']);
  opened.push((await waitForWindow(library.apps.get('wine-notepad')!.windows, before)).id);
  start('mousepad', ['--disable-server']);
  opened.push((await waitForWindow(library.apps.get('mousepad')!.windows, before)).id);
}, 90_000);

afterAll(async () => {
  // Close only what this test opened, then end the processes it started.
  for (const id of opened) await desktop?.windows.close(id).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  for (const c of started)
    if (c.pid && c.exitCode === null)
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
  core?.close();
});

describe('permissions: focus change mid-run (live, Wine Notepad + mousepad)', () => {
  it('denies input once focus moves to another app and stops before the next keystroke; the audit shows the decision', async () => {
    const [notepadId, mousepadId] = opened as [string, string];
    let moved = false;
    const run = core.runSkill({
      skill: 'wine-notepad.type_in_three_steps',
      onEvent: (e) => {
        // After the first word, while the skill waits, the user clicks into another app.
        if (e.type === 'step_finished' && e.step.nodeId === 'one' && !moved) {
          moved = true;
          void desktop.windows.focus(mousepadId);
        }
      },
    });
    const r = await run;
    expect(moved).toBe(true);
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('permission.focus_changed');
    expect(r.error?.nodeId).toBe('two');
    expect(r.steps.map((s) => [s.nodeId, s.outcome])).toEqual([
      ['focus', 'ok'],
      ['one', 'ok'],
      ['pause', 'ok'],
      ['two', 'denied'],
    ]);

    // For people reviewing a failure: the screen as the run left it.
    writeFileSync(join(tmpdir(), 'skilldesk-focus-change.png'), (await desktop.screen.capture()).png);

    // mousepad got no keystroke: its title has no modified mark and its text is empty.
    const mp = (await desktop.windows.list()).find((w) => w.id === mousepadId)!;
    expect(mp.title.startsWith('*')).toBe(false);
    // Notepad holds exactly the first word, read back through the clipboard.
    await desktop.windows.focus(notepadId);
    await desktop.input.hotkey(['Control', 'a']);
    await desktop.input.hotkey(['Control', 'c']);
    await new Promise((res) => setTimeout(res, 500));
    expect(await desktop.clipboard.readText()).toBe('alpha ');

    const rows = [...iterateAudit(core.db!, { runId: r.runId })];
    expect(rows.map((x) => [x.nodeId, x.capability, x.decision])).toEqual([
      ['focus', 'app.window', 'allow'],
      ['one', 'input.keyboard', 'allow'],
      ['two', 'input.keyboard', 'deny'],
    ]);
    const denied = rows[2]!;
    expect(denied).toMatchObject({ policySource: 'mediation:focus', skillId: 'wine-notepad.type_in_three_steps' });
    expect(denied.reason).toMatch(/focus moved to another app's window/);
    expect(denied.target).toMatch(/^window:.*Mousepad/i);
    expect(verifyAuditChain(core.db!).ok).toBe(true);
    const out: string[] = [];
    expect(auditCommand(core.db!, { run: r.runId }, { out: (s) => out.push(s), err: () => {} })).toBe(0);
    expect(out[0]).toMatch(/type_in_three_steps\s+two\s+input\.keyboard\s+window:.*deny\s+mediation:focus/);
  });
});
