import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { coreInducer } from '../../../src/main/core/induction';
import { windowBelongsToApp } from '../../../src/main/services/executor/appWindows';
import { accessibleAt } from '../../../src/main/services/grounding';
import { loadInputHook, recordDesktopDemonstration } from '../../../src/main/services/learning';
import { resetApps } from '../../../src/main/services/synthesis';
import { missingMethods } from '../../../src/shared/learning/blueprint';
import type { Desktop } from '../../../src/shared/ports/desktop';
import { requireDisplay } from '../skills/liveCore';

/**
 * A skill learned from a demonstration on the desktop (issue 14): with PCManFM's create_folder
 * left out of the library, a person's keys (typed through the real keyboard, heard by the global
 * input hook) create a folder; induction makes `FileManager.create_folder` on PCManFM of them,
 * verifies it by creating folders elsewhere, and the learned skill then runs with new arguments.
 */

let core: Core;
let desktop: Desktop;
let builtin: string;
let dataDir: string;
let dir: string;

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const isFolder = (p: string) => existsSync(p) && statSync(p).isDirectory();

beforeAll(async () => {
  requireDisplay();
  builtin = mkdtempSync(join(tmpdir(), 'skilldesk-learn-desk-lib-'));
  cpSync(resolve(__dirname, '../../../skills'), builtin, { recursive: true });
  rmSync(join(builtin, 'implementations', 'pcmanfm', 'create_folder.yaml'));
  rmSync(join(builtin, 'live-tests'), { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-learn-desk-'));
  core = await createNodeCore({
    dataDir,
    builtinSkillsDir: builtin,
    interactive: false,
    prompter: { ask: async () => ({ answer: 'allow_once', by: 'user' }) },
  });
  desktop = await core.desktop();
  dir = mkdtempSync(join(tmpdir(), 'skilldesk-learn-folders-'));
  for (const d of ['alpha', 'bravo', 'charlie']) mkdirSync(join(dir, d));
});

afterAll(async () => {
  const library = (await core?.loadLibrary())?.library;
  if (library) resetApps(library, ['pcmanfm']);
  await core?.close();
  for (const d of [builtin, dataDir, dir]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('src/main/services/learning (a skill learned from a desktop demonstration)', () => {
  it(
    'learns FileManager.create_folder on PCManFM from keys typed in it, verified elsewhere, and runs it with new arguments',
    { timeout: 240_000 },
    async () => {
      const { library } = await core.loadLibrary();
      resetApps(library, ['pcmanfm']);
      expect(missingMethods(library, 'pcmanfm').map((m) => m.method)).toContain('create_folder');
      const open = await core.runSkill({ skill: 'FileManager.open_folder', app: 'pcmanfm', args: { path: join(dir, 'alpha') } });
      expect(open.error?.message).toBeUndefined();

      const profile = library.apps.get('pcmanfm')!.windows!;
      const target = join(dir, 'bravo', 'made-by-hand');
      const title = async () => (await desktop.windows.active())?.title ?? '';
      const trajectory = await recordDesktopDemonstration(
        { hook: loadInputHook(), windows: desktop.windows, elementAt: async (p, w) => (w.pid ? accessibleAt(p, w.pid) : undefined) },
        {
          app: 'pcmanfm',
          belongs: (w) => windowBelongsToApp(w, profile),
          method: 'FileManager.create_folder',
          args: { path: target },
          // The person: the folder by its path in the location bar, then File > Create New > Folder.
          perform: async () => {
            const input = desktop.input;
            await input.hotkey(['Control', 'l']);
            await input.typeText(join(dir, 'bravo'));
            await input.pressKey('Delete');
            await input.pressKey('Enter');
            await until('the bravo folder shown', async () => (await title()) === 'bravo');
            await input.hotkey(['Control', 'Shift', 'n']);
            await until('the new folder dialog', async () => (await title()) === 'Creating New Folder');
            await input.typeText('made-by-hand');
            await input.pressKey('Enter');
            await until('the folder made', () => isFolder(target));
          },
        },
      );
      expect(
        trajectory.steps.map((s) => s.primitive.action),
        JSON.stringify(trajectory.steps.map((s) => s.primitive)),
      ).toEqual(['focus_window', 'hotkey', 'type_text', 'key', 'key', 'wait_until', 'hotkey', 'wait_for_window', 'type_text', 'key']);

      const report = await coreInducer(core).induce({
        trajectory,
        method: 'FileManager.create_folder',
        samples: [{ path: join(dir, 'charlie', 'second-one') }],
        // Each run makes its folder anew: the demonstration's is there already.
        prepare: async (args) => rmSync(String(args.path), { recursive: true, force: true }),
      });
      expect(report, report.reason).toMatchObject({ status: 'admitted', skillId: 'pcmanfm.create_folder' });
      expect(isFolder(join(dir, 'charlie', 'second-one'))).toBe(true);

      // Learned: it runs with arguments it never saw, from another folder.
      const again = await core.runSkill({
        skill: 'FileManager.create_folder',
        app: 'pcmanfm',
        args: { path: join(dir, 'alpha', 'third') },
      });
      expect(again.error?.message).toBeUndefined();
      expect(isFolder(join(dir, 'alpha', 'third'))).toBe(true);
      const learned = (await core.loadLibrary()).library.skills.get('pcmanfm.create_folder')!;
      expect(learned.source.origin).toBe('user');
      expect(learned.trust).toBe('community');
    },
  );
});
