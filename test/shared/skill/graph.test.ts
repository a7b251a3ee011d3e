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

  it('requires every action node to have a `next`: terminal nodes are the only sinks', () => {
    const message = (id: string) =>
      `node \`${id}\` has no \`next\`: end the path at a terminal node (\`next: done\` and \`done: { terminal: success }\`)`;
    // A graph with no terminal node at all: the path just stops after `b`.
    const open = parse({ start: 'a', nodes: { a: { action: 'key', key: 'Enter', next: 'b' }, b: { action: 'type_text', text: 'x' } } });
    expect(validateGraph(open)).toEqual([{ path: ['nodes', 'b'], message: message('b') }]);
    // One alternative ends at a terminal, the other dangles: only the dangling node is reported.
    const half = parse({
      start: 'a',
      nodes: {
        a: { action: 'wait', ms: 0, next: ['b', 'c'] },
        b: { action: 'wait', ms: 0, next: 'done' },
        c: { action: 'wait', ms: 0 },
        done: { terminal: 'success' },
      },
    });
    expect(validateGraph(half)).toEqual([{ path: ['nodes', 'c'], message: message('c') }]);
    // A single action node with no terminal.
    expect(validateGraph(parse({ start: 'a', nodes: { a: { action: 'key', key: 'Enter' } } }))).toEqual([
      { path: ['nodes', 'a'], message: message('a') },
    ]);
    // Reported alongside other structural problems, and with unreachable nodes.
    const broken = parse({ start: 'a', nodes: { a: { action: 'wait', ms: 0, next: 'nope' }, lone: { action: 'wait', ms: 0 } } });
    expect(validateGraph(broken).map((p) => p.message)).toEqual(['edge to unknown node `nope`', message('lone')]);
    // Every path ending at a terminal node (success or failure) is fine.
    const closed = parse({
      start: 'a',
      nodes: {
        a: { action: 'wait', ms: 0, next: [{ to: 'b', weight: 2 }, 'fail'] },
        b: { action: 'key', key: 'Enter', next: 'done' },
        done: { terminal: 'success' },
        fail: { terminal: 'failure', message: 'no' },
      },
    });
    expect(validateGraph(closed)).toEqual([]);
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
