import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { imageSize, TaskChecker } from '../../../../src/main/services/synthesis';
import type { RunResult } from '../../../../src/shared/run';
import type { SkillLibrary, TaskCheck } from '../../../../src/shared/skill';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const PNG_16 = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4YWNDEmIY1TCqYfhqAACrxkAQIqaBzAAAAABJRU5ErkJggg==';

describe('src/main/services/synthesis/TaskChecker', () => {
  let library: SkillLibrary;
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
  }, 30_000);

  it('passes on the state a task left, and fails once its effect is undone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-check-'));
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello\r\nworld');
    const fake = fakeDesktop({ windows: [win('w', 'notes.txt - Mousepad', 'mousepad', 'mousepad.Mousepad')] });
    await fake.desktop.clipboard.writeText('hello\nworld');
    const checker = new TaskChecker(fake.desktop, library);
    const checks: TaskCheck[] = [
      { kind: 'file', path, present: true },
      { kind: 'file_text', path, equals: 'hello\nworld' },
      { kind: 'clipboard', equals: 'hello\nworld' },
      { kind: 'window_title', app: 'mousepad', contains: 'notes.txt' },
    ];
    expect((await checker.check(checks, [])).every((v) => v.ok)).toBe(true);
    // The task's effect undone: the file back as it was before.
    writeFileSync(path, 'original');
    const after = await checker.check(checks, [], { settleMs: 300 });
    expect(after.filter((v) => !v.ok)).toEqual([{ check: checks[1], ok: false, found: '"original"' }]);
  });

  it('asks a failing check again while the end state settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-check-'));
    const path = join(dir, 'late.txt');
    setTimeout(() => writeFileSync(path, 'flushed'), 300);
    const [v] = await new TaskChecker(fakeDesktop().desktop, library).check([{ kind: 'file_text', path, equals: 'flushed' }], [], {
      settleMs: 3000,
    });
    expect(v).toEqual({ check: { kind: 'file_text', path, equals: 'flushed' }, ok: true });
  });

  it('tells a file by its first bytes, folders from files, and an image by its size', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-check-'));
    writeFileSync(join(dir, 'fake.pdf'), 'not a pdf');
    writeFileSync(join(dir, 'real.pdf'), '%PDF-1.7\n...');
    writeFileSync(join(dir, 'pic.png'), Buffer.from(PNG_16, 'base64'));
    mkdirSync(join(dir, 'sub'));
    const checker = new TaskChecker(fakeDesktop().desktop, library);
    const verdicts = await checker.check(
      [
        { kind: 'file', path: join(dir, 'fake.pdf'), present: true },
        { kind: 'file', path: join(dir, 'real.pdf'), present: true },
        { kind: 'folder', path: join(dir, 'sub'), present: true },
        { kind: 'file', path: join(dir, 'sub'), present: true },
        { kind: 'file', path: join(dir, 'gone.txt'), present: false },
        { kind: 'image_size', path: join(dir, 'pic.png'), width: 16, height: 16 },
        { kind: 'image_size', path: join(dir, 'pic.png'), width: 16, height: 8 },
      ],
      [],
      { settleMs: 0 },
    );
    expect(verdicts.map((v) => v.ok)).toEqual([false, true, true, false, true, true, false]);
    expect(verdicts[0]!.found).toMatch(/not a \.pdf file/);
    expect(verdicts[3]!.found).toBe('a folder is there');
    expect(imageSize(Buffer.from('/* XPM */\nstatic char *x[] = {\n"12 7 1 1",', 'latin1'))).toEqual({ width: 12, height: 7 });
  });

  it('compares what steps returned: numbers within a relative 1e-9, text line endings aside', async () => {
    const run = (result: unknown) => ({ result }) as RunResult;
    const checker = new TaskChecker(fakeDesktop().desktop, library);
    const verdicts = await checker.check(
      [
        { kind: 'result', step: 0, equals: 2.5 },
        { kind: 'result', step: 1, equals: 12 },
        { kind: 'result', step: 2, equals: 'a\nb' },
        { kind: 'result', step: 3, equals: 'x' },
      ],
      [run(2.5000000000001), run('12'), run('a\r\nb'), run(undefined)],
      { settleMs: 0 },
    );
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, true, false]);
  });
});
