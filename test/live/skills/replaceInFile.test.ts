import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { killApps, liveCore } from './liveCore';

let core: Core;
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-replace-'));

beforeAll(async () => {
  killApps('mousepad');
  ({ core } = await liveCore());
});
afterAll(() => {
  core?.close();
  killApps('mousepad');
});

describe('TextEditor.replace_in_file (live, mousepad)', () => {
  it('replaces only the occurrences with the same case when asked to, whatever the dialog last had, and the file on disk shows it', async () => {
    const path = join(dir, 'case.txt');
    writeFileSync(path, 'colour one Colour two colour three\n');
    const args = { path, find: 'colour', replace: 'color' };
    const r = await core.runSkill({ skill: 'TextEditor.replace_in_file', app: 'mousepad', args: { ...args, match_case: true } });
    expect(r.error?.message).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('color one Colour two color three\n');
    // The dialog remembers Match case: the next run must clear it for COLOR to find "color".
    const again = await core.runSkill({
      skill: 'TextEditor.replace_in_file',
      app: 'mousepad',
      args: { path, find: 'COLOR', replace: 'hue' },
    });
    expect(again.error?.message).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('hue one Colour two hue three\n');
  }, 120_000);

  it('deletes every occurrence with an empty replacement, and fails when there is nothing to replace', async () => {
    const path = join(dir, 'delete.txt');
    writeFileSync(path, 'a TODO b TODO c\n');
    const r = await core.runSkill({ skill: 'TextEditor.replace_in_file', app: 'mousepad', args: { path, find: 'TODO ', replace: '' } });
    expect(r.error?.message).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('a b c\n');
    const none = await core.runSkill({
      skill: 'TextEditor.replace_in_file',
      app: 'mousepad',
      args: { path, find: 'absent', replace: 'x' },
    });
    expect(none.status).toBe('failed');
    expect(readFileSync(path, 'utf8')).toBe('a b c\n');
  }, 120_000);
});
