import type { Core } from '../core/Core';
import type { LoadedLibrary } from '../services/library/YamlLibraryLoader';
import type { Output } from './output';

/** What every command handler gets: output, exit code, and lazily built services. */
export interface CliContext extends Output {
  /** The data folder (`--data-dir`, `SKILLDESK_DATA_DIR`, or the per-OS default). */
  dataDir(): string;
  loadLibrary(): Promise<LoadedLibrary>;
  /** The application core (store, executor, desktop), built on first use. */
  core(): Promise<Core>;
  setExitCode(code: number): void;
  /** Releases what `core()` opened (the store). */
  close(): Promise<void>;
}
