import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAgentCommands } from '../../../../src/main/cli/commands/agent';
import type { AgentCommandContext } from '../../../../src/main/cli/commands/agentContext';
import { registerRetrieveCommand } from '../../../../src/main/cli/commands/retrieve';
import { createNodeCore } from '../../../../src/main/core/createNodeCore';
import { loadCassette } from '../../../fixtures/replay-server/ReplayServer';
import { useReplayServer } from '../../../helpers/replay';

/** Runs the agent commands against a core in a fresh data folder (the built-in skills, no saved settings). */
async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let exitCode = 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-agent-cli-'));
  const core = await createNodeCore({ dataDir, interactive: false });
  const ctx: AgentCommandContext = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    setExitCode: (c) => {
      exitCode = c;
    },
    loadLibrary: () => core.loadLibrary(),
    core: async () => core,
  };
  const program = new Command('skilldesk').exitOverride();
  registerAgentCommands(program, ctx);
  registerRetrieveCommand(program, ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } finally {
    core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { out: out.join('\n'), err: err.join('\n'), exitCode };
}

describe('src/main/cli/commands/agent', () => {
  const replay = useReplayServer();

  it('completes a chained goal with the offline planner and prints the outcome', async () => {
    const r = await cli(['agent', 'open', 'mousepad', 'then', 'type', 'hi', 'then', 'save', 'it', 'as', '/tmp/x.txt', '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.out).toMatch(/^finished: All 3 step\(s\) of the plan succeeded\n\(offline planner, 3 skill runs/);
    expect(r.err).toContain('step 2: TextEditor.type_text on mousepad {"text":"hi"}');
  });

  it('exits 3 and explains when the offline planner cannot map the goal', async () => {
    const r = await cli(['agent', 'paint a sunset', '--dry-run', '--json']);
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.out)).toMatchObject({ outcome: 'unmapped', planner: 'offline' });
  });

  it('prints the offline plan with --plan-only', async () => {
    const r = await cli(['agent', 'calculate 2 + 2', '--plan-only', '--json']);
    expect(JSON.parse(r.out)).toEqual({
      ok: true,
      steps: [expect.objectContaining({ skill: 'Calculator.evaluate', args: { expression: '2 + 2' } })],
    });
  });

  it('drives the model planner given by flags, against the replayed server', async () => {
    replay.server.load(loadCassette('agent-write-file'));
    const r = await cli([
      'agent',
      'write hello to /tmp/skilldesk-agent-test/hello.txt',
      '--dry-run',
      '--json',
      '--base-url',
      replay.baseURL,
      '--model',
      'replay-model',
    ]);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({ outcome: 'finished', planner: 'llm', accounting: { llm: { calls: 4 } } });
    expect(r.exitCode).toBe(0);
  });

  it('probes the planner server', async () => {
    replay.server.load({ name: 'probe', interactions: [{ route: 'chat', stage: 'ping', respond: { content: '{"ok": true}' } }] });
    const r = await cli(['llm', 'probe', '--base-url', replay.baseURL, '--model', 'replay-model', '--json']);
    expect(JSON.parse(r.out)).toMatchObject({ reachable: true, modelListed: 'yes', structured: 'json_schema' });
  });
});

describe('src/main/cli/commands/retrieve', () => {
  it('lists the best skills for a query, as text and as JSON', async () => {
    const text = await cli(['retrieve', 'save the document as a new file', '--top', '2']);
    expect(text.out).toMatch(/^ 1\. Document\.save_as/);
    const json = JSON.parse((await cli(['retrieve', 'compute 2+2', '--json', '--top', '1'])).out);
    // The calculators of this platform (Linux) that run it.
    expect(json).toMatchObject({
      mode: 'lexical',
      hits: [{ rank: 1, skill: 'Calculator.evaluate', apps: ['gnome-calculator', 'qalculate-gtk'] }],
    });
  });

  it('rejects a bad --top', async () => {
    await expect(cli(['retrieve', 'x', '--top', '0'])).rejects.toThrow(/Expected `--top` to be a positive integer/);
  });
});
