import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GraphExecutor } from '../../../../src/main/services/executor';
import { MemoryAuditSink, PolicyMediator } from '../../../../src/main/services/permissions';
import { PermissionSession, type WorkspacePolicy } from '../../../../src/shared/permissions';
import type { PermissionPrompter } from '../../../../src/shared/ports/prompter';
import {
  LibraryDocSchema,
  PRIMITIVE_ACTIONS,
  PRIMITIVES,
  SkillLibrary,
  type Primitive,
  type PrimitiveAction,
} from '../../../../src/shared/skill';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const noSleep = { now: () => Date.now(), sleep: async () => {} };

const env = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
const workspace: WorkspacePolicy = { version: 1, entries: [], trust: {}, folders: {} };
const nobody: PermissionPrompter = { ask: async () => ({ answer: 'deny', by: 'no_user' }) };

/** Steps that touch nothing outside SkillDesk: they need no capability. Everything else is denied by default. */
const TOUCHES_NOTHING: readonly PrimitiveAction[] = ['wait'];

/** The action's sample; a call goes to a skill the library has. */
const sampleOf = (action: PrimitiveAction): Primitive =>
  action === 'call' ? { action: 'call', skill: 'ed.noop' } : PRIMITIVES[action].sample;

/** A built-in skill on app `ed` whose graph is the action's sample and whose manifest is empty. */
function libraryWith(action: PrimitiveAction): SkillLibrary {
  const skillDoc = (id: string, step: Primitive) => ({
    kind: 'skill',
    id,
    app: 'ed',
    description: id,
    intents: [id],
    permissions: [],
    graph: { start: 'step', nodes: { step: { ...step, next: 'done' }, done: { terminal: 'success' } } },
  });
  const docs = [
    { kind: 'app', id: 'ed', name: 'Ed', platforms: ['linux'], launch: { command: 'ed' }, windows: { class: '^ed$' }, implements: [] },
    skillDoc(`ed.${action}`, sampleOf(action)),
    skillDoc('ed.noop', { action: 'wait', ms: 1 }),
  ];
  return new SkillLibrary(
    docs.map((d, i) => ({ doc: LibraryDocSchema.parse(d), source: { file: `doc${i}.yaml`, origin: 'builtin' as const } })),
  );
}

describe('src/main/services/permissions/PolicyMediator (every primitive)', () => {
  it.each(PRIMITIVE_ACTIONS)('denies `%s` to a skill with an empty manifest unless it touches nothing', async (action) => {
    const library = libraryWith(action);
    const skill = library.skills.get(`ed.${action}`)!;
    const audit = new MemoryAuditSink();
    const mediator = new PolicyMediator({ library, session: new PermissionSession(workspace, env), prompter: nobody, audit });
    const sample = sampleOf(action);
    const decision = await mediator.check({
      sessionId: 's',
      runId: 'r',
      skill,
      app: 'ed',
      nodeId: 'step',
      primitive: sample,
      raw: sample,
      screenshot: false,
      args: {},
      callChain: [skill.id],
    });
    if (TOUCHES_NOTHING.includes(action)) {
      expect(decision).toEqual({ effect: 'allow', reason: 'no capability needed' });
    } else {
      expect(decision.effect, `${action} must be denied by default`).toBe('deny');
      expect(audit.records.some((r) => r.decision === 'deny')).toBe(true);
    }
  });

  it('asks about a screenshot the graph takes after a step that otherwise needs nothing', async () => {
    const library = libraryWith('wait');
    const skill = library.skills.get('ed.wait')!;
    const mediator = new PolicyMediator({ library, session: new PermissionSession(workspace, env), prompter: nobody });
    const sample = PRIMITIVES.wait.sample;
    const d = await mediator.check({
      sessionId: 's',
      runId: 'r',
      skill,
      app: 'ed',
      nodeId: 'step',
      primitive: sample,
      raw: sample,
      screenshot: true,
      args: {},
      callChain: [],
    });
    expect(d).toMatchObject({ effect: 'deny', code: 'permission.denied' });
  });
});

describe('src/main/services/executor/GraphExecutor (guards and checks are mediated)', () => {
  const PROBE = `
kind: skill
id: ed.probe
app: ed
description: types something when a key file exists
intents: [probe]
permissions:
  - { capability: input.keyboard, effect: allow }
graph:
  start: a
  nodes:
    a: { action: key, key: Escape, next: [ { to: b, when: { file_exists: '/home/u/.ssh/id_rsa' } }, c ] }
    b: { action: type_text, text: 'has a key', next: done }
    c: { action: type_text, text: 'no key', next: done }
    done: { terminal: success }
`;

  it('denies an edge guard that reads a file the manifest does not declare, before the file is probed', async () => {
    const library = new SkillLibrary(
      [
        { kind: 'app', id: 'ed', name: 'Ed', platforms: ['linux'], launch: { command: 'ed' }, windows: { class: '^ed$' }, implements: [] },
        parse(PROBE),
      ].map((d, i) => ({ doc: LibraryDocSchema.parse(d), source: { file: `doc${i}.yaml`, origin: 'builtin' as const } })),
    );
    expect(library.errors).toEqual([]);
    const fake = fakeDesktop({ windows: [win('1', 'notes - ed', 'ed', 'ed')], files: { '/home/u/.ssh/id_rsa': 'secret' } });
    const probed: string[] = [];
    const exists = fake.desktop.files.exists;
    fake.desktop.files.exists = async (p) => (probed.push(p), exists(p));
    const audit = new MemoryAuditSink();
    const mediator = new PolicyMediator({ library, session: new PermissionSession(workspace, env), prompter: nobody, audit });
    const result = await new GraphExecutor({ library, desktop: fake.desktop, mediator, clock: noSleep }).run({ skill: 'ed.probe' });
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('permission.denied');
    expect(probed).toEqual([]);
    expect(fake.inputCalls().map((c) => c.key ?? c.text)).toEqual(['Escape']);
    expect(audit.records.at(-1)).toMatchObject({ decision: 'deny', capability: 'file.read', nodeId: 'a->b (guard)' });
  });
});
