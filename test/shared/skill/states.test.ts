import { beforeAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { edApp } from '../../helpers/libraryDocs';
import {
  compositionGraph,
  FactSchema,
  LibraryDocSchema,
  mayFollowEdges,
  refineConditions,
  SkillLibrary,
  type Fact,
  type SourcedDoc,
  type StateNode,
} from '../../../src/shared/skill';

const source = { file: 'test.yaml', origin: 'builtin' as const };
const doc = (d: unknown): SourcedDoc => ({ doc: LibraryDocSchema.parse(d), source });
const graph = { start: 'a', nodes: { a: { action: 'key', key: 'Enter', next: 'done' }, done: { terminal: 'success' } } };
const keys = [{ capability: 'input.keyboard', effect: 'allow' }];
const fact = (f: Record<string, unknown>): Fact => FactSchema.parse(f);
const node = (skill: string, app: string, pre: Record<string, unknown>[], post: Record<string, unknown>[], args = {}): StateNode => ({
  skill,
  app,
  args,
  conditions: { pre: pre.map(fact), post: post.map(fact) },
});

describe('src/shared/skill/states', () => {
  it('checks each fact kind for its parameters', () => {
    expect(FactSchema.safeParse({ fact: 'file_exists' }).error?.issues[0]?.message).toBe('`file_exists` needs `path`');
    expect(FactSchema.safeParse({ fact: 'document_modified', path: 'x' }).error?.issues[0]?.message).toMatch(
      /`document_modified` takes no parameters, not `path`/,
    );
    expect(FactSchema.safeParse({ fact: 'file_is_big' }).success).toBe(false);
    expect(FactSchema.parse({ fact: 'clipboard_holds' })).toEqual({ fact: 'clipboard_holds', holds: true });
  });

  it('links a postcondition to a precondition of the same fact: app facts within their app, world facts across apps', () => {
    const nodes = [
      node('ed.save_as', 'ed', [{ fact: 'document_open' }], [{ fact: 'file_exists', path: '${path}' }], { path: { type: 'path' } }),
      node('ed.select_all', 'ed', [{ fact: 'document_open' }], [{ fact: 'selection_present' }]),
      node('ed.copy', 'ed', [{ fact: 'selection_present' }], [{ fact: 'clipboard_holds' }]),
      node('ed.new', 'ed', [], [{ fact: 'document_open' }]),
      node('other.copy', 'other', [{ fact: 'selection_present' }], []),
      node('other.paste', 'other', [{ fact: 'clipboard_holds' }], []),
      node('other.open', 'other', [{ fact: 'file_exists', path: '${file}' }], [], { file: { type: 'path' } }),
      node('ed.close', 'ed', [], [{ fact: 'document_open', holds: false }]),
    ];
    const edges = mayFollowEdges(nodes);
    const pairs = edges.map((e) => `${e.from.skill}->${e.to.skill}`).sort();
    expect(pairs).toEqual(
      [
        'ed.copy->other.paste', // the clipboard is shared
        'ed.new->ed.save_as',
        'ed.new->ed.select_all',
        'ed.save_as->other.open', // through the file it wrote
        'ed.select_all->ed.copy', // a selection is the app's own...
      ].sort(),
    );
    // ...so ed's selection does not let another app copy, and closing opens nothing.
    const open = edges.find((e) => e.to.skill === 'other.open')!;
    expect(open).toMatchObject({ facts: ['file_exists'], acrossApps: true, bind: { file: '${path}' } });
    expect(edges.find((e) => e.to.skill === 'ed.copy')).toMatchObject({ acrossApps: false, bind: {} });
  });

  it('needs agreeing parameters: equal literals, and paths that share an extension', () => {
    const pdf = { path: { type: 'path', extensions: ['.pdf'] } };
    const txt = { path: { type: 'path', extensions: ['.txt'] } };
    const edges = mayFollowEdges([
      node('a.export', 'a', [], [{ fact: 'file_exists', path: '${path}' }], pdf),
      node('b.open_txt', 'b', [{ fact: 'file_exists', path: '${path}' }], [], txt),
      node('b.open_pdf', 'b', [{ fact: 'file_exists', path: '${path}' }], [], pdf),
      node('a.set', 'a', [], [{ fact: 'registry_value', key: 'HKCU\\A', name: 'x' }]),
      node('a.read_other', 'a', [{ fact: 'registry_value', key: 'HKCU\\B', name: 'x' }], []),
      node('a.read_same', 'a', [{ fact: 'registry_value', key: 'HKCU\\A', name: 'x' }], []),
    ]);
    expect(edges.map((e) => `${e.from.skill}->${e.to.skill}`).sort()).toEqual(['a.export->b.open_pdf', 'a.set->a.read_same']);
  });

  it('refines an interface method by an implementation: its facts added, each once', () => {
    const base = { pre: [fact({ fact: 'document_open' })], post: [fact({ fact: 'document_modified' })] };
    const refined = refineConditions(base, { pre: [fact({ fact: 'document_open' }), fact({ fact: 'selection_present' })] });
    expect(refined.pre.map((f) => f.fact)).toEqual(['document_open', 'selection_present']);
    expect(refined.post.map((f) => f.fact)).toEqual(['document_modified']);
  });

  it('reports a condition naming an argument the method does not have, in the interface and in a skill', () => {
    const library = new SkillLibrary([
      doc({
        kind: 'interface',
        id: 'Doc',
        description: 'd',
        methods: {
          save_as: {
            description: 'd',
            intents: ['i'],
            args: { path: { type: 'path' } },
            post: [{ fact: 'file_exists', path: '${file}' }],
          },
        },
      }),
      doc(edApp(['Doc'])),
      doc({
        kind: 'skill',
        id: 'ed.save_as',
        app: 'ed',
        implements: 'Doc.save_as',
        pre: [{ fact: 'dialog_open', title: '${name}' }],
        permissions: keys,
        graph,
      }),
    ]);
    expect(library.errors.map((p) => [p.path.join('.'), p.message])).toEqual([
      ['methods.save_as.post.0.path', 'unknown argument `${file}` in a postcondition; arguments: path'],
      ['pre.0.title', 'unknown argument `${name}` in a precondition; arguments: path'],
    ]);
  });

  describe('on the shipped library', () => {
    let library: SkillLibrary;
    beforeAll(async () => {
      library = (await loadLibrary({ builtinDir: 'skills' })).library;
    });

    it('lets a file saved by one editor be opened by another, with the path flowing between them', () => {
      const g = compositionGraph(library, 'mousepad');
      const edge = g.mayFollow.find((e) => e.from.skill === 'geany.save_as' && e.to.skill === 'mousepad.open_file');
      expect(edge).toMatchObject({ facts: ['file_exists'], acrossApps: true, bind: { path: '${path}' } });
      // Within the app: a new document may be typed into; copying needs a selection first.
      const within = (from: string, to: string) => g.mayFollow.some((e) => e.from.skill === from && e.to.skill === to);
      expect(within('mousepad.new_document', 'mousepad.type_text')).toBe(true);
      expect(within('mousepad.select_all', 'mousepad.copy')).toBe(true);
      expect(within('mousepad.new_document', 'mousepad.copy')).toBe(false);
      // Composites are nodes on the apps they run on, with the calls they make there.
      expect(g.calls).toContainEqual({
        from: { skill: 'TextEditor.write_file', app: 'mousepad' },
        to: { skill: 'mousepad.save_as', app: 'mousepad' },
      });
      // Every edge touches mousepad.
      expect(g.mayFollow.every((e) => e.from.app === 'mousepad' || e.to.app === 'mousepad')).toBe(true);
    });
  });
});
