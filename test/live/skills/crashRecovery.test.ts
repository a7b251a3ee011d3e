import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src/main/core/Core';
import { killApps, liveCore } from './liveCore';

const gsettings = (...args: string[]) => execFileSync('gsettings', args, { encoding: 'utf8' }).trim();
const TIMER = ['org.xfce.mousepad.preferences.file', 'autosave-timer'] as const;

/** Resolves once `test` holds, polling; fails with `what` after `ms`. */
async function until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Issue 12: after mousepad was killed with unsaved text, it starts with "It seems that the previous
 * session did not end normally. Do you want to restore the available data?", and every mousepad
 * skill failed behind that question. The app's profile knows it: a skill answers it (restoring the
 * text, as a careful user would) wherever it meets it, and goes on.
 */
describe('an interrupting dialog answered inside a skill (live, mousepad crash recovery)', () => {
  let core: Core;
  let dir: string;
  const backups = join(process.env.XDG_DATA_HOME ?? join(process.env.HOME ?? '/root', '.local/share'), 'Mousepad');
  beforeAll(async () => {
    ({ core } = await liveCore({ approve: true }));
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-crash-'));
    killApps('mousepad');
    rmSync(backups, { recursive: true, force: true });
    // Mousepad backs up unsaved text every 30 s by default; a second makes the test quick.
    gsettings('set', ...TIMER, '1');
  });
  afterAll(() => {
    killApps('mousepad');
    rmSync(backups, { recursive: true, force: true });
    gsettings('reset', ...TIMER);
    core.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores the killed session and writes the file, byte-exact', async () => {
    const typed = await core.runSkill({ skill: 'TextEditor.type_text', app: 'mousepad', args: { text: 'an unsaved draft' } });
    expect(typed.error?.message).toBeUndefined();
    await until(
      () => existsSync(backups) && readdirSync(backups).some((f) => f.startsWith('autosave')),
      'mousepad backed up the unsaved text',
    );
    execFileSync('pkill', ['-KILL', '-x', 'mousepad']);
    await until(() => {
      try {
        execFileSync('pgrep', ['-x', 'mousepad']);
        return false;
      } catch {
        return true;
      }
    }, 'mousepad ended');

    const path = join(dir, 'after-crash.txt');
    const text = 'written after a crash: {a} & "b"';
    const run = await core.runSkill({ skill: 'TextEditor.write_file', app: 'mousepad', args: { path, text } });
    expect(run.error?.message).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe(text);
    // The question was answered (Yes: the draft restored), and the run says so.
    const steps = core.getRun(run.runId)?.steps ?? [];
    expect(steps.map((s) => s.nodeId)).toContain('(interruption: crash_recovery)');
  }, 180_000);
});
