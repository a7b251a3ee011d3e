import { describe, expect, it } from 'vitest';
import { LibraryDocSchema, SkillLibrary, type SourcedDoc } from '../../../src/shared/skill';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { edApp } from '../../helpers/libraryDocs';

const source = { file: 'test.yaml', origin: 'builtin' as const };
const doc = (d: unknown): SourcedDoc => ({ doc: LibraryDocSchema.parse(d), source });
const method = { description: 'd', intents: ['i'], args: {} };
const graph = { start: 'a', nodes: { a: { action: 'key', key: 'Enter', next: 'done' }, done: { terminal: 'success' } } };
const keys = [{ capability: 'input.keyboard', effect: 'allow' }];

describe('src/shared/skill/library (interface inheritance)', () => {
  it('resolves an inherited method through the child interface, for apps declaring only the child', () => {
    const library = new SkillLibrary([
      doc({ kind: 'interface', id: 'Base', description: 'b', methods: { save: method } }),
      doc({ kind: 'interface', id: 'Child', description: 'c', extends: ['Base'], methods: { type: method } }),
      doc(edApp(['Child'])),
      // Named through the child: stored under the owner's name.
      doc({ kind: 'skill', id: 'ed.save', app: 'ed', implements: 'Child.save', permissions: keys, graph }),
    ]);
    expect(library.errors).toEqual([]);
    expect(library.canonicalRef('Child.save')).toBe('Base.save');
    expect(library.canonicalRef('Child.type')).toBe('Child.type');
    expect(library.skills.get('ed.save')?.implements).toBe('Base.save');
    expect(library.resolve('Child.save', 'ed').id).toBe('ed.save');
    expect(library.resolve('Base.save', 'ed').id).toBe('ed.save');
    expect(library.appImplements('ed', 'Base')).toBe(true);
    expect(library.implementers('Base')).toEqual(['ed']);
    expect(library.methodNames('Child').sort()).toEqual(['save', 'type']);
    expect(library.list({ domain: 'Child' }).map((s) => s.id)).toEqual(['ed.save']);
  });

  it('reports an unknown parent, a cycle and a method declared twice in one lineage', () => {
    const library = new SkillLibrary([
      doc({ kind: 'interface', id: 'A', description: 'a', extends: ['B'], methods: { go: method } }),
      doc({ kind: 'interface', id: 'B', description: 'b', extends: ['A'], methods: { stop: method } }),
      doc({ kind: 'interface', id: 'C', description: 'c', extends: ['Nope'], methods: {} }),
      doc({ kind: 'interface', id: 'D', description: 'd', extends: ['B'], methods: { go: method } }),
    ]);
    const messages = library.errors.map((p) => p.message);
    expect(messages).toContain('unknown interface `Nope`');
    expect(messages.some((m) => /a cycle/.test(m))).toBe(true);
    expect(messages).toContain('`go` is inherited from `A`; declare a method once, on the interface that owns it');
  });

  it('ships TextEditor as a Document: its file methods are Document methods, and old names still dispatch', async () => {
    const { library } = await loadLibrary({ builtinDir: 'skills' });
    expect(library.interfaces.get('TextEditor')?.extends).toEqual(['Document']);
    for (const m of ['new_document', 'open_file', 'save_as']) {
      expect(library.canonicalRef(`TextEditor.${m}`)).toBe(`Document.${m}`);
      expect(library.resolve(`TextEditor.${m}`, 'mousepad').id).toBe(`mousepad.${m}`);
    }
  });
});
