import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { endProcesses } from '../../../src/main/services/synthesis/AppIsolation';
import type { PermissionPrompter } from '../../../src/shared/ports/prompter';

/** Fails (never skips) when the test desktop is not up. */
export function requireDisplay(): string {
  const display = process.env.DISPLAY;
  if (!display)
    throw new Error('DISPLAY is not set: start the test desktop (`eval "$(bash scripts/test-desktop.sh start)"`) or run `npm test`');
  return display;
}

/**
 * A core with a fresh data folder (its own SQLite store) for one test file. With `approve`, a
 * stand-in user allows once what the policy asks about; without it nobody answers (a denial).
 */
export async function liveCore(o: { approve?: boolean } = {}): Promise<{ core: Core; dataDir: string }> {
  requireDisplay();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-live-'));
  const prompter: PermissionPrompter | undefined = o.approve ? { ask: async () => ({ answer: 'allow_once', by: 'user' }) } : undefined;
  return { core: await createNodeCore({ dataDir, interactive: false, ...(prompter && { prompter }) }), dataDir };
}

/**
 * Kills the processes matching `pattern` that run on this test's display, so each test starts
 * from a clean desktop without touching apps on other displays, and returns once they are gone.
 */
export function killApps(pattern: string): void {
  endProcesses(pattern);
}

/** Every printable ASCII character, tabs, newlines and a Windows path full of shifted symbols. */
export const TRICKY_TEXT = [
  Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join(''),
  'tab\there\tand\tthere',
  'C:\\Users\\a_b\\My Files (1)\\',
  'A_B>C:D! {braces} [brackets] ~tilde~ `backtick` "quotes" \'single\' |pipe| ^caret^',
].join('\n');
