import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { saveSettings } from '../../../src/main/core/settings';
import { windowBelongsToApp } from '../../../src/main/services/executor';
import { killApps, liveCore } from './liveCore';

let core: Core;

beforeAll(async () => {
  ({ core } = await liveCore());
  killApps('gnome-calculator');
  // Started by the test here, so that these cases time the skills alone; the last case starts cold.
  const { spawn } = await import('node:child_process');
  spawn('gnome-calculator', [], { detached: true, stdio: 'ignore' }).unref();
  const desktop = await core.desktop();
  const app = (await core.loadLibrary()).library.apps.get('gnome-calculator')!;
  for (let i = 0; i < 100; i++) {
    if ((await desktop.windows.list()).some((w) => windowBelongsToApp(w, app.windows))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('gnome-calculator did not show a window within 20 s');
});
afterAll(() => {
  core?.close();
  killApps('gnome-calculator');
});

describe('skills/interfaces/Calculator.yaml (live)', () => {
  // Evaluating expressions is in skills/live-tests/gnome-calculator.yaml.
  it('starts the calculator itself when none is open, and uses the configured default calculator when no app is named', async () => {
    // Two calculators implement Calculator here (GNOME Calculator, Qalculate!): without --app the
    // configured default decides (with none, the run says which apps could; see GraphExecutor's tests).
    saveSettings(core.db!, { defaultApps: { Calculator: 'gnome-calculator' } });
    const desktop = await core.desktop();
    const app = (await core.loadLibrary()).library.apps.get('gnome-calculator')!;
    const open = async () => (await desktop.windows.list()).some((w) => windowBelongsToApp(w, app.windows));
    killApps('gnome-calculator');
    for (let i = 0; i < 50 && (await open()); i++) await new Promise((r) => setTimeout(r, 200));
    expect(await open(), 'the calculator is closed before the run').toBe(false);
    const r = await core.runSkill({ skill: 'Calculator.evaluate', args: { expression: '12 * 7' } });
    expect(r.error?.message).toBeUndefined();
    expect(r.app).toBe('gnome-calculator');
    expect(r.result).toBe(84);
    expect(r.steps.filter((st) => st.nodeId.startsWith('(bring up')).map((st) => [st.nodeId, st.outcome])).toEqual([
      ['(bring up)', 'ok'],
      ['(bring up: window)', 'ok'],
    ]);
  });

  it('refuses an expression outside the feasible domain before touching the calculator', async () => {
    const r = await core.runSkill({ skill: 'Calculator.evaluate', app: 'gnome-calculator', args: { expression: 'rm -rf /' } });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('args.invalid');
    expect(r.steps).toEqual([]);
  });
});
