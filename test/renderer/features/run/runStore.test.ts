import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunStore, formArgs } from '../../../../src/renderer/src/features/run/runStore';
import type { StepView } from '../../../../src/shared/ipc';
import { libraryBridge } from '../../helpers/libraryBridge';

const step = (seq: number, nodeId: string, outcome: StepView['outcome'], extra: Partial<StepView> = {}): StepView => ({
  runId: 'run-1',
  seq,
  depth: 1,
  skillId: 'mousepad.new_document',
  nodeId,
  primitive: 'hotkey',
  resolved: { action: 'hotkey', keys: ['Control', 'n'] },
  startedAt: 1000 + seq,
  endedAt: 1010 + seq,
  outcome,
  ...extra,
});

describe('src/renderer/src/features/run/runStore', () => {
  let userDir: string;
  beforeEach(() => {
    userDir = mkdtempSync(join(tmpdir(), 'skilldesk-runstore-'));
  });
  afterEach(() => rmSync(userDir, { recursive: true, force: true }));

  it('checks arguments against their domains as they are typed', async () => {
    const { bridge } = libraryBridge(userDir);
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    expect(store.getState().skill?.apps).toContain('mousepad');
    store.getState().setValue('path', 'notes.txt');
    expect(store.getState().fieldErrors.path).toMatch(/absolute POSIX path/);
    store.getState().setValue('path', '/tmp/notes.txt');
    expect(store.getState().fieldErrors.path).toBeUndefined();
  });

  it('does not start a run while a required argument is missing', async () => {
    const { bridge, calls } = libraryBridge(userDir);
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    store.getState().setValue('path', '/tmp/a.txt');
    await store.getState().start();
    expect(store.getState().fieldErrors.text).toMatch(/required/);
    expect(calls.filter((c) => c.method === 'runStart')).toEqual([]);
  });

  it('sends typed arguments and the chosen app when the form is valid', async () => {
    const { bridge, calls } = libraryBridge(userDir);
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    store.getState().setApp('wine-notepad');
    store.getState().setValue('path', '/tmp/a.txt');
    store.getState().setValue('text', 'hi\tthere');
    await store.getState().start();
    expect(calls.find((c) => c.method === 'runStart')?.request).toMatchObject({
      skill: 'TextEditor.write_file',
      app: 'wine-notepad',
      args: { path: '/tmp/a.txt', text: 'hi\tthere' },
      dryRun: false,
    });
    expect(store.getState().run?.runId).toBe('run-1');
  });

  it('builds the live trajectory from run events, with the current node and thumbnails', async () => {
    const { bridge } = libraryBridge(userDir);
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    store.getState().setValue('path', '/tmp/a.txt');
    store.getState().setValue('text', 'x');
    await store.getState().start();
    const s = store.getState();
    s.handleEvent({
      type: 'step_started',
      runId: 'run-1',
      seq: 1,
      depth: 1,
      skillId: 'mousepad.new_document',
      nodeId: 'new',
      primitive: 'hotkey',
      resolved: {},
    });
    expect(store.getState().run?.current).toEqual({ skillId: 'mousepad.new_document', nodeId: 'new' });
    expect(store.getState().run?.steps[0]?.outcome).toBe('running');
    s.handleEvent({ type: 'step_finished', step: step(1, 'new', 'ok', { screenshotPath: '/data/screenshots/1.png' }) });
    s.handleEvent({
      type: 'step_started',
      runId: 'run-1',
      seq: 2,
      depth: 1,
      skillId: 'mousepad.new_document',
      nodeId: 'fresh',
      primitive: 'wait_for_window',
      resolved: {},
    });
    s.handleEvent({
      type: 'step_started',
      runId: 'other-run',
      seq: 9,
      depth: 0,
      skillId: 'x.y',
      nodeId: 'z',
      primitive: 'key',
      resolved: {},
    });
    await new Promise((r) => setTimeout(r, 10));
    const run = store.getState().run!;
    expect(run.steps.map((x) => [x.seq, x.outcome])).toEqual([
      [1, 'ok'],
      [2, 'running'],
    ]);
    expect(store.getState().thumbnails['/data/screenshots/1.png']).toMatch(/^data:image\/png;base64,/);
    s.handleEvent({
      type: 'run_finished',
      result: {
        runId: 'run-1',
        status: 'aborted',
        skillId: 'TextEditor.write_file',
        args: {},
        steps: [],
        startedAt: 1,
        endedAt: 2,
        dryRun: false,
        error: { code: 'run.aborted', message: 'stopped by the user' },
      },
    });
    expect(store.getState().run?.status).toBe('aborted');
    expect(store.getState().run?.steps[1]?.outcome).toBe('skipped');
    expect(store.getState().run?.error?.message).toBe('stopped by the user');
  });

  it('shows the error main returns when a run is refused', async () => {
    const { bridge } = libraryBridge(userDir, {
      runStart: async () => ({ ok: false, error: { code: 'dispatch.no_app', message: '`TextEditor.save_as` needs an app: pass --app' } }),
    });
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    store.getState().setValue('path', '/tmp/a.txt');
    store.getState().setValue('text', 'x');
    await store.getState().start();
    expect(store.getState().error?.code).toBe('dispatch.no_app');
    expect(store.getState().run).toBeUndefined();
  });

  it('converts form strings to the argument types', async () => {
    const { bridge } = libraryBridge(userDir);
    const store = createRunStore(bridge);
    await store.getState().selectSkill('TextEditor.write_file');
    expect(formArgs(store.getState().skill!, { path: '/tmp/a', text: '' })).toEqual({ path: '/tmp/a' });
  });
});
