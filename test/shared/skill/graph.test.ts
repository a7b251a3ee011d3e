import { describe, expect, it } from 'vitest';
import { callEdges, GraphSchema, graphToFileForm, outEdges, validateGraph } from '../../../src/shared/skill/graph';

const parse = (g: unknown) => GraphSchema.parse(g);

describe('src/shared/skill/graph', () => {
  it('normalises flat nodes with next into nodes and edges, and back', () => {
    const g = parse({
      start: 'a',
      nodes: {
        a: { action: 'key', key: 'Enter', next: [{ to: 'b', weight: 2 }, 'c'] },
        b: { terminal: 'success' },
        c: { action: 'wait', ms: 1 },
      },
    });
    expect(g.edges).toEqual([
      { from: 'a', to: 'b', weight: 2 },
      { from: 'a', to: 'c' },
    ]);
    expect(parse(graphToFileForm(g))).toEqual(g);
  });

  it('orders alternatives by weight, stable for ties', () => {
    const g = parse({
      start: 'a',
      nodes: {
        a: { action: 'wait', ms: 0, next: ['x', { to: 'y', weight: 3 }, 'z'] },
        x: { action: 'wait', ms: 0 },
        y: { action: 'wait', ms: 0 },
        z: { action: 'wait', ms: 0 },
      },
    });
    expect(outEdges(g, 'a').map((e) => e.to)).toEqual(['y', 'x', 'z']);
  });

  it('finds unknown targets, unreachable nodes, cycles and terminals with exits', () => {
    const g = parse({
      start: 'a',
      nodes: {
        a: { action: 'wait', ms: 0, next: 'b' },
        b: { action: 'wait', ms: 0, next: 'a' },
        lone: { action: 'wait', ms: 0 },
        t: { terminal: 'failure' },
      },
      edges: [{ from: 't', to: 'a' }],
    });
    const messages = validateGraph(g).map((p) => p.message);
    expect(messages).toContain('terminal node `t` must not have outgoing edges');
    const g2 = parse({
      start: 'a',
      nodes: { a: { action: 'wait', ms: 0, next: 'b' }, b: { action: 'wait', ms: 0, next: 'a' }, lone: { action: 'wait', ms: 0 } },
    });
    const m2 = validateGraph(g2).map((p) => p.message);
    expect(m2).toContainEqual(expect.stringContaining('cycle'));
    expect(m2).toContain('node `lone` is unreachable from start `a`');
    expect(validateGraph(parse({ start: 'a', nodes: { a: { action: 'wait', ms: 0, next: 'nope' } } })).map((p) => p.message)).toContain(
      'edge to unknown node `nope`',
    );
  });

  it('rejects unknown primitive fields with the path of the field', () => {
    const r = GraphSchema.safeParse({ start: 'a', nodes: { a: { action: 'hotkey', keyz: ['a', 'b'] } } });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('nodes.a');
  });

  it('lists the call edges in node order with their node and arguments, and nothing else', () => {
    const g = parse({
      start: 'a',
      nodes: {
        a: { action: 'call', skill: 'Editor.type', args: { text: '${text}' }, next: 'b' },
        b: { action: 'key', key: 'Enter', next: 'c' },
        c: { action: 'call', skill: 'ed.save', next: 'd' },
        d: { terminal: 'success' },
      },
    });
    expect(callEdges(g)).toEqual([
      { nodeId: 'a', call: { action: 'call', skill: 'Editor.type', args: { text: '${text}' } } },
      { nodeId: 'c', call: { action: 'call', skill: 'ed.save' } },
    ]);
    expect(callEdges(parse({ start: 'a', nodes: { a: { action: 'key', key: 'Enter' } } }))).toEqual([]);
  });
});
