import fc from 'fast-check';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { parseManifest, parseWorkspacePolicy } from '../../../src/shared/permissions/manifest';
import { CAPABILITIES, CAPABILITY_NAMES, expandPattern, patternCovers } from '../../../src/shared/permissions/taxonomy';

const APP = `kind: app
id: ed
name: Ed
platforms: [linux]
launch: { command: ed }
windows: { class: '^ed$' }
`;
const skill = (id: string, permissions: string) => `kind: skill
id: ed.${id}
app: ed
description: test
intents: [do ${id}]
permissions: ${permissions}
graph:
  start: a
  nodes:
    a: { action: key, key: Enter, next: done }
    done: { terminal: success }
`;

// Values a careless or hostile author might put where a manifest goes.
const arbJunk = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('file.read', 'file.*', '*', 'files.*', 'allow', 'deny', '${path}', '~/x', '(', '[a-'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        'capability',
        'effect',
        'priority',
        'constraints',
        'fallback_msg',
        'paths',
        'apps',
        'rate_limit',
        'time_window',
        'denied_command_patterns',
        'x',
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

describe('src/shared/permissions/manifest', () => {
  it('names a capability with a suggestion when it is misspelled', () => {
    const res = parseManifest([{ capability: 'file.raed', effect: 'allow' }], 'skill.yaml permissions');
    expect(res.ok).toBe(false);
    if (!res.ok)
      expect(res.errors[0]).toMatch(/skill\.yaml permissions at 0\.capability: unknown capability `file\.raed`; did you mean `file\.read`/);
  });

  it('rejects invalid regexes, times and effects with the field path', () => {
    const res = parseManifest([
      { capability: 'shell.execute', effect: 'allow', constraints: { denied_command_patterns: ['(unclosed'] } },
      { capability: 'web.fetch', effect: 'maybe' },
      { capability: 'web.fetch', effect: 'allow', constraints: { time_window: { start: '25:00', end: '06:00' } } },
    ]);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.errors.some((e) => e.includes('0.constraints.denied_command_patterns.0') && e.includes('invalid regular expression'))).toBe(
      true,
    );
    expect(res.errors.some((e) => e.includes('1.effect'))).toBe(true);
    expect(res.errors.some((e) => e.includes('2.constraints.time_window.start') && e.includes('HH:MM'))).toBe(true);
  });

  it('never throws on arbitrary input and either parses or explains every problem (property)', () => {
    fc.assert(
      fc.property(arbJunk, (raw) => {
        const res = parseManifest(raw);
        if (!res.ok) {
          expect(res.errors.length).toBeGreaterThan(0);
          for (const e of res.errors) expect(e).toMatch(/^manifest(: | at )/);
        }
        const ws = parseWorkspacePolicy(raw);
        if (!ws.ok) expect(ws.errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps loading the rest of the library when one skill has a malformed manifest (property)', async () => {
    await fc.assert(
      fc.asyncProperty(arbJunk, async (raw) => {
        const dir = mkdtempSync(join(tmpdir(), 'perm-manifest-'));
        mkdirSync(join(dir, 'skills'));
        writeFileSync(join(dir, 'app.yaml'), APP);
        writeFileSync(join(dir, 'skills', 'good.yaml'), skill('good', '[{ capability: input.keyboard, effect: allow }]'));
        writeFileSync(join(dir, 'skills', 'bad.yaml'), skill('bad', JSON.stringify(raw)));
        const { library, problems } = await loadLibrary({ builtinDir: dir });
        expect(library.skills.has('ed.good')).toBe(true);
        const parsed = parseManifest(raw);
        if (!parsed.ok && raw !== null) {
          expect(library.skills.has('ed.bad')).toBe(false);
          expect(problems.some((p) => p.file.endsWith('bad.yaml') && p.path[0] === 'permissions')).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('gives every capability a group pattern that covers it and a protection level', () => {
    for (const cap of CAPABILITY_NAMES) {
      const group = `${cap.split('.')[0]}.*`;
      expect(expandPattern(group)).toContain(cap);
      expect(patternCovers('*', cap)).toBe(true);
      expect(['normal', 'dangerous', 'system', 'redact']).toContain(CAPABILITIES[cap].level);
    }
    expect(CAPABILITY_NAMES).toHaveLength(34);
  });
});
