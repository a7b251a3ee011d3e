import { describe, expect, it } from 'vitest';
import { Agent, MemoryAgentMemory, type AgentAction, type Planner, type SkillRunner } from '../../../../src/main/services/agent';
import type { RunRequest, RunResult } from '../../../../src/main/services/executor';

/** A runner that records requests and answers with a scripted status (the executor is tested elsewhere). */
function recordingRunner(status: (req: RunRequest, n: number) => RunResult['status'] = () => 'succeeded') {
  const requests: RunRequest[] = [];
  const runner: SkillRunner = {
    run: async (req) => {
      requests.push(req);
      const s = status(req, requests.length);
      return {
        runId: `r${requests.length}`,
        status: s,
        skillId: req.skill,
        args: req.args ?? {},
        steps: [],
        startedAt: 1,
        endedAt: 2,
        dryRun: false,
        ...(s !== 'succeeded' && { error: { code: 'x', message: 'window not found' } }),
      };
    },
  };
  return { runner, requests };
}

const always = (action: AgentAction): Planner => ({ kind: 'llm', next: async () => action });

describe('src/main/services/agent/Agent', () => {
  it('stops on a repeated identical action', async () => {
    const { runner, requests } = recordingRunner();
    const r = await new Agent({
      planner: always({ kind: 'run', skill: 'TextEditor.copy', args: {}, intent: 'copy', reason: 'r' }),
      runner,
    }).run('copy', { maxRepeats: 2 });
    expect(r.outcome).toBe('repeated_action');
    expect(requests).toHaveLength(2);
  });

  it('stops at the step budget', async () => {
    let n = 0;
    const planner: Planner = {
      kind: 'llm',
      next: async () => ({
        kind: 'run',
        skill: 'Desktop.press_key',
        args: { key: String.fromCharCode(97 + n++) },
        intent: 'press',
        reason: 'r',
      }),
    };
    const { runner } = recordingRunner();
    const r = await new Agent({ planner, runner }).run('press keys', { maxSteps: 3 });
    expect(r.outcome).toBe('step_budget');
    expect(r.steps).toHaveLength(3);
  });

  it('stops before the next step when aborted, and remembers failures with their errors', async () => {
    const ac = new AbortController();
    const { runner } = recordingRunner(() => {
      ac.abort();
      return 'failed';
    });
    const memory = new MemoryAgentMemory();
    let titles = ['Untitled - Notepad', 'Save As'];
    const r = await new Agent({
      planner: always({ kind: 'run', skill: 'TextEditor.save_as', args: { path: '/tmp/a' }, intent: 'save', reason: 'r' }),
      runner,
      memory,
      observe: async () => titles.shift(),
    }).run('save', { signal: ac.signal });
    expect(r.outcome).toBe('aborted');
    expect(memory.entries).toHaveLength(1);
    expect(memory.entries[0]!.outcome).toBe('failed');
    expect(memory.entries[0]!.summary).toBe(
      'TextEditor.save_as failed: window not found. Focused window changed from "Untitled - Notepad" to "Save As".',
    );
    titles = [];
  });

  it('ends with asked_user carrying the question', async () => {
    const { runner } = recordingRunner();
    const r = await new Agent({ planner: always({ kind: 'ask_user', question: 'Which file?' }), runner }).run('open my file');
    expect(r).toMatchObject({ outcome: 'asked_user', message: 'Which file?' });
  });

  it('shows earlier session memory to the planner', async () => {
    const memory = new MemoryAgentMemory();
    const { runner } = recordingRunner();
    const seen: number[] = [];
    let calls = 0;
    const planner: Planner = {
      kind: 'llm',
      next: async (s) => {
        seen.push(s.earlier.length);
        return calls++ % 2 === 0
          ? { kind: 'run', skill: 'TextEditor.copy', args: {}, intent: 'copy', reason: 'r' }
          : { kind: 'finish', reason: 'done' };
      },
    };
    const agent = new Agent({ planner, runner, memory, sessionId: 'sess' });
    await agent.run('first');
    await agent.run('second');
    expect(seen).toEqual([0, 0, 1, 1]);
  });
});
