import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPathCanonicalizer } from '../../src/main/services/permissions';
import {
  decide,
  defaultWorkspacePolicy,
  PermissionSession,
  type Constraints,
  type Manifest,
  type PermissionRequest,
  type PermissionTarget,
  type ScopeEnv,
} from '../../src/shared/permissions';
import type { PromptResult } from '../../src/shared/ports/prompter';
import type { Primitive } from '../../src/shared/skill';
import { fakePathFs, harness, libraryOf, skillDoc } from './permissionHarness';

/**
 * Issue 10: "no sequence of grants and decisions lets a request through that the prompt did not
 * show". Every allowed request was either allowed by the manifest without any grant, or exactly
 * matches — same skill content hash, capability and canonical target — a prompt the user
 * answered with "allow for this session" (and did not revoke since).
 */

type Answer = PromptResult['answer'];

// A small world where spellings collide: case, dot segments, globs, tokens, URL tricks.
const PATHS = [
  '/d/a.txt',
  '/d/A.txt',
  '/d/b/../a.txt',
  '/d/*',
  '/d/x/y',
  '/d/%DOCUMENTS%/../../e',
  '/home/u/.ssh/known_hosts',
  '/home/u/.ssh/id_rsa',
  '~/notes',
  'rel/a.txt',
];
const URLS = ['https://api.example.com/up', 'https://API.example.com/up', 'https://api.example.com@evil.net/', 'https://evil.net/'];
const CAPS = ['file.read', 'file.write', 'secrets.read', 'web.post', 'shell.execute', 'clipboard.read'] as const;
const ARGS: Record<string, string>[] = [{}, { path: '/d/*' }, { path: '/d/a.txt' }, { path: '/d/**' }, { path: '~/notes' }];
const CONSTRAINTS: Constraints[] = [
  {},
  {},
  { paths: ['${path}'] },
  { paths: ['/d/**'] },
  { paths: ['/d/*.txt'] },
  { paths: ['~/.ssh'] },
  { hosts: ['api.example.com'] },
  { urls: ['https://api.example.com'] },
];

const arbTarget: fc.Arbitrary<PermissionTarget> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PATHS).map((path) => ({ kind: 'path' as const, path })) },
  { weight: 2, arbitrary: fc.constantFrom(...URLS).map((url) => ({ kind: 'url' as const, url })) },
  { weight: 1, arbitrary: fc.constantFrom('ls', 'rm -rf /').map((command) => ({ kind: 'command' as const, command })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const, hint: 'computed' }) },
);
const arbManifest: fc.Arbitrary<Manifest> = fc.array(
  fc.record({
    capability: fc.constantFrom(...CAPS, 'file.*', 'web.*', '*'),
    effect: fc.constantFrom('allow', 'confirm', 'confirm', 'deny'),
    constraints: fc.constantFrom(...CONSTRAINTS),
  }),
  { minLength: 1, maxLength: 5 },
);
type Event =
  | { kind: 'request'; capability: (typeof CAPS)[number]; target: PermissionTarget; args: Record<string, string>; answer: Answer }
  /** An earlier request again (another spelling when `respell`), with other arguments. */
  | { kind: 'again'; pick: number; respell: boolean; args: Record<string, string> }
  | { kind: 'replace'; manifest: Manifest | null }
  | { kind: 'revoke'; pick: number };
const arbEvent: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('request' as const),
      capability: fc.constantFrom(...CAPS),
      target: arbTarget,
      args: fc.constantFrom(...ARGS),
      answer: fc.constantFrom<Answer>('allow_once', 'allow_session', 'allow_session', 'deny'),
    }),
  },
  {
    weight: 10,
    arbitrary: fc.record({ kind: fc.constant('again' as const), pick: fc.nat(), respell: fc.boolean(), args: fc.constantFrom(...ARGS) }),
  },
  {
    // Mostly the same manifest under new content: the version-2 attack.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      manifest: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arbManifest }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat() }) },
);

/** Another way to write the same resource (case, dot segments, URL host case), or the target itself. */
function respell(t: PermissionTarget): PermissionTarget {
  if (t.kind === 'path' && t.path.startsWith('/d/')) return { kind: 'path', path: `/d/./x/..${t.path.slice(2)}` };
  if (t.kind === 'path') return { kind: 'path', path: t.path.toUpperCase() };
  if (t.kind === 'url') return { kind: 'url', url: t.url.replace('api.example.com', 'API.EXAMPLE.com') };
  return t;
}

/** The test's own notion of "the same resource" (not the engine's): lexical POSIX form, case folded where the file system folds. */
function sameResource(a: PermissionTarget, b: PermissionTarget, caseInsensitive: boolean): boolean {
  if (a.kind === 'unknown' || b.kind === 'unknown') return false;
  if (a.kind === 'path' && b.kind === 'path') {
    const norm = (p: string) => {
      if (!p.startsWith('/')) return undefined;
      const out: string[] = [];
      for (const s of p.split('/')) {
        if (s === '..') out.pop();
        else if (s && s !== '.') out.push(s);
      }
      const joined = `/${out.join('/')}`;
      return caseInsensitive ? joined.toLowerCase() : joined;
    };
    return norm(a.path) !== undefined && norm(a.path) === norm(b.path);
  }
  if (a.kind === 'url' && b.kind === 'url') return new URL(a.url).href === new URL(b.url).href;
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('src/shared/permissions/session (issue 10: grants never reach past what a prompt showed)', () => {
  it('allows only what the manifest allows on its own or what an answered prompt showed, exactly (property)', () => {
    const seen = { byManifest: 0, byGrant: 0, replacedThenAsked: 0 };
    fc.assert(
      fc.property(
        arbManifest,
        fc.constantFrom('builtin', 'community'),
        fc.boolean(),
        fc.array(arbEvent, { minLength: 1, maxLength: 40 }),
        (initial, trust, caseInsensitive, events) => {
          const env: ScopeEnv = {
            folders: { home: '/home/u', documents: '/home/u/Documents' },
            pathStyle: 'posix',
            caseInsensitive,
            utcOffsetMinutes: 0,
          };
          let manifest = initial;
          let version = 1;
          const declare = () => ({ permissions: manifest, trust, app: 'ed', contentHash: `sha256:v${version}` });
          const session = new PermissionSession(defaultWorkspacePolicy(), env, { skills: { s: declare() } });
          // What the user answered "allow for this session" to, by the grant it created.
          const answered = new Map<string, { hash: string; capability: string; target: PermissionTarget }>();
          let time = 1_000;
          const past: { capability: (typeof CAPS)[number]; target: PermissionTarget; answer: Answer }[] = [];
          for (const raw of events) {
            let ev = raw;
            if (ev.kind === 'again') {
              const p = past[ev.pick % Math.max(past.length, 1)];
              if (!p) continue;
              ev = { kind: 'request', ...p, target: ev.respell ? respell(p.target) : p.target, args: ev.args };
            }
            time += 1_000;
            if (ev.kind === 'replace') {
              version++;
              if (ev.manifest) manifest = ev.manifest;
              session.loadSkill('s', declare());
              continue;
            }
            if (ev.kind === 'revoke') {
              const live = session.listGrants().filter((g) => g.revokedAt === undefined);
              const g = live[ev.pick % Math.max(live.length, 1)];
              if (g) {
                session.revokeGrant(g.id, time);
                answered.delete(g.id);
              }
              continue;
            }
            past.push({ capability: ev.capability, target: ev.target, answer: ev.answer });
            const req: PermissionRequest = { skill: 's', capability: ev.capability, target: ev.target, args: ev.args, app: 'ed', time };
            const d = session.decide(req);
            if (d.effect === 'allow') {
              if (d.grantId) {
                const a = answered.get(d.grantId);
                expect(a, `grant ${d.grantId} answers no prompt`).toBeDefined();
                expect(a!.hash).toBe(`sha256:v${version}`);
                expect(a!.capability).toBe(req.capability);
                expect(sameResource(a!.target, req.target, caseInsensitive)).toBe(true);
                seen.byGrant++;
              } else {
                // Allowed by the manifest on its own: with no grant at all the answer is the same.
                expect(decide(req, { ...session.state(), grants: [] }).effect).toBe('allow');
                expect(d.source).toMatch(/^manifest:/);
                seen.byManifest++;
              }
              session.recordAllowed(d, time);
            } else if (d.effect === 'confirm') {
              // A grant for this very request exists, but from a version the skill no longer has: asked anew.
              const stale = session
                .listGrants()
                .some(
                  (g) =>
                    g.revokedAt === undefined &&
                    g.capability === req.capability &&
                    g.target !== undefined &&
                    sameResource(g.target, req.target, caseInsensitive) &&
                    g.skillHash !== `sha256:v${version}`,
                );
              if (stale) seen.replacedThenAsked++;
              if (ev.answer === 'allow_session') {
                const g = session.grantFor(req, d, 'session');
                if (g) answered.set(g.id, { hash: `sha256:v${version}`, capability: req.capability, target: req.target });
                else expect(req.target.kind).toBe('unknown');
              }
              if (ev.answer !== 'deny') session.recordAllowed({ ...d, effect: 'allow' }, time);
            }
          }
        },
      ),
      { numRuns: 2500 },
    );
    // Not vacuous: the runs exercised manifest allows, grant allows and replaced skills.
    expect(seen.byManifest).toBeGreaterThan(100);
    expect(seen.byGrant).toBeGreaterThan(100);
    expect(seen.replacedThenAsked).toBeGreaterThan(5);
  });

  it('binds grants from the mediator to the canonical file: another spelling of it is covered, another file is asked (property)', async () => {
    // `/d/link` and `/d/dir/../a.txt` name /d/a.txt; `/d/key` names /etc/shadow; /d/b.txt is its own file.
    const fs = fakePathFs({
      exists: ['/d', '/d/a.txt', '/d/b.txt', '/d/dir', '/etc', '/etc/shadow'],
      links: { '/d/link': 'a.txt', '/d/key': '/etc/shadow' },
    });
    const canonical: Record<string, string> = {
      '/d/a.txt': '/d/a.txt',
      '/d/link': '/d/a.txt',
      '/d/dir/../a.txt': '/d/a.txt',
      '/d/b.txt': '/d/b.txt',
      '/d/key': '/etc/shadow',
    };
    const READ: Primitive = { action: 'read', source: 'file', path: '${path}', into: 'result' };
    const lib = libraryOf(
      skillDoc(
        'ed.peek',
        [
          { capability: 'file.read', effect: 'confirm' },
          { capability: 'secrets.read', effect: 'confirm' },
        ],
        [READ],
        { path: { type: 'path' } },
      ),
    );
    let byGrant = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            path: fc.constantFrom(...Object.keys(canonical)),
            answer: fc.constantFrom<Answer>('allow_once', 'allow_session', 'deny'),
          }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        async (steps) => {
          const h = harness({
            library: lib,
            env: { folders: {}, pathStyle: 'posix', utcOffsetMinutes: 0 },
            answers: steps.flatMap((s) => [s.answer, s.answer]),
            canonicalizePath: createPathCanonicalizer({ style: 'posix', fs }),
          });
          for (const s of steps) {
            const asked = h.prompter.asked.length;
            const before = h.audit.records.length;
            const d = await h.step('ed.peek', READ, { path: s.path });
            // Every prompt showed the canonical file, never the spelling.
            for (const p of h.prompter.asked.slice(asked)) expect(p.target).toBe(canonical[s.path]);
            if (d.effect !== 'allow') continue;
            for (const r of h.audit.records.slice(before)) {
              if (!r.policySource.startsWith('grant:')) continue;
              const g = h.session.listGrants().find((x) => `grant:${x.id}` === r.policySource)!;
              expect(g.target).toEqual({ kind: 'path', path: canonical[s.path] });
              expect(g.capability).toBe(r.capability);
              byGrant++;
            }
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(byGrant).toBeGreaterThan(50);
  });
});
