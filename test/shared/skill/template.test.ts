import { describe, expect, it } from 'vitest';
import { renderDeep, renderTemplate, templateSlots } from '../../../src/shared/skill/template';

describe('src/shared/skill/template', () => {
  it('keeps the type of a value when the template is one slot', () => {
    expect(renderTemplate('${n}', { n: 4 })).toBe(4);
    expect(renderTemplate('n=${n}', { n: 4 })).toBe('n=4');
  });

  it('applies filters for Wine paths, basenames and regexes', () => {
    expect(renderTemplate('${p|wine_path}', { p: '/tmp/a b/c.txt' })).toBe('Z:\\tmp\\a b\\c.txt');
    expect(renderTemplate('^${p|basename|regex_escape} - X$', { p: '/tmp/a (1).txt' })).toBe('^a \\(1\\)\\.txt - X$');
  });

  it('matches a value in a URL however the site encoded it (url_regex)', () => {
    const value = "café mug & 'x'/1";
    const re = new RegExp(`^q=${String(renderTemplate('${v|url_regex}', { v: value }))}$`);
    for (const encoded of [encodeURIComponent(value), new URLSearchParams({ q: value }).toString().slice(2), "caf%c3%a9+mug+%26+'x'%2f1"]) {
      expect(re.test(`q=${encoded}`), encoded).toBe(true);
    }
    expect(re.test('q=cafe+mug+%26+x%2F1')).toBe(false);
  });

  it('leaves escaped slots literal and lists referenced names', () => {
    expect(renderTemplate('$${x} ${y}', { y: 1 })).toBe('${x} 1');
    expect(templateSlots('${a.b|basename} $${c} ${d}')).toEqual(['a', 'd']);
  });

  it('throws a clear error for unknown slots and filters', () => {
    expect(() => renderTemplate('${nope}', { a: 1 })).toThrow('Template slot `${nope}` has no value; known names: a');
    expect(() => renderTemplate('${a|shout}', { a: 'x' })).toThrow('Unknown template filter `shout`');
  });

  it('renders nested structures', () => {
    expect(renderDeep({ k: ['${a}', { t: 'x${a}' }] }, { a: 'v' })).toEqual({ k: ['v', { t: 'xv' }] });
  });
});

describe('src/shared/skill/template (lists)', () => {
  const scope = { files: ['/tmp/a b.txt', '/tmp/c.txt'] };

  it('keeps a list whole in a one-slot template, and turns it into text with list filters', () => {
    expect(renderTemplate('${files}', scope)).toEqual(scope.files);
    expect(renderTemplate('${files|lines}', scope)).toBe('/tmp/a b.txt\n/tmp/c.txt');
    expect(renderTemplate('${files|basename|quoted|spaced}', scope)).toBe('"a b.txt" "c.txt"');
    expect(renderTemplate('${files|wine_path|lines}', scope)).toBe('Z:\\tmp\\a b.txt\nZ:\\tmp\\c.txt');
    expect(renderTemplate('${files|count} files', scope)).toBe('2 files');
    expect(renderTemplate('${files|basename|bullets}', scope)).toBe('- a b.txt\n- c.txt');
    expect(renderTemplate('${files|basename|numbered}', scope)).toBe('1. a b.txt\n2. c.txt');
  });

  it('refuses a list filter on a single value', () => {
    expect(() => renderTemplate('${p|lines}', { p: '/tmp/a' })).toThrow(/needs a list/);
  });
});
