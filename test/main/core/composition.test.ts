import { describe, expect, it } from 'vitest';
import { graphDigest, storedCompositionGraph } from '../../../src/main/core/composition';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { storedGraphDigest } from '../../../src/main/services/store';
import { compositionGraph } from '../../../src/shared/skill';
import { useTempStores } from '../services/store/helpers/tempDir';

const temp = useTempStores();

describe('src/main/core/composition', () => {
  it('keeps the shipped library graph in the store and gives back what compositionGraph computes, whole and per app', async () => {
    const { library } = await loadLibrary({ builtinDir: 'skills' });
    const store = temp.open();
    const whole = storedCompositionGraph(library, store.db);
    expect(storedGraphDigest(store.db)).toBe(graphDigest(library));
    const computed = compositionGraph(library);
    expect(whole.nodes).toEqual(computed.nodes);
    expect(new Set(whole.mayFollow.map((e) => JSON.stringify(e)))).toEqual(new Set(computed.mayFollow.map((e) => JSON.stringify(e))));
    expect(whole.calls.length).toBe(computed.calls.length);
    const mousepad = storedCompositionGraph(library, store.db, 'mousepad');
    const expected = compositionGraph(library, 'mousepad');
    expect(new Set(mousepad.nodes.map((n) => `${n.skill}@${n.app}`))).toEqual(new Set(expected.nodes.map((n) => `${n.skill}@${n.app}`)));
    expect(mousepad.mayFollow.length).toBe(expected.mayFollow.length);
  }, 60_000);

  it('rebuilds the stored graph when the library changes', async () => {
    const { library } = await loadLibrary({ builtinDir: 'skills' });
    const store = temp.open();
    storedCompositionGraph(library, store.db);
    const before = storedGraphDigest(store.db);
    // A postcondition dropped: the digest changes, and the stored graph follows.
    const skill = library.skills.get('mousepad.save_as')!;
    (skill as { conditions: unknown }).conditions = { pre: skill.conditions.pre, post: [] };
    const after = storedCompositionGraph(library, store.db);
    expect(storedGraphDigest(store.db)).not.toBe(before);
    expect(after.mayFollow.some((e) => e.from.skill === 'mousepad.save_as')).toBe(false);
  }, 60_000);
});
