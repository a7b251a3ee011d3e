import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileProbe } from '../../../../src/main/services/desktop/NodeFileProbe';

describe('src/main/services/desktop/NodeFileProbe', () => {
  let dir: string;
  const probe = new NodeFileProbe();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skilldesk-probe-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('tells existing files from missing ones', async () => {
    await writeFile(join(dir, 'a.txt'), 'x');
    expect(await probe.exists(join(dir, 'a.txt'))).toBe(true);
    expect(await probe.exists(join(dir, 'b.txt'))).toBe(false);
  });

  it('reads UTF-8 text byte-exact, CRLF included', async () => {
    await writeFile(join(dir, 'a.txt'), 'é\r\nß\t\n', 'utf8');
    expect(await probe.readText(join(dir, 'a.txt'))).toBe('é\r\nß\t\n');
  });

  it('fails with file.not_found for a missing file', async () => {
    await expect(probe.readText(join(dir, 'nope.txt'))).rejects.toMatchObject({ code: 'file.not_found' });
  });
});
