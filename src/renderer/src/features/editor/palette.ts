import type { GraphNode } from '../../../../shared/skill';
import type { Primitive, PrimitiveAction } from '../../../../shared/skill';

/** Starting values for each primitive dropped from the palette; the inspector edits the rest. */
export const PRIMITIVE_TEMPLATES: { [A in PrimitiveAction]: Extract<Primitive, { action: A }> } = {
  launch: { action: 'launch' },
  focus_window: { action: 'focus_window' },
  wait_for_window: { action: 'wait_for_window', title: '.*', timeoutMs: 10_000 },
  key: { action: 'key', key: 'Enter' },
  hotkey: { action: 'hotkey', keys: ['Control', 's'] },
  type_text: { action: 'type_text', text: 'hello' },
  click: { action: 'click', target: { kind: 'text', text: 'OK' } },
  double_click: { action: 'double_click', target: { kind: 'point', x: 10, y: 10 } },
  right_click: { action: 'right_click', target: { kind: 'point', x: 10, y: 10 } },
  drag: { action: 'drag', from: { kind: 'point', x: 10, y: 10 }, to: { kind: 'point', x: 50, y: 50 } },
  scroll: { action: 'scroll', dy: 3 },
  wait: { action: 'wait', ms: 500 },
  wait_until: { action: 'wait_until', condition: { kind: 'window_title', pattern: '.*' }, timeoutMs: 10_000 },
  run_script: { action: 'run_script', interpreter: 'bash', script: 'echo done' },
  call: { action: 'call', skill: 'TextEditor.select_all' },
  read: { action: 'read', source: 'clipboard', into: 'result' },
};

export type PaletteItem = { kind: 'action'; action: PrimitiveAction } | { kind: 'terminal'; outcome: 'success' | 'failure' };

/** A fresh node for a palette item, with an id not yet used in the graph. */
export function newNode(item: PaletteItem, taken: ReadonlySet<string>, position: { x: number; y: number }): GraphNode {
  const base = item.kind === 'action' ? item.action : item.outcome === 'success' ? 'done' : 'failed';
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  return item.kind === 'action'
    ? { id, kind: 'action', primitive: structuredClone(PRIMITIVE_TEMPLATES[item.action]), position }
    : { id, kind: 'terminal', outcome: item.outcome, position };
}
