import { readdir } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { SkillDeskError } from '../../shared/errors';
import type { DirectoryView } from '../../shared/ipc';

/** Lists a folder for the path picker: folders first, then files, each sorted by name. */
export async function listDirectory(path: string, showHidden: boolean): Promise<DirectoryView> {
  if (!isAbsolute(path)) throw new SkillDeskError('files.not_absolute', `Expected an absolute folder path, got \`${path}\``);
  const dir = resolve(path);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read (permission denied)'
          : code === 'ENOTDIR'
            ? 'is not a folder'
            : String(code);
    throw new SkillDeskError('files.unreadable', `The folder \`${dir}\` ${why}; pick another one.`);
  }
  const listed = entries
    .filter((e) => showHidden || !e.name.startsWith('.'))
    .map((e) => ({ name: e.name, kind: e.isDirectory() ? ('directory' as const) : ('file' as const) }))
    .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'directory' ? -1 : 1));
  const parent = dirname(dir);
  return { path: dir, ...(parent !== dir && { parent }), sep, entries: listed };
}
