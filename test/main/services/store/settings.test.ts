import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deleteSetting, getSetting, listSettings, setSetting } from '../../../../src/main/services/store';
import { useTempStores } from './helpers/tempDir';

const temp = useTempStores();

describe('src/main/services/store/settings', () => {
  it('stores any JSON value and overwrites on a second set', () => {
    const { db } = temp.open();
    setSetting(db, 'defaultApps', { TextEditor: 'mousepad' }, 1);
    setSetting(db, 'planner', { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen' }, 2);
    setSetting(db, 'defaultApps', { TextEditor: 'wine-notepad', Calculator: 'galculator' }, 3);
    setSetting(db, 'stepBudget', 12, 4);
    expect(getSetting(db, 'defaultApps')).toEqual({ TextEditor: 'wine-notepad', Calculator: 'galculator' });
    expect(getSetting(db, 'missing')).toBeUndefined();
    expect(listSettings(db)).toEqual([
      { key: 'defaultApps', value: { TextEditor: 'wine-notepad', Calculator: 'galculator' }, updatedAt: 3 },
      { key: 'planner', value: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen' }, updatedAt: 2 },
      { key: 'stepBudget', value: 12, updatedAt: 4 },
    ]);
    expect(deleteSetting(db, 'stepBudget')).toBe('deleted');
    expect(deleteSetting(db, 'stepBudget')).toBe('absent');
  });

  it('types and checks a value through a parser such as a zod schema', () => {
    const { db } = temp.open();
    const DefaultApps = z.record(z.string(), z.string());
    setSetting(db, 'defaultApps', { TextEditor: 'mousepad' });
    const apps: Record<string, string> | undefined = getSetting(db, 'defaultApps', DefaultApps.parse);
    expect(apps).toEqual({ TextEditor: 'mousepad' });
    setSetting(db, 'defaultApps', { TextEditor: 42 });
    expect(() => getSetting(db, 'defaultApps', DefaultApps.parse)).toThrow();
  });

  it('refuses a value that is not JSON', () => {
    const { db } = temp.open();
    expect(() => setSetting(db, 'k', undefined)).toThrow('Expected `k` to be a JSON value, got `undefined` (undefined)');
    expect(() => setSetting(db, 'k', 1n)).toThrow(/to be JSON-serialisable/);
  });
});
