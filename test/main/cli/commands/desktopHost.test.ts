import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../../src/main/cli';
import { createRecordingDesktop } from '../../../../src/main/services/desktop/RecordingDesktop';
import { startDesktopHost, type DesktopHost } from '../../../../src/main/services/desktopHost';

const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-cli-host-'));
const TOKEN = 'cli-test-token-0123456789-abcdefghij';
let host: DesktopHost | undefined;

async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const code = await main(['--data-dir', dataDir, ...argv], { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('src/main/cli --desktop and desktop-host', () => {
  it('explains desktop-host, its security model and how to connect', async () => {
    const r = await cli(['desktop-host', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--token-file/);
    expect(r.out).toMatch(/127\.0\.0\.1 only/);
    expect(r.out).toMatch(/--tls-cert/);
  });

  it('refuses --desktop without a token, and never takes one on the command line', async () => {
    const r = await cli(['--desktop', 'http://127.0.0.1:47800', 'skills', 'list'], { SKILLDESK_DESKTOP_TOKEN: undefined });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/SKILLDESK_DESKTOP_TOKEN.*--desktop-token-file/);
    expect((await cli(['--desktop-token-file', '/x', 'skills', 'list'])).err).toMatch(/need --desktop/);
  });

  it('dry-runs a skill for the platform of the desktop host, with Windows paths', async () => {
    host = await startDesktopHost({ desktop: createRecordingDesktop({ platform: 'win32' }).desktop, token: TOKEN });
    const file = join(dataDir, 'token');
    writeFileSync(file, `${TOKEN}\n`);
    const r = await cli([
      '--desktop',
      host.url,
      '--desktop-token-file',
      file,
      'run',
      'TextEditor.write_file',
      '--app',
      'notepad',
      '--arg',
      'path=C:\\Users\\me\\a.txt',
      '--arg',
      'text=hi',
      '--dry-run',
      '--json',
    ]);
    expect(r.code, r.err + r.out).toBe(0);
    expect(JSON.parse(r.out.slice(r.out.indexOf('{')))).toMatchObject({ status: 'succeeded', app: 'notepad' });
    // A POSIX path is outside a Windows path argument's domain.
    const posix = await cli([
      '--desktop',
      host.url,
      '--desktop-token-file',
      file,
      'run',
      'TextEditor.save_as',
      '--app',
      'notepad',
      '--arg',
      'path=/tmp/a.txt',
      '--dry-run',
    ]);
    expect(posix.code).not.toBe(0);
    expect(posix.err + posix.out).toMatch(/Windows path/);
  });

  it('says where it could not reach the host', async () => {
    const r = await cli(['--desktop', 'http://127.0.0.1:1', 'run', 'TextEditor.save_as', '--app', 'notepad', '--arg', 'path=C:\\a.txt'], {
      SKILLDESK_DESKTOP_TOKEN: TOKEN,
    });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Could not reach the desktop host at http:\/\/127\.0\.0\.1:1/);
  });
});
