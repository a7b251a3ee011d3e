import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { TRICKY_TEXT, killApps, liveCore } from './liveCore';

let core: Core;
const dir = mkdtempSync(join(tmpdir(), 'skilldesk-texteditor-'));

beforeAll(async () => {
  ({ core } = await liveCore());
});
afterAll(() => {
  core?.close();
  killApps('notepad.exe');
  killApps('mousepad');
});

describe('skills/interfaces/TextEditor.yaml (live)', () => {
  it('writes every printable ASCII character, tabs, newlines and a Windows path byte-exact through Wine Notepad', async () => {
    killApps('notepad.exe');
    const path = join(dir, 'wine notepad (1).txt');
    const r = await core.runSkill({ skill: 'TextEditor.write_file', app: 'wine-notepad', args: { path, text: TRICKY_TEXT } });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    // Notepad stores lines with CRLF, in the ANSI code page (every character here is ASCII).
    expect(readFileSync(path, 'latin1')).toBe(TRICKY_TEXT.replaceAll('\n', '\r\n'));
  });

  it.each([
    ['wine-notepad', 'notepad.exe', (t: string) => t.replaceAll('\n', '\r\n'), 'latin1'],
    ['mousepad', 'mousepad', (t: string) => t, 'utf8'],
  ] as const)(
    'pastes long text through the clipboard into %s, byte-exact, instead of typing it',
    async (app, process, onDisk, encoding) => {
      killApps(process);
      const path = join(dir, `${app}-long.txt`);
      const text = Array.from({ length: 6 }, (_, i) => `${i}: ${TRICKY_TEXT}`).join('\n');
      expect(text.length).toBeGreaterThan(200);
      const r = await core.runSkill({ skill: 'TextEditor.write_file', app, args: { path, text } });
      expect(r.error?.message).toBeUndefined();
      // The text goes in by one paste (the path in the save dialog is still typed).
      const entry = r.steps.filter((st) => st.skillId === `${app}.type_text` && ['paste_text', 'type_text'].includes(st.primitive));
      expect(entry.map((st) => [st.primitive, st.outcome])).toEqual([['paste_text', 'ok']]);
      expect(readFileSync(path, encoding)).toBe(onDisk(text));
    },
  );

  it('replaces an existing file through the overwrite confirmation in Wine Notepad', async () => {
    const path = join(dir, 'existing.txt');
    writeFileSync(path, 'old content');
    const r = await core.runSkill({ skill: 'TextEditor.write_file', app: 'wine-notepad', args: { path, text: 'new content' } });
    expect(r.status).toBe('succeeded');
    expect(readFileSync(path, 'latin1')).toBe('new content');
    expect(r.steps.some((s) => s.skillId === 'wine-notepad.save_as' && s.nodeId === 'confirm' && s.outcome === 'ok')).toBe(true);
  });

  it('writes ASCII, Latin-1 letters, tabs and newlines exactly through mousepad', async () => {
    killApps('mousepad');
    const path = join(dir, 'mousepad.txt');
    const text = `${TRICKY_TEXT}\nLatin-1: é ü ß ñ Å ø ç É`;
    const r = await core.runSkill({ skill: 'TextEditor.write_file', app: 'mousepad', args: { path, text } });
    expect(r.error?.message).toBeUndefined();
    expect(r.status).toBe('succeeded');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('opens an existing file and reads its text back through the clipboard (get_text) in mousepad', async () => {
    const path = join(dir, 'to-open.txt');
    writeFileSync(path, 'opened: a_b > c');
    const open = await core.runSkill({ skill: 'TextEditor.open_file', app: 'mousepad', args: { path } });
    expect(open.status).toBe('succeeded');
    const read = await core.runSkill({ skill: 'TextEditor.get_text', app: 'mousepad' });
    expect(read.status).toBe('succeeded');
    expect(read.result).toBe('opened: a_b > c');
  });

  it('opens a file in a freshly started mousepad, whose file chooser has never shown its location entry', async () => {
    // Found by the reliability benchmark: the first '/' typed into a fresh chooser pops the entry
    // up and the next characters were lost, so /tmp/x/a.txt was opened as /a.txt.
    killApps('mousepad');
    const path = join(dir, 'fresh chooser.txt');
    writeFileSync(path, 'opened fresh');
    expect((await core.runSkill({ skill: 'Desktop.open_app', app: 'mousepad' })).status).toBe('succeeded');
    const open = await core.runSkill({ skill: 'TextEditor.open_file', app: 'mousepad', args: { path } });
    expect(open.error?.message).toBeUndefined();
    const read = await core.runSkill({ skill: 'TextEditor.get_text', app: 'mousepad' });
    expect(read.result).toBe('opened fresh');
  });

  it('runs from the command line and `runs show` prints the trajectory from the SQLite store', () => {
    killApps('notepad.exe');
    const data = mkdtempSync(join(tmpdir(), 'skilldesk-cli-live-'));
    const path = join(dir, 'from cli.txt');
    const bin = join(process.cwd(), 'bin', 'skilldesk.cjs');
    const out = execFileSync(
      process.execPath,
      [
        bin,
        '--data-dir',
        data,
        'run',
        'TextEditor.write_file',
        '--app',
        'wine-notepad',
        '--arg',
        `path=${path}`,
        '--arg',
        'text=Hello from the CLI: 1 + 1 = 2!',
        '--json',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const run = JSON.parse(out) as { runId: string; status: string };
    expect(run.status).toBe('succeeded');
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'latin1')).toBe('Hello from the CLI: 1 + 1 = 2!');
    const show = execFileSync(process.execPath, [bin, '--data-dir', data, 'runs', 'show', run.runId], { encoding: 'utf8' });
    expect(show).toContain(`run ${run.runId}`);
    expect(show).toContain('status  succeeded');
    expect(show).toMatch(/wine-notepad\.save_as#name type_text \{"text":"Z:.*from cli\.txt"\}/);
  });
});
