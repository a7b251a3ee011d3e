import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');

interface Target {
  target: string;
  arch: string[];
}

describe('electron-builder.yml', () => {
  const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
    asar: boolean;
    asarUnpack: string[];
    files: string[];
    win: { icon: string; target: Target[] };
    linux: { icon: string; target: Target[] };
  };

  it("passes electron-builder's own schema", async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration: (c: unknown, l: unknown) => Promise<void>;
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, win: { targets: 'nsis' } }, new DebugLogger(false))).rejects.toThrow(/configuration/);
  });

  it('builds an x64 NSIS installer and a portable exe for Windows, and an AppImage for Linux', () => {
    expect(config.win.target).toEqual([
      { target: 'nsis', arch: ['x64'] },
      { target: 'portable', arch: ['x64'] },
    ]);
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage']);
  });

  it('packs into asar with the native modules unpacked', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3/**',
        'node_modules/@nut-tree-fork/**',
        // The Windows window manager's addon and the module that finds it, and the FFI for SendInput.
        'node_modules/node-window-manager/**',
        'node_modules/node-gyp-build/**',
        'node_modules/koffi/**',
        'node_modules/@koromix/**',
        // The global input hook that records desktop demonstrations.
        'node_modules/uiohook-napi/**',
        '**/*.node',
      ]),
    );
  });

  it('ships the built app, the skill library and icons that exist', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'skills/**', 'assets/**', 'package.json']));
    for (const icon of [config.win.icon, config.linux.icon]) expect(existsSync(join(ROOT, icon))).toBe(true);
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1); // ICO type
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(4); // several sizes
  });
});
