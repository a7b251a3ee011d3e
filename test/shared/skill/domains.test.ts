import { describe, expect, it } from 'vitest';
import { ArgSpecSchema, checkArg, checkArgs, sampleArg, seededRandom, type ArgSpec } from '../../../src/shared/skill/domains';

const spec = (s: unknown) => ArgSpecSchema.parse(s);

describe('src/shared/skill/domains', () => {
  it('coerces command-line strings into numbers and booleans within their domain', () => {
    expect(checkArg('n', spec({ type: 'number', min: 1, max: 10, integer: true }), '7')).toEqual({ ok: true, value: 7 });
    expect(checkArg('b', spec({ type: 'boolean' }), 'false')).toEqual({ ok: true, value: false });
  });

  it('takes an option as said in words: case, spaces and hyphens aside', () => {
    const to = spec({ type: 'enum', values: ['document_start', 'line_end'] });
    expect(checkArg('to', to, 'document start')).toEqual({ ok: true, value: 'document_start' });
    expect(checkArg('to', to, 'Line-End')).toEqual({ ok: true, value: 'line_end' });
    expect(checkArg('to', to, 'document')).toMatchObject({ ok: false });
  });

  it('says what was expected and what was received when a value is outside its domain', () => {
    expect(checkArg('n', spec({ type: 'number', min: 1 }), -3)).toEqual({
      ok: false,
      message: 'Expected `n` to be a number >= 1, got `-3` (number)',
    });
    expect(checkArg('mode', spec({ type: 'enum', values: ['a', 'b'] }), 'c')).toMatchObject({
      ok: false,
      message: 'Expected `mode` to be one of `a`, `b`, got `c` (string)',
    });
    expect(checkArg('p', spec({ type: 'path' }), 'rel/x')).toMatchObject({ ok: false });
    expect(checkArg('p', spec({ type: 'path' }), 'C:\\x.txt', { pathStyle: 'win32' })).toEqual({ ok: true, value: 'C:\\x.txt' });
    expect(checkArg('p', spec({ type: 'path', extensions: ['.txt'] }), '/a.md')).toMatchObject({ ok: false });
  });

  it('checks run-time choices against the members resolved for this run', () => {
    const s = spec({ type: 'choice', source: { kind: 'windows' }, examples: ['x'] });
    expect(checkArg('w', s, 'b', { choices: { w: ['a', 'b'] } })).toEqual({ ok: true, value: 'b' });
    expect(checkArg('w', s, 'z', { choices: { w: ['a', 'b'] } }).ok).toBe(false);
  });

  it('reports unknown and missing arguments and fills defaults', () => {
    const specs = { a: spec({ type: 'text' }), b: spec({ type: 'number', default: 3 }) };
    expect(checkArgs(specs, { a: 'x' })).toEqual({ ok: true, values: { a: 'x', b: 3 } });
    const bad = checkArgs(specs, { c: 1 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors).toEqual([
      expect.stringContaining('Unknown argument `c`'),
      expect.stringContaining('Missing argument `a`'),
    ]);
  });

  it('requires examples for pattern strings so that samples can be generated', () => {
    expect(ArgSpecSchema.safeParse({ type: 'string', pattern: '^a+$' }).success).toBe(false);
  });

  it('generates samples that lie inside their own domain', () => {
    const specs: ArgSpec[] = [
      spec({ type: 'enum', values: ['x', 'y'] }),
      spec({ type: 'number', min: 2, max: 9, integer: true }),
      spec({ type: 'text', maxLength: 5 }),
      spec({ type: 'path', extensions: ['.csv'] }),
      spec({ type: 'boolean' }),
      spec({ type: 'string', pattern: '^[0-9]+$', examples: ['12'] }),
      spec({ type: 'string', minLength: 8 }),
    ];
    const rand = seededRandom(42);
    for (const s of specs) {
      for (let i = 0; i < 20; i++) {
        const v = sampleArg(s, rand, { tempDir: '/tmp' });
        expect(checkArg('x', s, v), `${JSON.stringify(s)} -> ${JSON.stringify(v)}`).toMatchObject({ ok: true });
      }
    }
  });
});

describe('src/shared/skill/domains (lists, dates and times)', () => {
  const paths = spec({ type: 'list', items: { type: 'path', target: 'file' }, minItems: 1, maxItems: 3 });

  it('takes a list as an array, a JSON array or one item per line, checking every item against its domain', () => {
    expect(checkArg('files', paths, ['/a', '/b'])).toEqual({ ok: true, value: ['/a', '/b'] });
    expect(checkArg('files', paths, '["/a","/b c"]')).toEqual({ ok: true, value: ['/a', '/b c'] });
    expect(checkArg('files', paths, '/a\r\n/b\n\n')).toEqual({ ok: true, value: ['/a', '/b'] });
    expect(checkArg('files', paths, ['/a', 'relative.txt'])).toEqual({
      ok: false,
      message: 'Expected `files[1]` to be an absolute POSIX path, got `relative.txt` (string)',
    });
    expect(checkArg('files', paths, [])).toMatchObject({ ok: false, message: expect.stringMatching(/1 to 3 items \(it has 0\)/) });
    expect(checkArg('files', paths, ['/a', '/b', '/c', '/d'])).toMatchObject({ ok: false });
    expect(checkArg('n', spec({ type: 'list', items: { type: 'number', integer: true } }), '["1", 2]')).toEqual({
      ok: true,
      value: [1, 2],
    });
  });

  it('accepts only real calendar dates within the range, and 24-hour times', () => {
    const date = spec({ type: 'date', min: '2000-01-01' });
    expect(checkArg('d', date, '2024-02-29')).toEqual({ ok: true, value: '2024-02-29' });
    expect(checkArg('d', date, '2023-02-29')).toMatchObject({ ok: false, message: expect.stringMatching(/exists in the calendar/) });
    expect(checkArg('d', date, '1999-12-31')).toMatchObject({ ok: false, message: expect.stringMatching(/from 2000-01-01/) });
    expect(checkArg('t', spec({ type: 'time' }), '23:59')).toEqual({ ok: true, value: '23:59' });
    expect(checkArg('t', spec({ type: 'time' }), '24:00')).toMatchObject({ ok: false });
    expect(checkArg('t', spec({ type: 'time' }), '7:05')).toMatchObject({ ok: false });
    expect(checkArg('t', spec({ type: 'time', seconds: true }), '07:05:09')).toEqual({ ok: true, value: '07:05:09' });
  });

  it('samples lists, dates and times that pass their own domain check', () => {
    const rand = seededRandom(3);
    const specs: ArgSpec[] = [
      paths,
      spec({ type: 'date', min: '2024-01-01', max: '2024-12-31' }),
      spec({ type: 'time', seconds: true }),
      spec({ type: 'list', items: { type: 'enum', values: ['a', 'b'] }, minItems: 2 }),
    ];
    for (const s of specs) {
      for (let i = 0; i < 50; i++) {
        const v = sampleArg(s, rand, { tempDir: '/tmp' });
        expect(checkArg('x', s, v), JSON.stringify(v)).toMatchObject({ ok: true });
      }
    }
  });
});
