import { Background, Controls, MiniMap, ReactFlow, type NodeTypes } from '@xyflow/react';
import { Fragment, useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useStores } from '../../app/stores';
import { Inspector } from './Inspector';
import { PALETTE_SECTIONS } from './palette';
import { SkillNode } from './SkillNode';
import { TestRunPanel } from './TestRunPanel';

const NO_SKILLS: never[] = [];

const nodeTypes: NodeTypes = { skill: SkillNode };

/** The graph editor: palette, canvas, inspector, argument/manifest editors, validation, save, test run. */
export function EditorScreen() {
  const { editor, library } = useStores();
  const skills = useStore(library, (s) => s.view?.skills) ?? NO_SKILLS;
  const e = useStore(
    editor,
    useShallow((s) => ({
      meta: s.meta,
      nodes: s.nodes,
      edges: s.edges,
      problems: s.problems,
      readOnly: s.readOnly,
      dirty: s.dirty,
      saving: s.saving,
      saved: s.saved,
      error: s.error,
      canUndo: s.past.length > 0,
      canRedo: s.future.length > 0,
      argsText: s.argsText,
      permissionsText: s.permissionsText,
    })),
  );
  const [tab, setTab] = useState<'inspector' | 'args' | 'manifest' | 'test'>('inspector');
  const api = editor.getState();

  useEffect(() => {
    const onKey = (ev: KeyboardEvent): void => {
      if (!(ev.ctrlKey || ev.metaKey) || (ev.target as HTMLElement).closest('textarea, input')) return;
      if (ev.key.toLowerCase() === 'z') {
        ev.preventDefault();
        if (ev.shiftKey) editor.getState().redo();
        else editor.getState().undo();
      }
      if (ev.key.toLowerCase() === 'y') {
        ev.preventDefault();
        editor.getState().redo();
      }
      if (ev.key.toLowerCase() === 's') {
        ev.preventDefault();
        void editor.getState().save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editor]);

  const general = useMemo(
    () => e.problems.filter((p) => !e.nodes.some((n) => n.id === p.where) && !e.edges.some((x) => x.id === p.where)),
    [e.problems, e.nodes, e.edges],
  );

  return (
    <div className="editor">
      <div className="toolbar">
        <select aria-label="skill to edit" value={e.meta?.id ?? ''} onChange={(ev) => void api.open(ev.target.value)}>
          <option value="" disabled>
            Open a skill…
          </option>
          {skills.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id}
              {s.kind === 'composite' ? ' (read-only)' : ''}
            </option>
          ))}
        </select>
        <button onClick={api.undo} disabled={!e.canUndo} title="Ctrl+Z">
          Undo
        </button>
        <button onClick={api.redo} disabled={!e.canRedo} title="Ctrl+Shift+Z">
          Redo
        </button>
        <button onClick={api.layout} disabled={!e.meta || e.readOnly}>
          Auto layout
        </button>
        <button className="primary" onClick={() => void api.save()} disabled={!e.meta || e.readOnly || e.saving || !e.dirty} title="Ctrl+S">
          {e.saving ? 'Saving…' : 'Save'}
        </button>
        <span className={e.problems.length ? 'problem-count bad' : 'problem-count good'} data-problems={e.problems.length}>
          {e.meta ? (e.problems.length ? `${e.problems.length} problem(s)` : 'valid') : ''}
        </span>
        {e.readOnly && e.meta && <span className="muted">Composite skills are defined on their interface; shown read-only.</span>}
        {e.saved && (
          <span className="ok-text" data-saved-path={e.saved.path}>
            Saved to {e.saved.path}
          </span>
        )}
        {e.dirty && !e.saved && <span className="muted">unsaved changes</span>}
      </div>
      {e.error && (
        <div className="error-box" role="alert">
          {e.error.message}
        </div>
      )}
      <div className="editor-body">
        <aside className="palette" aria-label="palette">
          {PALETTE_SECTIONS.map((section) => (
            <Fragment key={section.title}>
              <h3>{section.title}</h3>
              {section.actions.map(({ action, doc }) => (
                <button
                  key={action}
                  className="pal"
                  title={doc}
                  disabled={!e.meta || e.readOnly}
                  onClick={() => api.addNode({ kind: 'action', action })}
                >
                  {action}
                </button>
              ))}
            </Fragment>
          ))}
          <h3>Ends</h3>
          <button className="pal" disabled={!e.meta || e.readOnly} onClick={() => api.addNode({ kind: 'terminal', outcome: 'success' })}>
            success
          </button>
          <button className="pal" disabled={!e.meta || e.readOnly} onClick={() => api.addNode({ kind: 'terminal', outcome: 'failure' })}>
            failure
          </button>
          <h3>Skill calls</h3>
          <p className="muted small">
            Add <code>call</code>, then set <code>skill:</code> to an interface method such as <code>TextEditor.save_as</code>.
          </p>
        </aside>
        <div className="flow-box">
          {e.meta ? (
            <ReactFlow
              nodes={e.nodes}
              edges={e.edges}
              nodeTypes={nodeTypes}
              onNodesChange={api.onNodesChange}
              onEdgesChange={api.onEdgesChange}
              onConnect={api.onConnect}
              onNodeClick={(_, n) => {
                api.select({ kind: 'node', id: n.id });
                setTab('inspector');
              }}
              onEdgeClick={(_, x) => {
                api.select({ kind: 'edge', id: x.id });
                setTab('inspector');
              }}
              onPaneClick={() => api.select(undefined)}
              nodesDraggable={!e.readOnly}
              nodesConnectable={!e.readOnly}
              deleteKeyCode={e.readOnly ? null : ['Delete', 'Backspace']}
              fitView
              proOptions={{ hideAttribution: true }}
            >
              <Background />
              <MiniMap pannable zoomable />
              <Controls />
            </ReactFlow>
          ) : (
            <div className="empty">Open a skill to edit its execution graph.</div>
          )}
        </div>
        <aside className="side">
          <div className="tabs-inline">
            <button className={tab === 'inspector' ? 'tab active' : 'tab'} onClick={() => setTab('inspector')}>
              Inspector
            </button>
            <button className={tab === 'args' ? 'tab active' : 'tab'} onClick={() => setTab('args')}>
              Arguments
            </button>
            <button className={tab === 'manifest' ? 'tab active' : 'tab'} onClick={() => setTab('manifest')}>
              Manifest
            </button>
            <button className={tab === 'test' ? 'tab active' : 'tab'} onClick={() => setTab('test')}>
              Test run
            </button>
          </div>
          {tab === 'inspector' && <Inspector />}
          {tab === 'args' && (
            <TextSection
              label="Argument schema (YAML): each argument with its feasible domain"
              value={e.argsText}
              disabled={e.readOnly}
              onApply={api.setArgsText}
              problems={e.problems.filter((p) => p.where === 'args').map((p) => p.message)}
            />
          )}
          {tab === 'manifest' && (
            <TextSection
              label="Permission manifest (YAML): capabilities with effect and constraints"
              value={e.permissionsText}
              disabled={e.readOnly}
              onApply={api.setPermissionsText}
              problems={e.problems.filter((p) => p.where === 'permissions').map((p) => p.message)}
            />
          )}
          {tab === 'test' && <TestRunPanel key={e.meta?.id} />}
          {general.length > 0 && (
            <div className="problems-list">
              <h4>Problems</h4>
              <ul>
                {general.map((p, i) => (
                  <li key={i}>
                    <code>{p.where}</code> {p.message}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </aside>
      </div>
    </div>
  );
}

function TextSection(p: { label: string; value: string; disabled: boolean; problems: string[]; onApply: (v: string) => void }) {
  const [text, setText] = useState(p.value);
  useEffect(() => setText(p.value), [p.value]);
  return (
    <div className="inspector">
      <span className="field-name">{p.label}</span>
      <textarea className="code" rows={16} value={text} disabled={p.disabled} onChange={(ev) => setText(ev.target.value)} />
      {p.problems.map((m, i) => (
        <div key={i} className="field-error">
          {m}
        </div>
      ))}
      <button className="primary" disabled={p.disabled || text === p.value} onClick={() => p.onApply(text)}>
        Apply
      </button>
    </div>
  );
}
