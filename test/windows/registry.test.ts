import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import type { PermissionPrompt } from '../../src/shared/ports/prompter';
import { killPrograms, windowsCore, windowsDesktop, winePath } from './windowsCore';

const lane = createRequire(import.meta.url)('../../scripts/windows-lane.cjs') as { wineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv };
const KEY = 'HKEY_CURRENT_USER\\Software\\SkillDeskTest';

/** `reg query` in the lane's prefix: the registry as Windows programs see it. */
function regQuery(key: string, name: string): string {
  try {
    return execFileSync('wine', ['reg', 'query', key, '/v', name], {
      env: lane.wineEnv(process.env),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return '';
  }
}

let core: Core;
let asked: PermissionPrompt[];
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-win-reg-'));

beforeAll(async () => {
  ({ core, asked } = await windowsCore({ approve: true }));
  await killPrograms('regedit.exe');
  try {
    execFileSync('wine', ['reg', 'delete', KEY, '/f'], { env: lane.wineEnv(process.env), stdio: 'ignore' });
  } catch {
    // not there yet
  }
  expect(regQuery(KEY, 'Greeting')).toBe('');
});
afterAll(async () => {
  core?.close();
  await killPrograms('regedit.exe');
});

describe('skills/implementations/regedit (Windows lane)', () => {
  it('imports a .reg file through the Registry Editor, and reg query reads the values back', async () => {
    const file = join(dir, 'skilldesk test.reg');
    const stamp = `imported ${Date.now()}`;
    writeFileSync(
      file,
      ['Windows Registry Editor Version 5.00', '', `[${KEY}]`, `"Greeting"="${stamp}"`, '"Answer"=dword:0000002a', ''].join('\r\n'),
    );
    const r = await core.runSkill({ skill: 'RegistryEditor.import_file', app: 'regedit', args: { path: winePath(file) } });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(regQuery(KEY, 'Greeting')).toMatch(new RegExp(`Greeting\\s+REG_SZ\\s+${stamp}`));
    expect(regQuery(KEY, 'Answer')).toMatch(/Answer\s+REG_DWORD\s+0x2a/);
    // The confirmation box was answered: only the editor's main window is left.
    const desktop = await windowsDesktop();
    try {
      expect((await desktop.windows.list()).filter((w) => w.processName === 'regedit.exe').map((w) => w.title)).toEqual([
        'Registry Editor',
      ]);
    } finally {
      await desktop.close();
    }
    // Input to the registry editor writes the registry: the person was asked.
    expect(asked.map((p) => p.capability)).toContain('registry.write');
  });

  it('reads registry values exactly through the host (RegGetValueW): Unicode text, numbers, lists, a missing value', async () => {
    const reg = (...args: string[]) =>
      execFileSync('wine', ['reg', 'add', KEY, ...args, '/f'], { env: lane.wineEnv(process.env), stdio: 'ignore' });
    reg('/v', 'Text', '/t', 'REG_SZ', '/d', 'naïve café ✓ (x) [y]');
    reg('/v', 'Count', '/t', 'REG_DWORD', '/d', '4294967295');
    reg('/v', 'Lines', '/t', 'REG_MULTI_SZ', '/d', 'one\\0two words');
    reg('/ve', '/t', 'REG_SZ', '/d', 'the default');
    const desktop = await windowsDesktop();
    try {
      const registry = desktop.registry!;
      expect(registry).toBeDefined();
      expect(await registry.readValue(KEY, 'Text')).toEqual({ type: 'REG_SZ', data: 'naïve café ✓ (x) [y]' });
      expect(await registry.readValue('HKCU\\Software\\SkillDeskTest', 'Count')).toEqual({ type: 'REG_DWORD', data: '4294967295' });
      expect(await registry.readValue(KEY, 'Lines')).toEqual({ type: 'REG_MULTI_SZ', data: 'one\ntwo words' });
      expect(await registry.readValue(KEY, '')).toEqual({ type: 'REG_SZ', data: 'the default' });
      expect(await registry.readValue(KEY, 'Nothing here')).toBeUndefined();
      expect(await registry.readValue(`${KEY}\\No such key`, 'Text')).toBeUndefined();
      await expect(registry.readValue('Software\\SkillDeskTest', 'Text')).rejects.toThrow(/does not start with a registry root/);
    } finally {
      await desktop.close();
    }
  });
});
