import type { SymbolicWorld } from './world';

/**
 * Files a task starts from, made up by the synthesizer when a step needs an existing file it
 * cannot get from an earlier step: plain text for text formats, and for a few binary formats a
 * small valid file (a 16x16 PNG; a zip and a tar.gz holding `notes.txt` and `docs/readme.md`).
 */
export type FixtureFile = { text: string } | { base64: string };

const TEXT_EXTENSIONS = new Set([
  '',
  '.txt',
  '.md',
  '.csv',
  '.log',
  '.json',
  '.html',
  '.htm',
  '.xml',
  '.ini',
  '.yaml',
  '.yml',
  '.py',
  '.sh',
  '.js',
  '.c',
  '.conf',
]);

/** The size of the PNG fixture. */
export const FIXTURE_IMAGE_SIZE = '16x16';

/**
 * The name ending of a fixture for a domain extension, or undefined when none can be made: a
 * `.gz` archive is a gzipped tar, named `.tar.gz` (which a `.gz` domain accepts).
 */
export function fixtureSuffix(ext: string): string | undefined {
  const e = ext.toLowerCase();
  if (e === '.gz') return '.tar.gz';
  return TEXT_EXTENSIONS.has(e) || e === '.m3u' || BINARY[e] !== undefined || e === '.tgz' ? e : undefined;
}

const BINARY: Record<string, string> = {
  '.png': 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4YWNDEmIY1TCqYfhqAACrxkAQIqaBzAAAAABJRU5ErkJggg==',
  '.zip':
    'UEsDBBQAAAAIACe2fF0LVtZ6GQAAABcAAAAJAAAAbm90ZXMudHh0y8svSS1WSCvKz1UoyUhVSCxKzsgsS+UCAFBLAwQUAAAACAAntnxdPEnkvAwAAAAKAAAADgAAAGRvY3MvcmVhZG1lLm1kU1YISk1MUchN5QIAUEsBAhQDFAAAAAgAJ7Z8XQtW1noZAAAAFwAAAAkAAAAAAAAAAAAAAIABAAAAAG5vdGVzLnR4dFBLAQIUAxQAAAAIACe2fF08SeS8DAAAAAoAAAAOAAAAAAAAAAAAAACAAUAAAABkb2NzL3JlYWRtZS5tZFBLBQYAAAAAAgACAHMAAAB4AAAAAAA=',
  '.tgz':
    'H4sIAGpaC2sC/+3TsQrCMBSF4cw+RcC93oa0eQ/foDSROqSBNIqPb+ymuxXp/y0H7nKHw5lTCUtTHkV9j1S9tWtWnylinGptZ6xzYte7651TWtQGbksZcn2p9ml+9a8vOUVdpqCHPE7Xezgo7INP43LKYfAxNNH/aP+ted9/K52w/00c9bmWryOTBwAAAAAAAAAAAAAA+E9PMZDjqQAoAAA=',
};

/** The members of the archive fixtures (paths relative to where they are extracted), and their text. */
export const ARCHIVE_MEMBERS = ['notes.txt', 'docs/readme.md'];
export const ARCHIVE_TEXTS = ['notes from the archive\n', '# Read me\n'];

/** Records an archive fixture: its members are ARCHIVE_MEMBERS. */
export function markArchive(w: SymbolicWorld, path: string): void {
  w.model<Record<string, boolean>>('@archives', () => ({}))[path] = true;
}

/** Whether `path` is an archive fixture (its members are known). */
export function knownArchive(w: SymbolicWorld, path: string): boolean {
  return w.models.get('@archives')?.[path] === true;
}

/** The task's own folder, where everything it makes goes. */
export function taskDir(w: SymbolicWorld): string {
  return String(w.models.get('@task')?.dir ?? '');
}

/** Sentences fixtures and typed text are made of: plain words a replacement can find, and symbols. */
export const TEXT_SAMPLES = [
  'hello world',
  'The quick brown fox jumps over the lazy dog',
  'Meeting notes: budget review at 10:30',
  'Line one\nLine two\nLine three',
  'Buy milk, eggs and bread',
  'Symbols: ~!@#$%^&*()_+{}|:"<>?',
  'Total = 42 (tax included)',
  'dear team, the report is ready',
];

/** The extension of `path` as fixtures know it (`.tar.gz` whole), lower-case. */
export function extensionOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  if (/\.tar\.gz$/i.test(name)) return '.tar.gz';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Small CSV tables a spreadsheet task starts from (a header row, then rows of a name and a whole number). */
export const CSV_SAMPLES = ['name,qty\nApple,3\nPear,5\n', 'item,price\nTea,4\nCoffee,7\nCake,12\n', 'city,visits\nOslo,10\nLima,25\n'];

const TITLES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Harbour', 'Meadow'];

/**
 * Files that can stand at `path` (the file, and what it needs beside it) and the title it shows
 * when opened (a page's <title>, the picture a playlist plays); undefined when the synthesizer
 * cannot make a file of that type.
 */
export function fixtureFor(
  path: string,
  pick: <T>(xs: readonly T[]) => T,
): { files: Record<string, FixtureFile>; title?: string } | undefined {
  const ext = extensionOf(path);
  if (ext === '.html' || ext === '.htm') {
    const title = `${pick(TITLES)} ${pick(['notes', 'page', 'report', 'news'])}`;
    return { files: { [path]: { text: `<!doctype html><title>${title}</title><h1>${title}</h1><p>${pick(TEXT_SAMPLES)}</p>\n` } }, title };
  }
  if (ext === '.m3u') {
    // A picture VLC keeps on screen for 10 minutes: no item ends while a task runs.
    const picture = path.replace(/\.m3u$/i, '.png');
    const name = picture.split('/').pop()!;
    return {
      files: { [path]: { text: `#EXTM3U\n#EXTVLCOPT:image-duration=600\n${name}\n` }, [picture]: { base64: BINARY['.png']! } },
      title: name,
    };
  }
  const one = singleFixture(path, ext, pick);
  return one && { files: { [path]: one } };
}

/** Records what a fixture shows when opened (its title). */
export function markTitle(w: SymbolicWorld, path: string, title: string): void {
  w.model<Record<string, string>>('@titles', () => ({}))[path] = title;
}

/** The title a page or playlist fixture shows, if `path` is one. */
export function pageTitle(w: SymbolicWorld, path: string): string | undefined {
  const t = w.models.get('@titles')?.[path];
  return typeof t === 'string' ? t : undefined;
}

function singleFixture(path: string, ext: string, pick: <T>(xs: readonly T[]) => T): FixtureFile | undefined {
  if (ext === '.csv') return { text: pick(CSV_SAMPLES) };
  if (TEXT_EXTENSIONS.has(ext)) return { text: pick(TEXT_SAMPLES) };
  const base64 = BINARY[ext === '.tar.gz' ? '.tgz' : ext];
  return base64 ? { base64 } : undefined;
}
