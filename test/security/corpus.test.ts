import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptLanguage } from '../../src/main/services/permissions/inference';
import type { Capability } from '../../src/shared/permissions/taxonomy';
import { caps, expectCaught, infer } from './helpers';

/**
 * A held-out-style corpus of attack scripts written the way public red-team, exfiltration,
 * persistence, reverse-shell and key-logger scripts are (corpus/index.json says what each does).
 * Each must be caught: one of its dangerous capabilities inferred (`mode: infer`), or the analysis
 * failing closed (`mode: closed`, where what it runs cannot be known before it runs).
 */
interface Case {
  file: string;
  language: ScriptLanguage;
  expect: Capability[];
  mode: 'infer' | 'closed';
  why: string;
}

const dir = join(__dirname, 'corpus');
const cases = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as Case[];

describe('src/main/services/permissions/inference (security: attack corpus)', () => {
  it('holds at least 30 scripts across bash, Python, PowerShell, Node and cmd', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((c) => c.language))).toEqual(new Set(['bash', 'python', 'powershell', 'node', 'cmd']));
  });

  it.each(cases)('catches $file ($why)', (c) => {
    const r = infer(readFileSync(join(dir, c.file), 'utf8'), c.language);
    expectCaught(r, c.expect);
    if (c.mode === 'infer') {
      expect(r.errors).toEqual([]);
      for (const cap of c.expect) expect(caps(r)).toContain(cap);
    } else {
      expect(r.ok).toBe(false);
      expect(c.expect.some((cap) => caps(r).includes(cap))).toBe(true);
    }
  });
});
