import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { parse as parseYaml } from 'yaml';
import { GuardSchema, PrimitiveSchema } from '../../../../shared/skill';
import { useStores } from '../../app/stores';
import { toYaml } from './graphModel';

/** Edits the selected node (primitive as YAML, label, screenshot) or edge (guard, weight, label). */
export function Inspector() {
  const { editor } = useStores();
  const { selection, nodes, edges, start, readOnly } = useStore(
    editor,
    useShallow((s) => ({ selection: s.selection, nodes: s.nodes, edges: s.edges, start: s.start, readOnly: s.readOnly })),
  );
  const node = selection?.kind === 'node' ? nodes.find((n) => n.id === selection.id) : undefined;
  const edge = selection?.kind === 'edge' ? edges.find((e) => e.id === selection.id) : undefined;
  const [text, setText] = useState('');
  const [idText, setIdText] = useState('');
  const [err, setErr] = useState<string>();
  const key = node ? `n:${node.id}:${JSON.stringify(node.data.node)}` : edge ? `e:${edge.id}:${JSON.stringify(edge.data)}` : '';

  useEffect(() => {
    setErr(undefined);
    if (node) {
      const n = node.data.node;
      setIdText(n.id);
      setText(n.kind === 'action' ? toYaml(n.primitive) : toYaml({ terminal: n.outcome, ...(n.message && { message: n.message }) }));
    } else if (edge) {
      setText(
        toYaml({
          ...(edge.data?.when && { when: edge.data.when }),
          ...(edge.data?.weight !== undefined && { weight: edge.data.weight }),
          ...(edge.data?.label && { label: edge.data.label }),
        }),
      );
    }
    // `key` stands for the selected element's content: reload the text only when that changes.
  }, [key]);

  if (!node && !edge)
    return (
      <p className="muted">
        Select a node or an edge to edit it. Drag from a node's bottom handle to another node to add an edge; Delete removes the selection.
      </p>
    );

  const apply = (): void => {
    let value: unknown;
    try {
      value = parseYaml(text) ?? {};
    } catch (e) {
      return setErr(`Not valid YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (node) {
      const n = node.data.node;
      if (n.kind === 'action') {
        const r = PrimitiveSchema.safeParse(value);
        if (!r.success) return setErr(r.error.issues.map((i) => `${i.path.join('.') || 'primitive'}: ${i.message}`).join('; '));
        editor.getState().updateNode(n.id, { ...n, primitive: r.data });
      } else {
        const v = value as { terminal?: unknown; message?: unknown };
        if (v.terminal !== 'success' && v.terminal !== 'failure') return setErr('Expected `terminal: success` or `terminal: failure`');
        editor.getState().updateNode(n.id, { ...n, outcome: v.terminal, ...(typeof v.message === 'string' ? { message: v.message } : {}) });
      }
    } else if (edge) {
      const v = value as { when?: unknown; weight?: unknown; label?: unknown };
      let when;
      if (v.when !== undefined) {
        const r = GuardSchema.safeParse(v.when);
        if (!r.success)
          return setErr(
            `when: ${r.error.issues[0]?.message ?? 'invalid guard'}; e.g. { arg: overwrite, equals: true } or { file_exists: '\${path}' }`,
          );
        when = r.data;
      }
      if (v.weight !== undefined && (typeof v.weight !== 'number' || v.weight <= 0))
        return setErr(`Expected \`weight\` to be a positive number, got \`${String(v.weight)}\``);
      editor.getState().updateEdge(edge.id, {
        ...(when && { when }),
        ...(typeof v.weight === 'number' && { weight: v.weight }),
        ...(typeof v.label === 'string' && { label: v.label }),
      });
    }
    setErr(undefined);
  };

  return (
    <div className="inspector">
      {node ? (
        <>
          <label className="field">
            <span className="field-name">Node id</span>
            <input
              aria-label="node id"
              value={idText}
              disabled={readOnly}
              onChange={(e) => setIdText(e.target.value)}
              onBlur={() => editor.getState().renameNode(node.id, idText.trim())}
            />
          </label>
          <div className="row">
            {start === node.id ? (
              <span className="start-tag">start node</span>
            ) : (
              <button disabled={readOnly} onClick={() => editor.getState().setStart(node.id)}>
                Make start
              </button>
            )}
            {node.data.node.kind === 'action' && (
              <label className="check">
                <input
                  type="checkbox"
                  disabled={readOnly}
                  checked={node.data.node.screenshot === true}
                  onChange={(e) => {
                    const n = node.data.node;
                    if (n.kind === 'action')
                      editor.getState().updateNode(n.id, { ...n, screenshot: e.target.checked || undefined } as typeof n);
                  }}
                />{' '}
                screenshot after
              </label>
            )}
          </div>
          <span className="field-name">{node.data.node.kind === 'action' ? 'Primitive (YAML)' : 'Terminal (YAML)'}</span>
        </>
      ) : (
        <span className="field-name">
          Edge {edge!.source} → {edge!.target}: guard <code>when</code>, <code>weight</code>, <code>label</code> (YAML)
        </span>
      )}
      <textarea
        aria-label="inspector yaml"
        className="code"
        rows={8}
        value={text}
        disabled={readOnly}
        onChange={(e) => setText(e.target.value)}
      />
      {err && (
        <div className="field-error" role="alert">
          {err}
        </div>
      )}
      {(node?.data.problems ?? edge?.data?.problems ?? []).map((p, i) => (
        <div key={i} className="field-error">
          {p}
        </div>
      ))}
      <div className="row">
        <button className="primary" disabled={readOnly} onClick={apply}>
          Apply
        </button>
        <button
          disabled={readOnly}
          onClick={() => {
            if (node) editor.getState().onNodesChange([{ type: 'remove', id: node.id }]);
            else if (edge) editor.getState().onEdgesChange([{ type: 'remove', id: edge.id }]);
            editor.getState().select(undefined);
          }}
        >
          Delete
        </button>
      </div>
    </div>
  );
}
