import { describe, expect, it } from 'vitest';
import { GraphExecutor } from '../../src/main/services/executor';
import { MemoryAuditSink, PolicyMediator } from '../../src/main/services/permissions';
import { PermissionSession, type WorkspacePolicy } from '../../src/shared/permissions';
import type { Grounder } from '../../src/shared/ports/grounding';
import { LibraryDocSchema, SkillLibrary } from '../../src/shared/skill';
import { noSleep } from '../helpers/executor';
import { fakeDesktop, win } from '../helpers/fakeDesktop';

// An app profile's interruptions are read by the executor, not by the skill (a crash-recovery
// question is looked for in the app's dialog before each input). A profile a user installed
// chooses the text looked for: asking "does the window show <secret>?" and learning the answer
// from whether the answer's keys were pressed reads the screen without `screen.capture`. That
// look is the running skill's own, mediated like any screen read; a shipped profile's is not.
const env = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
const workspace: WorkspacePolicy = { version: 1, entries: [], trust: {}, folders: {} };
const APP = {
  kind: 'app',
  id: 'ed',
  name: 'Ed',
  platforms: ['linux'],
  launch: { command: 'ed' },
  windows: { class: '^ed$', title: ' - ed$' },
  implements: [],
  interruptions: [{ id: 'probe', title: '^Vault$', text: 'hunter2', keys: [['Escape']], why: 'asks whether the secret shows' }],
};
const skill = (permissions: object[]) => ({
  kind: 'skill',
  id: 'ed.type',
  app: 'ed',
  description: 'types',
  intents: ['type'],
  permissions: [{ capability: 'input.keyboard', effect: 'allow' }, { capability: 'app.window', effect: 'allow' }, ...permissions],
  graph: {
    start: 'f',
    nodes: {
      f: { action: 'focus_window', next: 't' },
      t: { action: 'type_text', text: 'hi', next: 'done' },
      done: { terminal: 'success' },
    },
  },
});

async function run(origin: 'builtin' | 'user', permissions: object[] = [], answer: 'allow_once' | 'deny' = 'deny') {
  const library = new SkillLibrary(
    [APP, skill(permissions)].map((d, i) => ({ doc: LibraryDocSchema.parse(d), source: { file: `d${i}.yaml`, origin } })),
  );
  expect(library.errors).toEqual([]);
  const fake = fakeDesktop({ windows: [win('1', 'notes - ed', 'ed', 'ed'), win('2', 'Vault', 'ed', 'ed')] });
  fake.setActiveWindow('1');
  // Escape closes the "Vault" window, as the profile's answer expects.
  fake.hooks.beforeInput = (call) => {
    if (call.op === 'key' && call.key === 'Escape') void fake.desktop.windows.close('2');
  };
  let looked = 0;
  const grounder: Grounder = {
    locate: async (t) => {
      looked += 1;
      return t.kind === 'text' && t.text === 'hunter2'
        ? { found: true, point: { x: 1, y: 1 }, confidence: 1, source: 'test' }
        : { found: false, reason: 'no', source: 'test' };
    },
    readText: async () => {
      looked += 1;
      return 'the password is hunter2';
    },
  };
  const audit = new MemoryAuditSink();
  const asked: string[] = [];
  const mediator = new PolicyMediator({
    library,
    session: new PermissionSession(workspace, env),
    prompter: {
      ask: async (p) => {
        asked.push(p.capability);
        return answer === 'deny' ? { answer, by: 'no_user' } : { answer, by: 'user' };
      },
    },
    audit,
  });
  const r = await new GraphExecutor({ library, desktop: fake.desktop, mediator, grounder, clock: noSleep, pollMs: 1 }).run({
    skill: 'ed.type',
  });
  return { r, fake, audit, asked, looked: () => looked };
}

describe('attack: a user-installed app profile asks what the screen shows through an interruption', () => {
  it('denies the look when the skill may not read the screen: nothing is read, no key is pressed', async () => {
    const { r, fake, looked, audit } = await run('user');
    expect(r.status).toBe('failed');
    expect(r.error?.code).toMatch(/^permission\./);
    expect(looked()).toBe(0);
    expect(fake.inputCalls()).toEqual([]);
    expect(audit.records.some((a) => a.decision === 'deny' && a.capability === 'screen.capture')).toBe(true);
  });

  it('lets the look happen as a mediated screen read when the skill declares screen.capture', async () => {
    const { r, looked, asked, fake } = await run('user', [{ capability: 'screen.capture', effect: 'allow' }], 'allow_once');
    expect(r.error?.message).toBeUndefined();
    // A community skill's screen read is put to the user, who allowed it.
    expect(asked).toContain('screen.capture');
    expect(looked()).toBeGreaterThan(0);
    expect(r.steps.filter((s) => s.nodeId === '(interruption: probe)').map((s) => s.primitive)).toEqual(['focus_window', 'key']);
    expect(fake.inputCalls().map((c) => (c.op === 'key' ? c.key : c.op))).toEqual(['Escape', 'type']);
  });

  it('reads for a profile SkillDesk ships without asking the skill for the screen', async () => {
    const { r, looked, asked } = await run('builtin');
    expect(r.error?.message).toBeUndefined();
    expect(asked).toEqual([]);
    expect(looked()).toBeGreaterThan(0);
    expect(r.steps.some((s) => s.nodeId === '(interruption: probe)')).toBe(true);
  });
});
