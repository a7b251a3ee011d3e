import { describe, expect, it } from 'vitest';
import { compositionApps, compositionSubgraph } from '../../../../src/renderer/src/features/library/compositionFilter';
import type { CompositionView } from '../../../../src/shared/ipc';

const comp: CompositionView = {
  nodes: [
    { id: 'Doc.save_as', kind: 'interface_method' },
    { id: 'Doc.open', kind: 'interface_method' },
    { id: 'Doc.write', kind: 'composite' },
    { id: 'ed.save_as', kind: 'implementation', app: 'ed' },
    { id: 'pad.save_as', kind: 'implementation', app: 'pad' },
    { id: 'pad.open', kind: 'implementation', app: 'pad' },
    { id: 'calc.add', kind: 'implementation', app: 'calc' },
  ],
  edges: [
    { from: 'Doc.save_as', to: 'ed.save_as' },
    { from: 'Doc.save_as', to: 'pad.save_as' },
    { from: 'Doc.open', to: 'pad.open' },
    { from: 'Doc.write', to: 'Doc.save_as' },
  ],
  mayFollow: [
    { from: 'ed.save_as', to: 'pad.open', facts: ['file_exists'], acrossApps: true },
    { from: 'pad.save_as', to: 'pad.open', facts: ['file_exists'], acrossApps: false },
  ],
};

describe('src/renderer/src/features/library/compositionFilter', () => {
  it("keeps an app's skills, their interface methods, the composites calling them and, on demand, may-follow edges touching them", () => {
    const ed = compositionSubgraph(comp, 'ed', false);
    expect(ed.nodes.map((n) => n.id).sort()).toEqual(['Doc.save_as', 'Doc.write', 'ed.save_as']);
    expect(ed.edges).toEqual([
      { from: 'Doc.save_as', to: 'ed.save_as' },
      { from: 'Doc.write', to: 'Doc.save_as' },
    ]);
    expect(ed.mayFollow).toEqual([]);
    const edFollow = compositionSubgraph(comp, 'ed', true);
    // The other end of an edge across apps comes along.
    expect(edFollow.nodes.map((n) => n.id)).toContain('pad.open');
    expect(edFollow.mayFollow).toEqual([comp.mayFollow[0]]);
    expect(compositionSubgraph(comp, undefined, false)).toEqual({ ...comp, mayFollow: [] });
    expect(compositionSubgraph(comp, undefined, true)).toEqual(comp);
    expect(compositionApps(comp)).toEqual(['calc', 'ed', 'pad']);
  });
});
