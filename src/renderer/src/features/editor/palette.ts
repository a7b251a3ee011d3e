import { PRIMITIVE_ACTIONS, PRIMITIVES, type GraphNode, type PaletteGroup, type PrimitiveAction } from '../../../../shared/skill';

export type PaletteItem = { kind: 'action'; action: PrimitiveAction } | { kind: 'terminal'; outcome: 'success' | 'failure' };

const GROUP_TITLES: Record<PaletteGroup, string> = {
  window: 'Windows',
  keyboard: 'Keyboard',
  pointer: 'Pointer',
  flow: 'Flow',
  data: 'Data and scripts',
  web: 'Web pages',
};

/** The palette's sections, from the primitive table: each action with its one-line doc. */
export const PALETTE_SECTIONS: { title: string; actions: { action: PrimitiveAction; doc: string }[] }[] = (
  Object.keys(GROUP_TITLES) as PaletteGroup[]
).map((group) => ({
  title: GROUP_TITLES[group],
  actions: PRIMITIVE_ACTIONS.filter((a) => PRIMITIVES[a].group === group).map((action) => ({ action, doc: PRIMITIVES[action].doc })),
}));

/** A fresh node for a palette item (the primitive's sample values), with an id not yet used in the graph. */
export function newNode(item: PaletteItem, taken: ReadonlySet<string>, position: { x: number; y: number }): GraphNode {
  const base = item.kind === 'action' ? item.action : item.outcome === 'success' ? 'done' : 'failed';
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  return item.kind === 'action'
    ? { id, kind: 'action', primitive: structuredClone(PRIMITIVES[item.action].sample), position }
    : { id, kind: 'terminal', outcome: item.outcome, position };
}
