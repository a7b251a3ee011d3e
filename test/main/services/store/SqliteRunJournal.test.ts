import { describe, expect, it } from 'vitest';
import { getRun, getSteps, listRuns, SqliteRunJournal } from '../../../../src/main/services/store';
import type { ActionMediator } from '../../../../src/shared/ports/mediation';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const DOCS = [
  `
kind: interface
id: Editor
description: test editor
methods:
  type:
    description: type
    intents: ['type \${text}']
    args: { text: { type: text } }
`,
  `
kind: app
id: ed
name: ed
platforms: [linux]
launch: { command: ed }
windows: { process: '^ed$', title: 'ed$' }
implements: [Editor]
`,
  `
kind: skill
id: ed.type
app: ed
implements: Editor.type
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: typing }
    typing: { action: type_text, text: '\${text}', next: done }
    done: { terminal: success }
`,
];

function executor(journal: SqliteRunJournal, mediator: ActionMediator) {
  const fake = fakeDesktop({ windows: [win('w1', 'doc - ed', 'ed')] });
  return testExecutor({ library: libraryOf(...DOCS), desktop: fake.desktop, mediator, journal });
}

describe('src/main/services/store/SqliteRunJournal', () => {
  it('journals a real executor run and its steps into the SQLite file', async () => {
    const store = temp.open();
    const result = await executor(new SqliteRunJournal(store.db, 'session-1'), { check: async () => ({ effect: 'allow' }) }).run({
      skill: 'Editor.type',
      app: 'ed',
      args: { text: 'héllo\t"x"' },
      goal: 'say hello',
    });
    expect(result.status).toBe('succeeded');
    expect(getRun(store.db, result.runId)).toMatchObject({
      skillId: 'ed.type',
      app: 'ed',
      sessionId: 'session-1',
      status: 'succeeded',
      goal: 'say hello',
      args: { text: 'héllo\t"x"' },
      endedAt: result.endedAt,
    });
    expect(getSteps(store.db, result.runId).map((s) => [s.seq, s.nodeId, s.primitive, s.outcome])).toEqual(
      result.steps.map((s) => [s.seq, s.nodeId, s.primitive, s.outcome]),
    );
    expect(getSteps(store.db, result.runId).find((s) => s.nodeId === 'typing')?.resolvedArgs).toMatchObject({ text: 'héllo\t"x"' });
  });

  it('journals a denied run with its error and the denied step', async () => {
    const store = temp.open();
    const deny: ActionMediator = {
      check: async (req) =>
        req.primitive.action === 'type_text'
          ? { effect: 'deny', code: 'permission.denied', reason: 'no keyboard here' }
          : { effect: 'allow' },
    };
    const result = await executor(new SqliteRunJournal(store.db), deny).run({ skill: 'ed.type', args: { text: 'x' } });
    expect(result.status).not.toBe('succeeded');
    const [run] = listRuns(store.db, { skill: 'ed.type' });
    expect(run).toMatchObject({ id: result.runId, status: result.status, error: { code: result.error?.code } });
    expect(getSteps(store.db, result.runId).at(-1)).toMatchObject({ nodeId: 'typing', outcome: 'denied' });
  });

  it('journals each step as started before it is mediated, so a crash during the step leaves a trace', async () => {
    const store = temp.open();
    const seen: string[][] = [];
    const watching: ActionMediator = {
      check: async (req) => {
        seen.push(getSteps(store.db, req.runId).map((s) => `${s.nodeId}:${s.outcome}`));
        return { effect: 'allow' };
      },
    };
    const result = await executor(new SqliteRunJournal(store.db), watching).run({ skill: 'ed.type', args: { text: 'x' } });
    expect(result.status).toBe('succeeded');
    expect(seen).toEqual([['focus:started'], ['focus:ok', 'typing:started']]);
  });

  it('ends a started step with its run when mediation throws before an outcome is recorded', async () => {
    const store = temp.open();
    const broken: ActionMediator = {
      check: async (req) => {
        if (req.primitive.action === 'type_text') throw new Error('audit unavailable');
        return { effect: 'allow' };
      },
    };
    const result = await executor(new SqliteRunJournal(store.db), broken).run({ skill: 'ed.type', args: { text: 'x' } });
    expect(result.status).toBe('failed');
    expect(getSteps(store.db, result.runId).map((s) => [s.nodeId, s.outcome, s.error])).toEqual([
      ['focus', 'ok', null],
      ['typing', 'failed', expect.stringContaining('audit unavailable')],
    ]);
  });
});
