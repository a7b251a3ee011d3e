import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLibraryStore, visibleSkills, type LibraryBridge } from '../../../../src/renderer/src/features/library/libraryStore';
import { libraryBridge } from '../../helpers/libraryBridge';

describe('src/renderer/src/features/library/libraryStore', () => {
  let userDir: string;
  beforeEach(() => {
    userDir = mkdtempSync(join(tmpdir(), 'skilldesk-library-'));
  });
  afterEach(() => rmSync(userDir, { recursive: true, force: true }));

  function store(search: LibraryBridge['librarySearch']) {
    const { bridge } = libraryBridge(userDir);
    return createLibraryStore({
      ...bridge,
      librarySearch: search,
      libraryReload: bridge.libraryGet,
      libraryComposition: async () => ({ ok: true, value: { nodes: [], edges: [], mayFollow: [] } }),
    } as LibraryBridge);
  }

  it('lists interface-method hits as their implementations, in rank order, within the filter', async () => {
    const s = store(async () => ({
      ok: true,
      value: [
        { skillId: 'Document.save_as', score: 0.9 },
        { skillId: 'Calculator.evaluate', score: 0.2 },
      ],
    }));
    await s.getState().load();
    await s.getState().search('save under a new name');
    const ids = visibleSkills(s.getState()).map((k) => k.id);
    expect(ids.slice(0, 3).every((id) => id.endsWith('.save_as'))).toBe(true);
    expect(ids).toContain('Calculator.evaluate');
    s.getState().setFilter({ app: 'mousepad' });
    expect(visibleSkills(s.getState()).map((k) => k.id)).toEqual(['mousepad.save_as']);
  });

  it('keeps the newest query when answers arrive out of order', async () => {
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const s = store(async (r) => {
      if (r.query === 'old') await slow;
      return { ok: true, value: [{ skillId: r.query === 'old' ? 'Calculator.evaluate' : 'Document.save_as', score: 1 }] };
    });
    await s.getState().load();
    const old = s.getState().search('old');
    await s.getState().search('new');
    release();
    await old;
    expect(s.getState().hits).toEqual([{ skillId: 'Document.save_as', score: 1 }]);
  });

  it('clears the search when the query is emptied', async () => {
    const s = store(async () => ({ ok: true, value: [] }));
    await s.getState().load();
    await s.getState().search('x');
    await s.getState().search('  ');
    expect(s.getState().hits).toBeUndefined();
    expect(visibleSkills(s.getState()).length).toBe(s.getState().view!.skills.length);
  });
});
