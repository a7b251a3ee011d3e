import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createEditorStore } from '../../../../src/renderer/src/features/editor/editorStore';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { BUILTIN_SKILLS, libraryBridge } from '../../helpers/libraryBridge';

describe('src/renderer/src/features/editor/editorStore', () => {
  let userDir: string;
  beforeEach(() => {
    userDir = mkdtempSync(join(tmpdir(), 'skilldesk-editor-'));
  });
  afterEach(() => rmSync(userDir, { recursive: true, force: true }));

  async function opened(id = 'mousepad.save_as') {
    const b = libraryBridge(userDir);
    const store = createEditorStore(b.bridge);
    await store.getState().open(id);
    return { store, ...b };
  }

  it('opens a skill as React Flow nodes and edges with no problems', async () => {
    const { store } = await opened();
    const s = store.getState();
    expect(s.meta?.id).toBe('mousepad.save_as');
    expect(s.nodes.map((n) => n.id)).toContain('dialog');
    expect(s.edges.some((e) => e.source === 'name' && e.data?.when !== undefined && e.data.weight === 2)).toBe(true);
    expect(s.problems).toEqual([]);
    expect(s.readOnly).toBe(false);
    expect(s.nodes.find((n) => n.id === 'focus')?.data.isStart).toBe(true);
  });

  it('flags an unreachable node that leads nowhere inline, and undo/redo move through the edit', async () => {
    const { store } = await opened();
    const id = store.getState().addNode({ kind: 'action', action: 'wait' });
    expect(store.getState().problems).toEqual([
      { where: id, message: expect.stringContaining('unreachable') },
      { where: id, message: expect.stringContaining('has no `next`: end the path at a terminal node') },
    ]);
    expect(store.getState().nodes.find((n) => n.id === id)?.data.problems).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().nodes.some((n) => n.id === id)).toBe(false);
    expect(store.getState().problems).toEqual([]);
    store.getState().redo();
    expect(store.getState().nodes.some((n) => n.id === id)).toBe(true);
    store.getState().onConnect({ source: 'enter', target: id, sourceHandle: null, targetHandle: null });
    store.getState().onConnect({ source: id, target: 'saved', sourceHandle: null, targetHandle: null });
    expect(store.getState().problems).toEqual([]);
  });

  it('reports an edge leaving a terminal node on that edge', async () => {
    const { store } = await opened();
    store.getState().onConnect({ source: 'done', target: 'focus', sourceHandle: null, targetHandle: null });
    const edge = store.getState().edges.at(-1)!;
    expect(store.getState().problems.map((p) => p.where)).toContain('done');
    expect(store.getState().problems.some((p) => /must not have outgoing edges/.test(p.message))).toBe(true);
    expect(edge.source).toBe('done');
  });

  it('refuses to save an invalid draft without calling main', async () => {
    const { store, calls } = await opened();
    store.getState().setArgsText('path: { type: nonsense }');
    expect(store.getState().problems.some((p) => p.where === 'args')).toBe(true);
    expect(await store.getState().save()).toBe(false);
    expect(calls.some((c) => c.method === 'skillsSave')).toBe(false);
    expect(store.getState().error?.code).toBe('editor.invalid');
  });

  it('saves an edited graph to the user folder as a file the loader accepts', async () => {
    const { store } = await opened();
    const dialog = store.getState().nodes.find((n) => n.id === 'dialog')!.data.node;
    if (dialog.kind !== 'action' || dialog.primitive.action !== 'wait_for_window')
      throw new Error('fixture changed: dialog is not a wait_for_window');
    store.getState().updateNode('dialog', { ...dialog, primitive: { ...dialog.primitive, timeoutMs: 15000 } });
    store.getState().renameNode('enter', 'press_enter');
    store.getState().layout();
    expect(await store.getState().save()).toBe(true);
    const file = join(userDir, 'mousepad.save_as.yaml');
    expect(store.getState().saved?.path).toBe(file);
    expect(store.getState().dirty).toBe(false);
    const doc = parseYaml(readFileSync(file, 'utf8')) as { graph: { nodes: Record<string, unknown> } };
    expect(doc.graph.nodes.dialog).toMatchObject({ action: 'wait_for_window', timeoutMs: 15000 });
    expect(doc.graph.nodes.press_enter).toMatchObject({ action: 'key', key: 'Enter' });
    const loaded = await loadLibrary({ builtinDir: BUILTIN_SKILLS, userDir });
    expect(loaded.problems.filter((p) => p.file === file)).toEqual([]);
    expect(loaded.library.skills.get('mousepad.save_as')?.source.origin).toBe('user');
  });

  it('shows the problems main finds when the library rejects the skill', async () => {
    const { store } = await opened();
    // Valid on its own, but the implementation's arguments no longer match TextEditor.save_as.
    store.getState().setArgsText('path: { type: path }\nextra: { type: text }\n');
    expect(store.getState().problems).toEqual([]);
    expect(await store.getState().save()).toBe(false);
    expect(store.getState().error?.code).toBe('skills.invalid');
    expect(store.getState().error?.message).toMatch(/must match the signature/);
  });

  it('opens composites read-only', async () => {
    const { store } = await opened('TextEditor.write_file');
    expect(store.getState().readOnly).toBe(true);
    expect(await store.getState().save()).toBe(false);
  });

  it('highlights the node the test run is executing', async () => {
    const { store, calls } = await opened();
    await store.getState().testRun({ path: '/tmp/x.txt' }, true);
    expect(calls.find((c) => c.method === 'runStart')?.request).toMatchObject({ skill: 'mousepad.save_as', app: 'mousepad', dryRun: true });
    store.getState().handleRunEvent({
      type: 'step_started',
      runId: 'run-1',
      seq: 3,
      depth: 0,
      skillId: 'mousepad.save_as',
      nodeId: 'dialog',
      primitive: 'wait_for_window',
      resolved: {},
    });
    expect(
      store
        .getState()
        .nodes.filter((n) => n.data.running)
        .map((n) => n.id),
    ).toEqual(['dialog']);
    store.getState().handleRunEvent({
      type: 'step_started',
      runId: 'run-1',
      seq: 4,
      depth: 0,
      skillId: 'mousepad.save_as',
      nodeId: 'select',
      primitive: 'hotkey',
      resolved: {},
    });
    expect(
      store
        .getState()
        .nodes.filter((n) => n.data.running)
        .map((n) => n.id),
    ).toEqual(['select']);
    expect(
      store
        .getState()
        .nodes.filter((n) => n.data.visited)
        .map((n) => n.id)
        .sort(),
    ).toEqual(['dialog', 'select']);
    store.getState().handleRunEvent({
      type: 'run_finished',
      result: {
        runId: 'run-1',
        status: 'succeeded',
        skillId: 'mousepad.save_as',
        args: {},
        steps: [],
        startedAt: 0,
        endedAt: 1,
        dryRun: true,
      },
    });
    expect(store.getState().nodes.some((n) => n.data.running)).toBe(false);
    expect(store.getState().testStatus).toBe('succeeded');
  });
});
