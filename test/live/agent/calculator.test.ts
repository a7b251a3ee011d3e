import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { createAgent, MemoryAgentMemory } from '../../../src/main/services/agent';
import { agentCore, closeApp, windowsOf } from './liveAgent';

const CALC = /gnome-calculator/i;
let core: Core;

beforeAll(async () => {
  ({ core } = await agentCore());
});
afterAll(async () => {
  await closeApp(core, CALC);
  core?.close();
});

describe('src/main/services/agent (live, GNOME Calculator)', () => {
  it('the offline planner opens the calculator and evaluates an expression, returning the displayed number', async () => {
    await closeApp(core, CALC);
    const { library } = await core.loadLibrary();
    const memory = new MemoryAgentMemory();
    const { agent } = createAgent({ library, platform: 'linux', memory, runner: { run: (r) => core.runSkill(r) } });
    const report = await agent.run('open the calculator then what is 398 - 174 * sqrt(505)');
    expect(report.steps.filter((s) => s.run).map((s) => `${s.run!.skillId}:${s.run!.status}`)).toEqual([
      'Desktop.open_app:succeeded',
      'Calculator.evaluate:succeeded',
    ]);
    expect(report.outcome).toBe('finished');
    const result = report.steps[1]!.run!.result as number;
    expect(Math.abs(result - (398 - 174 * Math.sqrt(505)))).toBeLessThan(1e-6);
    expect(memory.entries[1]!.summary).toMatch(/^Calculator\.evaluate on gnome-calculator succeeded .* returning -3512\.\d+/);
    expect((await windowsOf(core, CALC)).length).toBe(1);
  });
});
