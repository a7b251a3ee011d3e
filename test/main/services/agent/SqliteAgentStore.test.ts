import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, SqliteAgentMemory, SqliteAgentRunRecorder } from '../../../../src/main/services/agent';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { getRun, listMemory, listRuns, openStore, SqliteRunJournal } from '../../../../src/main/services/store';
import { testExecutor } from '../../../helpers/executor';
import { fakeDesktop } from '../../../helpers/fakeDesktop';

describe('src/main/services/agent/SqliteAgentStore', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('stores the agent run with its accounting, its skill runs as children, and memory that a later session reads back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-agent-'));
    dirs.push(dir);
    const { library } = await loadLibrary({ builtinDir: 'skills' });
    let store = openStore({ dataDir: dir });
    const runner = testExecutor({
      library,
      desktop: fakeDesktop().desktop,
      journal: new SqliteRunJournal(store.db),
    });
    const { agent } = createAgent({
      library,
      runner,
      platform: 'linux',
      memory: new SqliteAgentMemory(store.db),
      recorder: new SqliteAgentRunRecorder(store.db),
      sessionId: 'sess-1',
    });
    const report = await agent.run('type hello in mousepad then save it as /tmp/skilldesk-x.txt', { dryRun: true });
    expect(report.outcome).toBe('finished');
    const bad = await agent.run('juggle', { dryRun: true });
    expect(bad.outcome).toBe('unmapped');
    store.close();

    store = openStore({ dataDir: dir });
    const row = getRun(store.db, report.agentRunId)!;
    // The goal ran its skills dry, so it is recorded as a dry run itself (the metrics leave it out).
    expect(row).toMatchObject({ skillId: 'agent', status: 'succeeded', goal: report.goal, dryRun: true });
    expect(row.accounting).toMatchObject({ planner: 'offline', steps: 3, llm: { calls: 0 } });
    expect(getRun(store.db, bad.agentRunId)).toMatchObject({ status: 'failed', error: { code: 'agent.unmapped' } });
    const children = listRuns(store.db, { parentRunId: report.agentRunId });
    expect(children.map((c) => c.skillId).sort()).toEqual(['mousepad.save_as', 'mousepad.type_text']);
    expect(listMemory(store.db, { sessionId: 'sess-1' }).map((m) => [m.skillId, m.outcome])).toEqual([
      ['TextEditor.type_text', 'succeeded'],
      ['Document.save_as', 'succeeded'],
    ]);
    const recent = new SqliteAgentMemory(store.db).recent('sess-1', 5);
    expect(recent[1]).toMatchObject({ skill: 'Document.save_as', app: 'mousepad', args: { path: '/tmp/skilldesk-x.txt' } });
    store.close();
  });
});
