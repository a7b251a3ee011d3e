import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { killApps, liveCore } from './liveCore';

let core: Core;
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-markdown-'));

beforeAll(async () => {
  ({ core } = await liveCore());
});
afterAll(() => {
  core?.close();
  killApps('mousepad');
  killApps('notepad.exe');
});

/** The composites written once on TextEditor, on two editors with no per-app override. */
describe.each([
  ['mousepad', 'mousepad', '\n'],
  ['wine-notepad', 'notepad.exe', '\r\n'],
])('TextEditor composites (live, %s)', (app, process, eol) => {
  it('types a heading, a numbered list, a bulleted list and bold text, moves to the end, and saves them exactly', async () => {
    killApps(process);
    const path = join(dir, `${app} notes.md`);
    const run = async (skill: string, args: Record<string, unknown> = {}) => {
      const r = await core.runSkill({ skill, app, args });
      expect(r.error?.message, skill).toBeUndefined();
    };
    await run('Document.new_document');
    await run('TextEditor.insert_heading', { level: 2, text: 'Shopping (today)' });
    await run('TextEditor.insert_list', { items: ['milk', 'eggs & bread'], ordered: true });
    await run('TextEditor.insert_list', { items: ['call Ann'] });
    await run('TextEditor.move_cursor', { to: 'document_end' });
    await run('TextEditor.emphasize', { text: 'done', style: 'bold' });
    await run('Document.save_as', { path });
    const text = ['## Shopping (today)', '1. milk', '2. eggs & bread', '- call Ann', '**done**'].join(eol);
    expect(readFileSync(path, 'utf8')).toBe(text);
  }, 120_000);
});
