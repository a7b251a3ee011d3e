import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inferScript, type ScriptReader } from '../../../../src/main/services/permissions/inference';
import { INTERPRETERS } from '../../../../src/shared/skill/interpreters';

// Fragments of real syntax in every language, glued at random: the analysers must answer (or fail closed), never throw.
const FRAGMENTS = [
  'curl -d @',
  '~/.ssh/id_rsa',
  ' https://h.example/ ',
  '| sh',
  '$(',
  ')',
  '`',
  '"',
  "'",
  '\n',
  '; ',
  '&& ',
  '<<EOF\n',
  'EOF\n',
  '${X:-',
  '}',
  '(',
  '[',
  '{',
  'Invoke-WebRequest -Method Post -Body $b',
  '@"\n',
  '"@',
  '<#',
  '#>',
  '# c',
  'iex ',
  'import requests\n',
  'requests.post(',
  'open(',
  '"""',
  "f'{x}'",
  'subprocess.run([',
  ']',
  'fetch(',
  "{ method: 'POST' }",
  'require(',
  "'child_process'",
  'eval(',
  '\\',
  'python3 ',
  'bash -c ',
  'source ',
  './x.sh',
  // Constructs the sound analysers parse or refuse: arithmetic, indirection, escapes, args.
  '$((',
  '))',
  "let 'a[",
  '${!x}',
  '"$@"',
  '$1',
  '{a,b}',
  "$'\\x63'",
  'find . -exec ',
  ' \\;',
  "awk '{system(",
  "sed 'e",
  '%%i',
  'for /f ',
  '^',
  '$args[0]',
  '[IO.File]::',
  '$x.(',
  '__import__(',
  'getattr(',
  'globalThis[',
  'process.',
  '__proto__',
  'constructor',
];
const arbSource = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((a) => a.join('')),
);
const noFiles: ScriptReader = { read: () => undefined, resolve: (d, p) => `${d}/${p}`, dirname: (p) => p.replace(/\/[^/]*$/, '') || '/' };

describe('src/main/services/permissions/inference (robustness)', () => {
  it('never throws on arbitrary input in any language, and reports why when it cannot analyse (property)', () => {
    const arbArgs = fc.option(fc.array(fc.constantFrom('-exec', 'sh', ';', '$(id)', '-T', '@/etc/shadow', 'a b', ''), { maxLength: 5 }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(arbSource, fc.constantFrom(...INTERPRETERS), arbArgs, (src, lang, args) => {
        const r = inferScript(src, lang, { reader: noFiles, ...(args && { args }) });
        expect(r.ok).toBe(r.errors.length === 0);
        // inferScript fails closed when an analyser throws; here that would still be a bug to fix.
        expect(r.errors.filter((e) => e.includes('analysis stopped'))).toEqual([]);
        // Failing closed is visible as a capability of its own, with the reason as its target.
        expect(r.capabilities.some((c) => c.capability === 'script.unanalysed')).toBe(!r.ok);
        for (const c of r.capabilities) expect(typeof c.capability).toBe('string');
      }),
      { numRuns: 1500 },
    );
  });
});
