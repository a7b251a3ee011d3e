import { describe, expect, it } from 'vitest';
import { getSkillIndexEntry, listSkillIndex, replaceSkillIndex, type SkillIndexEntry } from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

const entry = (skillId: string, extra: Partial<SkillIndexEntry> = {}): SkillIndexEntry => ({
  skillId,
  kind: 'implementation',
  app: skillId.split('.')[0]!,
  interfaceMethod: `TextEditor.${skillId.split('.')[1]}`,
  version: '1.0.0',
  sourceFile: `skills/${skillId}.yaml`,
  contentHash: `hash-${skillId}`,
  json: { id: skillId, intents: [`do ${skillId}`] },
  ...extra,
});

describe('src/main/services/store/skillIndex', () => {
  it('replaces the whole index at once and lists it by app, kind and method', () => {
    const { db } = temp.open();
    replaceSkillIndex(db, [entry('old.skill')], 1);
    expect(
      replaceSkillIndex(
        db,
        [
          entry('mousepad.save_as'),
          entry('wine-notepad.save_as'),
          entry('mousepad.open_file'),
          entry('TextEditor.write_file', { kind: 'composite', app: null }),
          entry('TextEditor', { kind: 'interface', app: null, interfaceMethod: null }),
        ],
        2,
      ),
    ).toEqual({ count: 5 });
    expect(getSkillIndexEntry(db, 'old.skill')).toBeUndefined();
    expect(listSkillIndex(db).map((e) => e.skillId)).toEqual([
      'TextEditor',
      'TextEditor.write_file',
      'mousepad.open_file',
      'mousepad.save_as',
      'wine-notepad.save_as',
    ]);
    expect(listSkillIndex(db, { app: 'mousepad' }).map((e) => e.skillId)).toEqual(['mousepad.open_file', 'mousepad.save_as']);
    expect(listSkillIndex(db, { interfaceMethod: 'TextEditor.save_as' }).map((e) => e.app)).toEqual(['mousepad', 'wine-notepad']);
    expect(listSkillIndex(db, { kind: 'composite' }).map((e) => e.skillId)).toEqual(['TextEditor.write_file']);
    expect(getSkillIndexEntry(db, 'mousepad.save_as')).toEqual({ ...entry('mousepad.save_as'), indexedAt: 2 });
  });

  it('keeps the previous index when a batch repeats an id', () => {
    const { db } = temp.open();
    replaceSkillIndex(db, [entry('mousepad.save_as')], 1);
    expect(() => replaceSkillIndex(db, [entry('a.b'), entry('a.b', { sourceFile: 'user/a.yaml' })])).toThrow(
      expect.objectContaining({ code: 'store.duplicate_skill', message: expect.stringContaining('user/a.yaml') }),
    );
    expect(listSkillIndex(db).map((e) => e.skillId)).toEqual(['mousepad.save_as']);
  });

  it('rolls back a batch that fails half-way through the writes', () => {
    const { db } = temp.open();
    replaceSkillIndex(db, [entry('mousepad.save_as')], 1);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => replaceSkillIndex(db, [entry('a.one'), entry('a.two', { json: cyclic })])).toThrow(/JSON-serialisable/);
    expect(listSkillIndex(db).map((e) => e.skillId)).toEqual(['mousepad.save_as']);
  });
});
