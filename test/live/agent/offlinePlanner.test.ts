import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { createAgent, MemoryAgentMemory, type AgentReport } from '../../../src/main/services/agent';
import { OpenAiLlmClient, resolveProviderConfig } from '../../../src/main/services/llm';
import { loadCassette, ReplayServer } from '../../fixtures/replay-server/ReplayServer';
import { agentCore, closeApp } from './liveAgent';

const NOTEPAD = /notepad\.exe/i;
let core: Core;
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-agent-live-'));

beforeAll(async () => {
  ({ core } = await agentCore());
});
afterAll(async () => {
  await closeApp(core, NOTEPAD);
  core?.close();
});

async function runGoal(goal: string, planner?: OpenAiLlmClient): Promise<{ report: AgentReport; memory: MemoryAgentMemory }> {
  const { library } = await core.loadLibrary();
  const desktop = await core.desktop();
  const memory = new MemoryAgentMemory();
  const { agent } = createAgent({
    library,
    platform: 'linux',
    memory,
    runner: { run: (r) => core.runSkill(r) },
    observe: async () => (await desktop.windows.active())?.title,
    ...(planner && { planner }),
  });
  return { report: await agent.run(goal, { maxSteps: 6 }), memory };
}

describe('src/main/services/agent (live, Wine Notepad)', () => {
  it("the offline planner completes 'open notepad then write hello and save it as PATH' live", async () => {
    await closeApp(core, NOTEPAD);
    const path = join(dir, 'agent hello.txt');
    const { report, memory } = await runGoal(`open notepad then write 'hello' and save it as ${path}`);
    expect(report.message).toBe('All 1 step(s) of the plan succeeded');
    expect(report.outcome).toBe('finished');
    expect(readFileSync(path, 'latin1')).toBe('hello');
    expect(memory.entries[0]).toMatchObject({ skill: 'TextEditor.write_file', app: 'wine-notepad', outcome: 'succeeded' });
    expect(memory.entries[0]!.summary).toMatch(/Focused window changed from ".*" to "agent hello\.txt - Notepad"/);
  });

  it('the offline planner runs a goal clause by clause (launch, type, save) live', async () => {
    await closeApp(core, NOTEPAD);
    const path = join(dir, 'three steps.txt');
    const { report } = await runGoal(`open notepad then type "line one" and then save it as ${path}`);
    expect(report.steps.filter((s) => s.run).map((s) => `${s.run!.skillId}:${s.run!.status}`)).toEqual([
      'wine-notepad.new_document:succeeded',
      'wine-notepad.type_text:succeeded',
      'wine-notepad.save_as:succeeded',
    ]);
    expect(report.outcome).toBe('finished');
    expect(readFileSync(path, 'latin1')).toBe('line one');
  });

  it('the replayed model plans, picks and configures write_file, and the file appears live', async () => {
    await closeApp(core, NOTEPAD);
    const path = join(dir, 'replayed.txt');
    const server = new ReplayServer();
    try {
      const baseURL = await server.start();
      server.load(JSON.parse(JSON.stringify(loadCassette('agent-write-file')).replaceAll('/tmp/skilldesk-agent-test/hello.txt', path)));
      const llm = new OpenAiLlmClient(resolveProviderConfig('planner', { planner: { baseURL, model: 'replay-model' } })!);
      const { report } = await runGoal(`write hello to ${path} with notepad`, llm);
      expect(report.outcome).toBe('finished');
      expect(report.planner).toBe('llm');
      expect(readFileSync(path, 'latin1')).toBe('hello');
      expect(report.accounting.llm.calls).toBe(4);
    } finally {
      await server.close();
    }
  });

  it('a failing step ends the offline run as failed with the failure in memory', async () => {
    await closeApp(core, NOTEPAD);
    // The folder does not exist: Notepad's Save As dialog refuses the path and the skill times out waiting for the title.
    const path = join(dir, 'no such folder', 'x.txt');
    const { report, memory } = await runGoal(`open notepad then type "x" then save it as ${path}`);
    expect(report.outcome).toBe('failed');
    expect(memory.entries.at(-1)).toMatchObject({ skill: 'Document.save_as', outcome: 'failed' });
    expect(existsSync(path)).toBe(false);
  }, 120_000);
});
