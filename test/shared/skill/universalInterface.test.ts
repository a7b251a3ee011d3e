import { beforeAll, describe, expect, it } from 'vitest';
import type { SkillLibrary } from '../../../src/shared/skill';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';

describe('src/shared/skill/library (universal interfaces)', () => {
  let library: SkillLibrary;
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
  });

  it('lets every app run the composites of a universal interface without declaring it', () => {
    expect(library.interfaces.get('Desktop')?.universal).toBe(true);
    expect(library.resolve('Desktop.click_text', 'wine-notepad').kind).toBe('composite');
    expect(library.implementers('Desktop').sort()).toEqual([...library.apps.keys()].sort());
    expect(library.list({ app: 'mousepad' }).some((s) => s.id === 'Desktop.press_key')).toBe(true);
  });

  it('still refuses an interface the app neither declares nor gets universally', () => {
    expect(() => library.resolve('Calculator.evaluate', 'wine-notepad')).toThrow(/does not implement `Calculator`/);
  });
});
