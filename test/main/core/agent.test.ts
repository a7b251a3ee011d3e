import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreApiAdapter } from '../../../src/main/bridge/CoreApiAdapter';
import { main } from '../../../src/main/cli';
import { composeAgent } from '../../../src/main/core/agent';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import type { RunEventView } from '../../../src/shared/ipc';
import { loadCassette, ReplayServer } from '../../fixtures/replay-server/ReplayServer';

const goal = 'write hello to /tmp/skilldesk-agent-test/hello.txt';

describe('src/main/core/agent', () => {
  let server: ReplayServer;
  let baseURL: string;
  let dataDir: string;
  beforeAll(async () => {
    server = new ReplayServer();
    baseURL = await server.start();
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-compose-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds the same agent for the UI and the CLI: the planner saved in Settings plans both, and both record their runs', async () => {
    // The UI saves the planner; its goal then plans with that model.
    const core = await createNodeCore({ dataDir, interactive: false });
    const api = new CoreApiAdapter({ core, db: core.db!, version: '0' });
    await api.saveSettings({ providers: { planner: { preset: 'custom', baseURL, model: 'replay-model' } } });
    server.load(loadCassette('agent-write-file'));
    const events: RunEventView[] = [];
    const ui = await api.runGoal({ goal, dryRun: true, signal: new AbortController().signal, onEvent: (e) => events.push(e) });
    expect(ui.status).toBe('succeeded');
    expect(events.find((e) => e.type === 'note')).toMatchObject({ message: `planner: replay-model at ${baseURL}` });
    expect(server.remaining()).toEqual([]);
    core.close();

    // The CLI, with no flags, reads the same saved settings from the same data folder.
    server.load(loadCassette('agent-write-file'));
    const out: string[] = [];
    const code = await main(['--data-dir', dataDir, 'agent', goal, '--dry-run', '--json'], { out: (t) => out.push(t), err: () => {} });
    expect(code).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ outcome: 'finished', planner: 'llm' });
    expect(server.remaining()).toEqual([]);

    // Both agent runs are in the store, with the skill runs they started beneath them.
    const reopened = await createNodeCore({ dataDir, interactive: false });
    try {
      const agentRuns = reopened.listRuns({ skill: 'agent' });
      expect(agentRuns.map((r) => [r.goal, r.args.planner, r.status])).toEqual([
        [goal, 'llm', 'succeeded'],
        [goal, 'llm', 'succeeded'],
      ]);
      const children = reopened.listRuns({ limit: 50 }).filter((r) => r.parentRunId && agentRuns.some((a) => a.id === r.parentRunId));
      expect(new Set(children.map((r) => r.parentRunId)).size).toBe(2);
    } finally {
      reopened.close();
    }
  });

  it('lets overrides for one run take precedence over the saved planner, and `offline` plan without a model', async () => {
    const core = await createNodeCore({ dataDir, interactive: false });
    try {
      await new CoreApiAdapter({ core, db: core.db!, version: '0' }).saveSettings({
        providers: { planner: { preset: 'custom', baseURL, model: 'replay-model' } },
      });
      expect((await composeAgent(core, { env: {} })).planner).toMatchObject({ model: 'replay-model', baseURL });
      const flagged = await composeAgent(core, { env: {}, overrides: { model: 'other-model' } });
      expect(flagged.planner).toMatchObject({ model: 'other-model', baseURL });
      const env = { SKILLDESK_PLANNER_MODEL: 'env-model', SKILLDESK_PLANNER_BASE_URL: 'http://127.0.0.1:1/v1' };
      expect((await composeAgent(core, { env })).planner).toMatchObject({ model: 'env-model', baseURL: 'http://127.0.0.1:1/v1' });
      expect((await composeAgent(core, { env, overrides: { offline: true } })).planner).toBeUndefined();
    } finally {
      core.close();
    }
  });
});
