import { access, readFile } from 'node:fs/promises';
import type { FileProbe } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';

/** File facts from the local file system. */
export class NodeFileProbe implements FileProbe {
  async exists(path: string): Promise<boolean> {
    try {
      await access(path);
      return true;
    } catch {
      return false;
    }
  }

  async readText(path: string): Promise<string> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new DesktopError(
        code === 'ENOENT' ? 'file.not_found' : 'file.read_failed',
        `Could not read \`${path}\`: ${(err as Error).message}`,
      );
    }
  }
}
