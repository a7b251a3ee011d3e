import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { TRICKY_TEXT } from '../live/skills/liveCore';
import { killPrograms, windowsCore, winePath } from './windowsCore';

let core: Core;
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-win-texteditor-'));

beforeAll(async () => {
  ({ core } = await windowsCore());
  await killPrograms('notepad.exe');
});
afterAll(async () => {
  core?.close();
  await killPrograms('notepad.exe');
});

describe('skills/implementations/notepad (Windows lane)', () => {
  it('writes every printable ASCII character, tabs, newlines and a Windows path byte-exact through Windows Notepad', async () => {
    const path = join(dir, 'notepad (1).txt');
    const r = await core.runSkill({ skill: 'TextEditor.write_file', app: 'notepad', args: { path: winePath(path), text: TRICKY_TEXT } });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(r.app).toBe('notepad');
    expect(readFileSync(path, 'latin1')).toBe(TRICKY_TEXT.replaceAll('\n', '\r\n'));
  });
});

describe('skills/implementations/wordpad (Windows lane)', () => {
  afterAll(() => killPrograms('(write|wordpad)[.]exe'));

  it('writes text to a .txt file through WordPad, saved as a text document, read back from disk', async () => {
    await killPrograms('(write|wordpad)[.]exe');
    const path = join(dir, 'wordpad note.txt');
    const text = 'WordPad on Windows: (parens) [brackets] {braces} C:\\Users\\Public\n\tsecond line, tabbed ~!@#$%^&*_+=|<>?';
    const r = await core.runSkill({ skill: 'TextEditor.write_file', app: 'wordpad', args: { path: winePath(path), text } });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(readFileSync(path, 'latin1')).toBe(text.replaceAll('\n', '\r\n'));
  });
});
