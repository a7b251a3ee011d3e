import { addEdge, applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { IpcError, RunEventView, SkillDeskBridge } from '../../../../shared/ipc';
import type { GraphNode } from '../../../../shared/skill';
import {
  edgeLabel,
  flowEdge,
  fromFlow,
  toFlow,
  toSkillDoc,
  toYaml,
  validateDraft,
  type EdgeData,
  type FlowEdge,
  type FlowNode,
  type Problem,
  type SkillMeta,
} from './graphModel';
import { autoLayout } from './layout';
import { newNode, type PaletteItem } from './palette';

export type EditorBridge = Pick<SkillDeskBridge, 'skillsGet' | 'skillsSave' | 'runStart'>;

interface Snapshot {
  start: string;
  nodes: FlowNode[];
  edges: FlowEdge[];
  argsText: string;
  permissionsText: string;
}

export interface EditorState extends Snapshot {
  meta?: SkillMeta;
  /** The skill is a composite (defined on an interface): shown, not saved. */
  readOnly: boolean;
  problems: Problem[];
  past: Snapshot[];
  future: Snapshot[];
  dirty: boolean;
  saving: boolean;
  saved?: { path: string; at: number };
  error?: IpcError;
  selection?: { kind: 'node' | 'edge'; id: string };
  /** The node the test run is executing now. */
  runningNode?: string;
  testRunId?: string;
  testStatus?: string;
  open(id: string): Promise<void>;
  onNodesChange(changes: NodeChange<FlowNode>[]): void;
  onEdgesChange(changes: EdgeChange<FlowEdge>[]): void;
  onConnect(c: Connection): void;
  addNode(item: PaletteItem, position?: { x: number; y: number }): string;
  updateNode(id: string, node: GraphNode): void;
  renameNode(id: string, newId: string): void;
  updateEdge(id: string, data: Pick<EdgeData, 'when' | 'weight' | 'label'>): void;
  setStart(id: string): void;
  setArgsText(text: string): void;
  setPermissionsText(text: string): void;
  select(sel: EditorState['selection']): void;
  layout(): void;
  undo(): void;
  redo(): void;
  save(): Promise<boolean>;
  testRun(args: Record<string, string | number | boolean>, dryRun: boolean): Promise<void>;
  handleRunEvent(e: RunEventView): void;
}

const HISTORY_LIMIT = 100;

/** The graph editor's state: React Flow nodes/edges, undo/redo, inline validation, save and test run. */
export function createEditorStore(bridge: EditorBridge): StoreApi<EditorState> {
  return createStore<EditorState>((set, get) => {
    const snapshot = (): Snapshot => {
      const { start, nodes, edges, argsText, permissionsText } = get();
      return { start, nodes, edges, argsText, permissionsText };
    };
    /** Re-validates and decorates nodes/edges with their problems. */
    const revalidate = (s: Snapshot): Pick<EditorState, 'problems' | 'nodes' | 'edges'> => {
      const meta = get().meta;
      if (!meta) return { problems: [], nodes: s.nodes, edges: s.edges };
      const graph = fromFlow(s.start, s.nodes, s.edges);
      const { problems } = validateDraft(
        meta,
        graph,
        s.argsText,
        s.permissionsText,
        s.edges.map((e) => e.id),
      );
      const running = get().runningNode;
      return {
        problems,
        nodes: s.nodes.map((n) => ({
          ...n,
          data: {
            ...n.data,
            isStart: n.id === s.start,
            running: n.id === running,
            problems: problems.filter((p) => p.where === n.id).map((p) => p.message),
          },
        })),
        edges: s.edges.map((e) => ({
          ...e,
          data: { ...(e.data ?? { problems: [] }), problems: problems.filter((p) => p.where === e.id).map((p) => p.message) },
        })),
      };
    };
    /** Applies an edit as one undoable step. */
    const commit = (next: Partial<Snapshot>): void => {
      const before = snapshot();
      const after = { ...before, ...next };
      set({
        ...after,
        ...revalidate(after),
        past: [...get().past, before].slice(-HISTORY_LIMIT),
        future: [],
        dirty: true,
        saved: undefined,
      });
    };
    const restore = (s: Snapshot): void => set({ ...s, ...revalidate(s), dirty: true });

    return {
      start: '',
      nodes: [],
      edges: [],
      argsText: '{}\n',
      permissionsText: '[]\n',
      readOnly: true,
      problems: [],
      past: [],
      future: [],
      dirty: false,
      saving: false,
      async open(id) {
        const r = await bridge.skillsGet({ id });
        if (!r.ok) return set({ error: r.error });
        const s = r.value;
        const { nodes, edges } = toFlow(s.graph);
        const positioned = s.graph.nodes.every((n) => n.position) ? nodes : autoLayout(nodes, edges);
        const meta: SkillMeta = {
          id: s.id,
          app: s.app ?? '',
          version: s.version,
          description: s.description,
          intents: s.intents,
          ...(s.implements && s.kind === 'implementation' && { implements: s.implements }),
          ...(s.returns && { returns: s.returns }),
          ...(s.verify && { verify: s.verify }),
        };
        const snap: Snapshot = {
          start: s.graph.start,
          nodes: positioned,
          edges,
          argsText: toYaml(s.args),
          permissionsText: toYaml(s.permissions),
        };
        set({
          meta,
          readOnly: !s.editable,
          past: [],
          future: [],
          dirty: false,
          saved: undefined,
          error: undefined,
          selection: undefined,
          runningNode: undefined,
          testStatus: undefined,
          ...snap,
        });
        set(revalidate(snap));
      },
      onNodesChange(changes) {
        // Drags and selection are not undo steps; removals and the end of a drag are.
        const structural = changes.some((c) => c.type === 'remove' || (c.type === 'position' && c.dragging === false));
        const nodes = applyNodeChanges(changes, get().nodes);
        const removed = new Set(changes.filter((c) => c.type === 'remove').map((c) => c.id));
        const edges = removed.size ? get().edges.filter((e) => !removed.has(e.source) && !removed.has(e.target)) : get().edges;
        if (structural) commit({ nodes, edges });
        else set({ nodes });
      },
      onEdgesChange(changes) {
        const edges = applyEdgeChanges(changes, get().edges);
        if (changes.some((c) => c.type === 'remove')) commit({ edges });
        else set({ edges });
      },
      onConnect(c) {
        if (!c.source || !c.target) return;
        const id = `e-${c.source}-${c.target}-${Date.now().toString(36)}`;
        commit({ edges: addEdge({ ...flowEdge({ from: c.source, to: c.target }, id) }, get().edges) });
      },
      addNode(item, position) {
        const taken = new Set(get().nodes.map((n) => n.id));
        const maxY = Math.max(0, ...get().nodes.map((n) => n.position.y));
        const node = newNode(item, taken, position ?? { x: 40, y: maxY + 100 });
        const flow: FlowNode = {
          id: node.id,
          type: 'skill',
          position: node.position!,
          data: { node, problems: [], running: false, isStart: false },
        };
        commit({ nodes: [...get().nodes, flow], ...(get().nodes.length === 0 && { start: node.id }) });
        set({ selection: { kind: 'node', id: node.id } });
        return node.id;
      },
      updateNode(id, node) {
        commit({ nodes: get().nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, node: { ...node, id } } } : n)) });
      },
      renameNode(id, newId) {
        if (!newId || newId === id || get().nodes.some((n) => n.id === newId)) return;
        const { start } = get();
        commit({
          start: start === id ? newId : start,
          nodes: get().nodes.map((n) => (n.id === id ? { ...n, id: newId, data: { ...n.data, node: { ...n.data.node, id: newId } } } : n)),
          edges: get().edges.map((e) => ({ ...e, source: e.source === id ? newId : e.source, target: e.target === id ? newId : e.target })),
        });
        set({ selection: { kind: 'node', id: newId } });
      },
      updateEdge(id, data) {
        commit({
          edges: get().edges.map((e) => {
            if (e.id !== id) return e;
            const d: EdgeData = {
              problems: e.data?.problems ?? [],
              ...(data.when && { when: data.when }),
              ...(data.weight !== undefined && { weight: data.weight }),
              ...(data.label && { label: data.label }),
            };
            const label = edgeLabel(d);
            return { ...e, data: d, label };
          }),
        });
      },
      setStart: (id) => commit({ start: id }),
      setArgsText: (argsText) => commit({ argsText }),
      setPermissionsText: (permissionsText) => commit({ permissionsText }),
      select: (selection) => set({ selection }),
      layout: () => commit({ nodes: autoLayout(get().nodes, get().edges) }),
      undo() {
        const { past, future } = get();
        const prev = past.at(-1);
        if (!prev) return;
        const now = snapshot();
        set({ past: past.slice(0, -1), future: [now, ...future] });
        restore(prev);
      },
      redo() {
        const { past, future } = get();
        const next = future[0];
        if (!next) return;
        const now = snapshot();
        set({ past: [...past, now], future: future.slice(1) });
        restore(next);
      },
      async save() {
        const { meta, readOnly, start, nodes, edges, argsText, permissionsText } = get();
        if (!meta || readOnly) return false;
        const graph = fromFlow(start, nodes, edges);
        const v = validateDraft(
          meta,
          graph,
          argsText,
          permissionsText,
          edges.map((e) => e.id),
        );
        if (v.problems.length) {
          set({
            error: {
              code: 'editor.invalid',
              message: `Fix ${v.problems.length} problem(s) before saving: ${v.problems[0]!.where}: ${v.problems[0]!.message}`,
            },
          });
          return false;
        }
        set({ saving: true, error: undefined });
        const r = await bridge.skillsSave({ doc: toSkillDoc(meta, graph, v.args ?? {}, v.permissions ?? []) });
        if (!r.ok) {
          // Main validates again (against the whole library); show its problems inline too.
          const extra = (r.error.problems ?? []).map((p): Problem => {
            const i = p.path.indexOf('nodes');
            return {
              where: i >= 0 && p.path[i + 1] !== undefined ? String(p.path[i + 1]) : 'skill',
              message: `${p.path.join('.')}: ${p.message}`,
            };
          });
          set({ saving: false, error: r.error, problems: [...get().problems, ...extra] });
          return false;
        }
        set({ saving: false, dirty: false, saved: { path: r.value.path, at: Date.now() } });
        return true;
      },
      async testRun(args, dryRun) {
        const { meta, dirty } = get();
        if (!meta) return;
        if (dirty && !get().readOnly && !(await get().save())) return;
        set({
          testStatus: 'starting',
          runningNode: undefined,
          nodes: get().nodes.map((n) => ({ ...n, data: { ...n.data, running: false, visited: false } })),
        });
        const r = await bridge.runStart({ skill: meta.id, args, dryRun, screenshots: false, ...(meta.app && { app: meta.app }) });
        if (!r.ok) return set({ testStatus: undefined, error: r.error });
        set({ testRunId: r.value.runId, testStatus: get().testStatus === 'starting' ? 'running' : get().testStatus });
      },
      handleRunEvent(e) {
        const { meta, testRunId } = get();
        if (!meta) return;
        if (
          e.type === 'step_started' &&
          e.skillId === meta.id &&
          (!testRunId || e.runId === testRunId || get().testStatus === 'starting')
        ) {
          set({ runningNode: e.nodeId, testRunId: e.runId, testStatus: 'running' });
          set({
            nodes: get().nodes.map((n) => ({
              ...n,
              data: { ...n.data, running: n.id === e.nodeId, visited: n.data.visited || n.id === e.nodeId },
            })),
          });
        } else if (e.type === 'run_finished' && e.result.runId === testRunId) {
          const failedAt = e.result.error?.skillId === meta.id ? e.result.error.nodeId : undefined;
          set({ testStatus: `${e.result.status}${e.result.error ? `: ${e.result.error.message}` : ''}`, runningNode: failedAt });
          set({ nodes: get().nodes.map((n) => ({ ...n, data: { ...n.data, running: n.id === failedAt } })) });
        }
      },
    };
  });
}
