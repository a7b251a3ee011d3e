import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { winePath } from './windowsCore';

const lane = createRequire(import.meta.url)('../../scripts/windows-lane.cjs') as {
  nodeExe: string;
  addonOut: string;
  wineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
};
const root = join(__dirname, '..', '..');

describe('Windows packaging (docs/packaging.md)', () => {
  it("loads every native module SkillDesk needs on Windows in an executable not named node.exe, as Electron's SkillDesk.exe is", () => {
    // Electron's executable exports N-API like node.exe but under another name: an addon that
    // imports from "node.exe" by name fails there; ours delay-load it and take the running one.
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-renamed-'));
    const exe = join(dir, 'SkillDesk.exe');
    copyFileSync(lane.nodeExe, exe);
    const report = join(dir, 'report.json');
    const modules = {
      nodeWindowManager: lane.addonOut,
      libnut: join(root, 'node_modules/@nut-tree-fork/libnut-win32/build/Release/libnut.node'),
      koffi: join(root, 'node_modules/koffi'),
    };
    const script = join(dir, 'load.js');
    writeFileSync(
      script,
      `const out = { exe: process.execPath };
       const m = ${JSON.stringify(Object.fromEntries(Object.entries(modules).map(([k, v]) => [k, winePath(v)])))};
       try { out.windows = require(m.nodeWindowManager).getWindows().length; } catch (e) { out.windows = String(e.message); }
       try { out.mouse = typeof require(m.libnut).getMousePos().x; } catch (e) { out.mouse = String(e.message); }
       try { out.user32 = typeof require(m.koffi).load('user32.dll').func('int __stdcall GetSystemMetrics(int)')(0); } catch (e) { out.user32 = String(e.message); }
       require('fs').writeFileSync(${JSON.stringify(winePath(report))}, JSON.stringify(out));`,
    );
    // Windows Node's stdout must not be a pipe under Wine (EBADF): it goes nowhere here.
    execFileSync('wine', [exe, script], { env: lane.wineEnv(process.env), stdio: 'ignore', timeout: 60_000 });
    const out = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    expect(out.exe).toMatch(/SkillDesk\.exe$/);
    expect(out).toMatchObject({ mouse: 'number', user32: 'number' });
    expect(typeof out.windows).toBe('number');
  });
});
