import { expect } from 'vitest';
import { inferScript, type InferenceResult, type ScriptLanguage, type ScriptReader } from '../../src/main/services/permissions/inference';
import type { Capability } from '../../src/shared/permissions/taxonomy';

/** No file exists: every referenced script is unreadable, every module absent from disk. */
export const noFiles: ScriptReader = {
  read: () => undefined,
  resolve: (d, p) => (p.startsWith('/') ? p : `${d}/${p}`),
  dirname: (p) => p.replace(/\/[^/]*$/, '') || '/',
  home: '/home/u',
};

/** Infers a script as `run_script` would run it: with its arguments, reading no files. */
export function infer(source: string, language: ScriptLanguage, args: readonly string[] = []): InferenceResult {
  return inferScript(source, language, { reader: noFiles, cwd: '/work', args });
}

export const caps = (r: InferenceResult): string[] => [...new Set(r.capabilities.map((c) => c.capability))].sort();

/** The capability was inferred, on a target matching `target` when given. */
export function expectCapability(r: InferenceResult, capability: Capability, target?: RegExp): void {
  const found = r.capabilities.filter((c) => c.capability === capability);
  expect(found.length, `${capability} not inferred; got ${caps(r).join(', ')}; errors: ${r.errors.join(' | ')}`).toBeGreaterThan(0);
  if (target) expect(found.map((c) => JSON.stringify(c.target)).join(' ')).toMatch(target);
}

/** The analysis fails closed (`ok: false`, `script.unanalysed`) for a reason matching `reason`. */
export function expectFailsClosed(r: InferenceResult, reason: RegExp): void {
  expect(r.ok, `expected to fail closed; got ${caps(r).join(', ')}`).toBe(false);
  expect(caps(r)).toContain('script.unanalysed');
  expect(r.errors.join('\n')).toMatch(reason);
}

/** One of the dangerous capabilities is inferred, or the analysis fails closed. */
export function expectCaught(r: InferenceResult, dangerous: Capability[]): void {
  const hit = dangerous.some((c) => r.capabilities.some((x) => x.capability === c));
  expect(
    hit || r.ok === false,
    `none of ${dangerous.join(', ')} inferred and the analysis did not fail closed; got ${caps(r).join(', ')}`,
  ).toBe(true);
  if (!r.ok) expect(r.errors.length).toBeGreaterThan(0);
}
