import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// File plumbing shared by the audit key and the audit anchor: where they live beside the
// database, and how they are replaced so that a crash leaves the old file or the new one.

/** The key and anchor files of the store at `dbFile`: `<dir>/<name>.audit-key`, `<dir>/<name>.audit-anchor`. */
export function auditFilesFor(dbFile: string): { keyFile: string; anchorFile: string } {
  // Named after the database, so two stores in one folder (the benchmarks do this) keep apart.
  const stem = join(dirname(dbFile), basename(dbFile).replace(/\.db$/i, ''));
  return { keyFile: `${stem}.audit-key`, anchorFile: `${stem}.audit-anchor` };
}

/**
 * Replaces `file` with `text` atomically: a temp file in the same folder (mode `mode`, flushed
 * to disk), renamed over `file`, then the folder flushed so the rename itself survives a power
 * loss. A crash at any point leaves either the old content or the new, never a partial file.
 */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  // Per process: the app and the CLI may replace the same anchor at the same moment.
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncFolder(dirname(file));
}

/**
 * Flushes `files` that exist to disk. The anchor must never claim rows the database could still
 * lose: with WAL and synchronous=NORMAL, SQLite syncs its WAL only at checkpoints, so an OS crash
 * could drop the last commits while a synced anchor survived, and that would read as a truncation.
 * Flushing the WAL first makes the rows at least as durable as the anchor that names them.
 */
export function syncFiles(files: readonly string[]): void {
  for (const file of files) {
    let fd: number;
    try {
      // Windows' FlushFileBuffers needs a handle opened for writing; POSIX fsync does not.
      fd = openSync(file, process.platform === 'win32' ? 'r+' : 'r');
    } catch {
      continue; // no WAL file (yet): nothing of it to flush
    }
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

function syncFolder(folder: string): void {
  // POSIX only: Windows cannot open a folder as a file, and NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
