import { describe, expect, it } from 'vitest';
import { bindConstraints, evaluateConstraints } from '../../../src/shared/permissions/constraints';
import type { NeedContext } from '../../../src/shared/permissions/needs';
import { pathInScope, resolvePathScopes, type ScopeEnv } from '../../../src/shared/permissions/scopes';
import { stepNeeds } from '../../../src/shared/permissions/stepNeeds';
import { ArgSpecsSchema } from '../../../src/shared/skill/domains';

const posix: ScopeEnv = { folders: { home: '/home/u' }, pathStyle: 'posix', utcOffsetMinutes: 0 };
const ctx: NeedContext = {
  appTarget: { kind: 'app', app: 'fm' },
  analyseScript: () => ({ ok: true, capabilities: [], errors: [] }),
  isSecretPath: (p) => p.includes('.ssh'),
};

describe('src/shared/permissions (list arguments)', () => {
  it('expands a scope naming a list argument to one scope per item, and nothing more', () => {
    const scopes = resolvePathScopes('${files}', { files: ['/tmp/a.txt', '/home/u/b.txt'] }, posix);
    expect(scopes).toHaveLength(2);
    expect(scopes.some((s) => pathInScope('/home/u/b.txt', s, posix))).toBe(true);
    expect(scopes.some((s) => pathInScope('/home/u/c.txt', s, posix))).toBe(false);
    // Items stay literal: a `*` in an item names a file, it is not a glob.
    const literal = resolvePathScopes('${files}', { files: ['/tmp/*'] }, posix);
    expect(literal.some((s) => pathInScope('/tmp/anything', s, posix))).toBe(false);
    expect(resolvePathScopes('${files}', { files: [] }, posix)).toEqual([]);
    expect(bindConstraints({ paths: ['${files}'] }, { files: ['/a', '/b'] }).paths).toEqual(['/a', '/b']);
  });

  it('makes each path of a list handed to a step a file access of its own, secrets included', () => {
    const args = ArgSpecsSchema.parse({ files: { type: 'list', items: { type: 'path', mustExist: true } } });
    const step = { action: 'type_text' as const, text: '${files|lines}' };
    const bound = stepNeeds(args, { action: 'type_text', text: '/tmp/a\n/home/u/.ssh/id_rsa' }, ctx, {
      raw: step,
      values: { files: ['/tmp/a', '/home/u/.ssh/id_rsa'] },
    });
    const targets = bound.needs.filter((n) => n.capability !== 'input.keyboard').map((n) => `${n.capability} ${JSON.stringify(n.target)}`);
    expect(targets).toEqual([
      'file.read {"kind":"path","path":"/tmp/a"}',
      'file.read {"kind":"path","path":"/home/u/.ssh/id_rsa"}',
      'secrets.read {"kind":"path","path":"/home/u/.ssh/id_rsa"}',
    ]);
    // Statically, the template stands for every item.
    const unbound = stepNeeds(args, step, ctx, {});
    expect(unbound.needs.some((n) => n.capability === 'file.read' && n.target.kind === 'path' && n.target.path === '${files}')).toBe(true);
  });

  it('treats a list of URLs as navigation to each', () => {
    const args = ArgSpecsSchema.parse({
      urls: { type: 'list', items: { type: 'string', pattern: '^https?://', examples: ['https://a'] } },
    });
    const r = stepNeeds(args, { action: 'type_text', text: 'https://a' }, ctx, {
      raw: { action: 'type_text', text: '${urls|lines}' },
      values: { urls: ['https://a', 'https://b'] },
    });
    expect(r.needs.filter((n) => n.capability === 'web.navigate').map((n) => n.target)).toEqual([
      { kind: 'url', url: 'https://a' },
      { kind: 'url', url: 'https://b' },
    ]);
  });

  it('scopes a URL entry to the URL argument the skill was given (each, for a list), and nothing else', () => {
    const ctx2 = { env: posix, effect: 'allow' as const, usage: [] };
    const ask = (url: string, args: Record<string, unknown>) =>
      evaluateConstraints(
        { urls: ['${url}'] },
        { skill: 's', capability: 'web.navigate', target: { kind: 'url', url }, args, time: 0 },
        ctx2,
      ).kind;
    expect(ask('https://example.com/a', { url: 'https://example.com/a' })).toBe('applies');
    expect(ask('https://evil.example/', { url: 'https://example.com/a' })).toBe('mismatch');
    expect(ask('https://example.com/a', {})).toBe('mismatch');
    expect(ask('https://b.example/', { url: ['https://a.example/', 'https://b.example/'] })).toBe('applies');
    expect(bindConstraints({ urls: ['${url}'] }, { url: 'https://a.example/' }).urls).toEqual(['https://a.example/']);
  });
});
