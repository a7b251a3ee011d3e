import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillLibrary } from '../../../../src/shared/skill';
import { createAgent, MemoryAgentMemory, type AgentReport } from '../../../../src/main/services/agent';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { OpenAiLlmClient, resolveProviderConfig, type RoleSettings } from '../../../../src/main/services/llm';
import { testExecutor } from '../../../helpers/executor';
import { fakeDesktop } from '../../../helpers/fakeDesktop';
import { loadCassette } from '../../../fixtures/replay-server/ReplayServer';
import { useReplayServer } from '../../../helpers/replay';

const GOAL = 'write hello to /tmp/skilldesk-agent-test/hello.txt with notepad';

describe('src/main/services/agent/LlmPlanner', () => {
  let library: SkillLibrary;
  const replay = useReplayServer('test');

  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
  });

  async function runCassette(
    name: string,
    over: Partial<RoleSettings> = {},
  ): Promise<{ report: AgentReport; memory: MemoryAgentMemory; fake: ReturnType<typeof fakeDesktop> }> {
    replay.server.load(loadCassette(name));
    const fake = fakeDesktop();
    const executor = testExecutor({ library, desktop: fake.desktop });
    const llm = new OpenAiLlmClient(
      resolveProviderConfig('planner', { planner: { baseURL: replay.baseURL, model: 'replay-model', backoffMs: 10, ...over } })!,
    );
    const memory = new MemoryAgentMemory();
    const { agent } = createAgent({ library, runner: executor, platform: 'linux', planner: llm, memory, sessionId: 's1' });
    const report = await agent.run(GOAL, { dryRun: true });
    return { report, memory, fake };
  }

  it('plans, picks, configures and runs a skill, then finishes, when the model answers well', async () => {
    const { report, memory, fake } = await runCassette('agent-write-file');
    expect(report.outcome).toBe('finished');
    expect(report.steps[0]!.action).toMatchObject({
      kind: 'run',
      skill: 'TextEditor.write_file',
      app: 'wine-notepad',
      args: { path: '/tmp/skilldesk-agent-test/hello.txt', text: 'hello' },
    });
    expect(report.steps[0]!.run!.status).toBe('succeeded');
    expect(fake.calls.filter((c) => c.op === 'type').map((c) => c.text)).toEqual(['hello', 'Z:\\tmp\\skilldesk-agent-test\\hello.txt']);
    expect(memory.entries).toHaveLength(1);
    expect(memory.entries[0]).toMatchObject({ outcome: 'succeeded', skill: 'TextEditor.write_file', sessionId: 's1' });
    // the second planner call saw the memory of the first step
    const secondPlan = replay.server.requests.filter((r) => r.stage === 'plan_step')[1]!;
    expect(JSON.stringify(secondPlan.body.messages)).toContain('TextEditor.write_file on wine-notepad');
    // K queries were merged into the candidates shown to the re-ranker, with the basic primitives
    const pickPrompt = JSON.stringify(replay.server.requests.find((r) => r.stage === 'pick_skill')!.body.messages);
    expect(pickPrompt).toMatch(/- TextEditor\.write_file \(apps: [^)]*\bmousepad, [^)]*\bwine-notepad\)/);
    expect(pickPrompt).toContain('- Desktop.press_key [basic primitive');
    expect(report.accounting.llm).toMatchObject({ calls: 4, retries: 0 });
    expect(report.accounting.llm.totalTokens).toBeGreaterThan(0);
    expect(replay.server.remaining()).toEqual([]);
  });

  it('re-asks the re-ranker with the valid ids when it names an unknown skill', async () => {
    const { report } = await runCassette('agent-unknown-skill');
    expect(report.outcome).toBe('finished');
    const picks = replay.server.requests.filter((r) => r.stage === 'pick_skill');
    expect(picks).toHaveLength(2);
    expect(JSON.stringify(picks[1]!.body.messages.at(-1))).toMatch(
      /Expected `choice` to be one of the candidate ids .*got `TextEditor.save_file`/,
    );
  });

  it('re-asks the configurator with the domain error when an argument is out of its domain', async () => {
    const { report } = await runCassette('agent-out-of-domain');
    expect(report.outcome).toBe('finished');
    const cfgs = replay.server.requests.filter((r) => r.stage === 'configure_args');
    expect(JSON.stringify(cfgs[1]!.body.messages.at(-1))).toContain(
      'Expected `path` to be an absolute POSIX path, got `hello.txt` (string)',
    );
    expect(report.steps[0]!.action).toMatchObject({ kind: 'run', args: { path: '/tmp/skilldesk-agent-test/hello.txt' } });
  });

  it('records an invalid_args failure in memory after the bounded re-asks, then stops with the planner failing', async () => {
    const { report, memory, fake } = await runCassette('agent-out-of-domain-exhausted');
    expect(report.outcome).toBe('failed');
    expect(report.message).toMatch(/absolute path/);
    expect(memory.entries).toHaveLength(1);
    expect(memory.entries[0]).toMatchObject({ outcome: 'invalid_args', skill: 'TextEditor.write_file', args: { path: 'hello' } });
    expect(memory.entries[0]!.summary).toMatch(/after 3 answers/);
    expect(fake.inputCalls()).toEqual([]);
    // the failure was shown to the planner for reflection
    expect(JSON.stringify(replay.server.requests.at(-1)!.body.messages)).toContain('invalid_args');
  });

  it('re-asks after malformed JSON from the planner', async () => {
    const { report } = await runCassette('agent-malformed-json');
    expect(report.outcome).toBe('finished');
    const plans = replay.server.requests.filter((r) => r.stage === 'plan_step');
    expect(JSON.stringify(plans[1]!.body.messages.at(-1))).toMatch(/Expected the model to answer with JSON/);
  });

  it('retries a 429 and goes on, counting the retry in the accounting', async () => {
    const { report } = await runCassette('agent-rate-limited');
    expect(report.outcome).toBe('finished');
    expect(report.accounting.llm.retries).toBe(1);
    expect(report.accounting.llm.byStage.plan!.calls).toBe(2);
  });

  it('fails with a planner_error memory entry when the model times out', async () => {
    const { report, memory } = await runCassette('agent-timeout', { timeoutMs: 150, maxRetries: 1 });
    expect(report.outcome).toBe('failed');
    expect(report.message).toMatch(/No answer from .* within 150 ms.*after 2 attempts/);
    expect(memory.entries).toEqual([expect.objectContaining({ outcome: 'planner_error', step: 0 })]);
    expect(memory.entries[0]!.summary).toMatch(/^llm.timeout/);
  });
});
