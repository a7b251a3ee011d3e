import { describe, expect, it } from 'vitest';
import { GraphExecutor } from '../../src/main/services/executor';
import { MemoryAuditSink, PolicyMediator } from '../../src/main/services/permissions';
import { PermissionSession, type WorkspacePolicy } from '../../src/shared/permissions';
import { AppDocSchema, LibraryDocSchema, SkillLibrary } from '../../src/shared/skill';
import { fakeDesktop, win } from '../helpers/fakeDesktop';

// Issue 10 item 8: keystrokes must reach only the step's app, identified by its program, and
// nothing when the focused window is unknown.
const env = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
const workspace: WorkspacePolicy = { version: 1, entries: [], trust: {}, folders: {} };
const app = (windows: object) => ({
  kind: 'app',
  id: 'ed',
  name: 'Ed',
  platforms: ['linux'],
  launch: { command: 'ed' },
  windows,
  implements: [],
});

describe('attack: a profile whose window pattern matches any window', () => {
  it.each([{ title: '.' }, { process: '.' }, { class: '^.*$' }, { class: '^ed|$' }, { process: '^\\w+$' }, { title: 'Ed$' }])(
    'rejects windows %j when the profile loads',
    (windows) => {
      expect(AppDocSchema.safeParse(app(windows)).success).toBe(false);
    },
  );

  it('accepts exact program names, with the title only picking the main window', () => {
    expect(AppDocSchema.safeParse(app({ class: '^ed$', title: 'Ed$' })).success).toBe(true);
    expect(AppDocSchema.safeParse(app({ process: '^(ed|ed2)\\.exe$' })).success).toBe(true);
  });
});

describe('attack: typing while no window (or another program) has the focus', () => {
  const skill = {
    kind: 'skill',
    id: 'ed.type',
    app: 'ed',
    description: 'types',
    intents: ['type'],
    permissions: [{ capability: 'input.keyboard', effect: 'allow' }],
    graph: { start: 't', nodes: { t: { action: 'type_text', text: 'secret', next: 'done' }, done: { terminal: 'success' } } },
  };
  const library = new SkillLibrary(
    [app({ class: '^ed$' }), skill].map((d, i) => ({
      doc: LibraryDocSchema.parse(d),
      source: { file: `d${i}`, origin: 'builtin' as const },
    })),
  );

  async function runWith(windows: ReturnType<typeof win>[], activeId: string | undefined) {
    const fake = fakeDesktop({ windows });
    if (activeId) fake.setActiveWindow(activeId);
    else fake.desktop.windows.active = async () => undefined;
    const audit = new MemoryAuditSink();
    const mediator = new PolicyMediator({
      library,
      session: new PermissionSession(workspace, env),
      prompter: { ask: async () => ({ answer: 'deny', by: 'no_user' }) },
      audit,
    });
    const r = await new GraphExecutor({ library, desktop: fake.desktop, mediator }).run({ skill: 'ed.type' });
    return { r, fake, audit };
  }

  it('denies the keystrokes when the window manager reports no focused window', async () => {
    const { r, fake, audit } = await runWith([win('1', 'Ed', 'ed', 'ed')], undefined);
    expect(r.error?.code).toBe('permission.focus_changed');
    expect(r.error?.message).toMatch(/no window has the focus/);
    expect(fake.inputCalls()).toEqual([]);
    expect(audit.records.at(-1)).toMatchObject({ decision: 'deny', policySource: 'mediation:focus', target: 'window:(none)' });
  });

  it('denies them when another program has the focus, even one whose title names the app', async () => {
    const { r, fake } = await runWith([win('1', 'Ed', 'ed', 'ed'), win('2', 'Ed', 'evil', 'evil')], '2');
    expect(r.error?.code).toBe('permission.focus_changed');
    expect(fake.inputCalls()).toEqual([]);
  });

  it('lets them through to the app itself', async () => {
    const { r, fake } = await runWith([win('1', 'Ed', 'ed', 'ed')], '1');
    expect(r.status).toBe('succeeded');
    expect(fake.inputCalls()).toEqual([{ op: 'type', text: 'secret' }]);
  });
});
