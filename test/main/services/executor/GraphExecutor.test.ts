import { describe, expect, it } from 'vitest';
import { MemoryRunJournal, type Clock, type RunEvent } from '../../../../src/main/services/executor';
import type { ActionMediator, ActionRequest } from '../../../../src/shared/ports/mediation';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const EDITOR = `
kind: interface
id: Editor
description: test editor
methods:
  type:
    description: type
    intents: ['type \${text}']
    args: { text: { type: text } }
  save:
    description: save
    intents: ['save as \${path}']
    args: { path: { type: path } }
  write:
    description: write then save
    intents: ['write \${text} to \${path}']
    args: { text: { type: text }, path: { type: path } }
    composite:
      graph:
        start: t
        nodes:
          t: { action: call, skill: Editor.type, args: { text: '\${text}' }, next: s }
          s: { action: call, skill: Editor.save, args: { path: '\${path}' }, next: done }
          done: { terminal: success }
`;
const APP = (id: string) => `
kind: app
id: ${id}
name: ${id}
platforms: [linux]
launch: { command: ${id} }
windows: { process: '^${id}$', title: '${id}$' }
implements: [Editor]
`;
const TYPE = (app: string) => `
kind: skill
id: ${app}.type
app: ${app}
implements: Editor.type
graph:
  start: pick
  nodes:
    pick: { action: wait, ms: 0, next: [ { to: focus, weight: 2 }, { to: launch, weight: 1 } ] }
    focus: { action: focus_window, next: typing }
    launch: { action: launch, next: appear }
    appear: { action: wait_for_window, timeoutMs: 50, next: typing }
    typing: { action: type_text, text: '\${text}', next: done }
    done: { terminal: success }
`;
const SAVE = (app: string) => `
kind: skill
id: ${app}.save
app: ${app}
implements: Editor.save
graph:
  start: focus
  nodes:
    focus:
      action: focus_window
      next:
        - { to: replace, when: { file_exists: '\${path}' }, weight: 2 }
        - { to: plain }
    replace: { action: hotkey, keys: [Control, r], next: done }
    plain: { action: hotkey, keys: [Control, s], next: done }
    done: { terminal: success }
`;

function setup(opts: { running?: boolean; files?: Record<string, string> } = {}) {
  const lib = libraryOf(EDITOR, APP('ed1'), APP('ed2'), TYPE('ed1'), SAVE('ed1'), TYPE('ed2'), SAVE('ed2'));
  const fake = fakeDesktop({
    windows: opts.running ? [win('w1', 'doc - ed1', 'ed1')] : [],
    ...(opts.files && { files: opts.files }),
    launchWindows: { ed1: win('w-ed1', 'new - ed1', 'ed1'), ed2: win('w-ed2', 'new - ed2', 'ed2') },
  });
  const journal = new MemoryRunJournal();
  return {
    lib,
    fake,
    journal,
    exec: (mediator?: ActionMediator, clock?: Clock) =>
      testExecutor({ library: lib, desktop: fake.desktop, journal, ...(mediator && { mediator }), ...(clock && { clock }) }),
  };
}

describe('src/main/services/executor/GraphExecutor', () => {
  it('runs an interface composite on the named app through polymorphic dispatch', async () => {
    const { exec, fake } = setup({ running: true });
    const r = await exec().run({ skill: 'Editor.write', app: 'ed1', args: { text: 'hi', path: '/tmp/a.txt' } });
    expect(r.status).toBe('succeeded');
    expect(fake.inputCalls()).toEqual([
      { op: 'type', text: 'hi' },
      { op: 'hotkey', keys: ['Control', 's'] },
    ]);
    expect(r.steps.map((s) => `${s.depth}:${s.skillId}.${s.nodeId}`)).toEqual([
      '0:Editor.write.t',
      '1:ed1.type.pick',
      '1:ed1.type.focus',
      '1:ed1.type.typing',
      '0:Editor.write.s',
      '1:ed1.save.focus',
      '1:ed1.save.plain',
    ]);
  });

  it('types a number argument as its digits: the fields of a primitive are text', async () => {
    const counting = EDITOR.replace(
      'methods:\n',
      'methods:\n  count:\n    description: count\n    intents: [count]\n    args: { n: { type: number } }\n',
    );
    const COUNT = `
kind: skill
id: ed1.count
app: ed1
implements: Editor.count
graph:
  start: typing
  nodes:
    typing: { action: type_text, text: '\${n}', next: done }
    done: { terminal: success }
`;
    const fake = fakeDesktop({ windows: [win('w1', 'doc - ed1', 'ed1')] });
    const library = libraryOf(counting, APP('ed1'), TYPE('ed1'), SAVE('ed1'), COUNT);
    const r = await testExecutor({ library, desktop: fake.desktop }).run({ skill: 'Editor.count', app: 'ed1', args: { n: 42 } });
    expect(r.error?.message).toBeUndefined();
    expect(fake.inputCalls()).toEqual([{ op: 'type', text: '42' }]);
  });

  it('presses a key and a chord as many times as an argument says, none for 0, and fails on a count out of range', async () => {
    const counting = EDITOR.replace(
      'methods:\n',
      'methods:\n  zoom:\n    description: zoom\n    intents: [zoom]\n    args: { n: { type: number, min: -5, max: 200 } }\n',
    );
    const ZOOM = `
kind: skill
id: ed1.zoom
app: ed1
implements: Editor.zoom
graph:
  start: down
  nodes:
    down: { action: key, key: Down, repeat: '\${n}', next: plus }
    plus: { action: hotkey, keys: [Control, '='], repeat: '\${n}', next: done }
    done: { terminal: success }
`;
    const library = libraryOf(counting, APP('ed1'), TYPE('ed1'), SAVE('ed1'), ZOOM);
    const run = async (n: number) => {
      const fake = fakeDesktop({ windows: [win('w1', 'doc - ed1', 'ed1')] });
      const r = await testExecutor({ library, desktop: fake.desktop }).run({ skill: 'Editor.zoom', app: 'ed1', args: { n } });
      return { r, calls: fake.inputCalls() };
    };
    const three = await run(3);
    expect(three.r.status).toBe('succeeded');
    expect(three.calls.filter((c) => c.op === 'key')).toHaveLength(3);
    expect(three.calls.filter((c) => c.op === 'hotkey')).toHaveLength(3);
    expect((await run(0)).calls).toEqual([]);
    const bad = await run(150);
    expect(bad.r.status).toBe('failed');
    expect(bad.r.error?.message).toMatch(/whole number from 0 to 100, got `150`/);
    expect(bad.calls).toEqual([]);
  });

  it('starts every step in the journal before it is mediated, and records it under the same seq after', async () => {
    const { exec, journal } = setup({ running: true });
    const order: string[] = [];
    const mediator: ActionMediator = {
      check: async (req) => {
        order.push(`mediate ${req.nodeId} (started: ${journal.started.length}, recorded: ${journal.steps.length})`);
        return { effect: 'allow' };
      },
    };
    const r = await exec(mediator).run({ skill: 'ed1.type', args: { text: 'hi' } });
    expect(r.status).toBe('succeeded');
    expect(journal.started.map((s) => [s.seq, s.nodeId])).toEqual(journal.steps.map((s) => [s.seq, s.nodeId]));
    expect(order).toEqual(journal.steps.map((s, i) => `mediate ${s.nodeId} (started: ${i + 1}, recorded: ${i})`));
  });

  it('backtracks to the launch alternative when the preferred path fails', async () => {
    const { exec, fake } = setup({ running: false });
    const events: RunEvent[] = [];
    const r = await exec().run({ skill: 'ed2.type', args: { text: 'x' }, onEvent: (e) => events.push(e) });
    expect(r.status).toBe('succeeded');
    expect(r.steps.find((s) => s.nodeId === 'focus')?.outcome).toBe('failed');
    expect(fake.calls.some((c) => c.op === 'launch' && c.command === 'ed2')).toBe(true);
    expect(events.some((e) => e.type === 'backtrack' && e.toNode === 'launch')).toBe(true);
  });

  it('takes the guarded branch when its guard holds', async () => {
    const { exec, fake } = setup({ running: true, files: { '/tmp/a.txt': 'old' } });
    const r = await exec().run({ skill: 'ed1.save', args: { path: '/tmp/a.txt' } });
    expect(r.status).toBe('succeeded');
    expect(fake.inputCalls()).toEqual([{ op: 'hotkey', keys: ['Control', 'r'] }]);
  });

  it('infers the app from the focused window when none is named', async () => {
    const { exec, fake } = setup({ running: true });
    fake.setActiveWindow('w1');
    const r = await exec().run({ skill: 'Editor.type', args: { text: 'z' } });
    expect(r.app).toBe('ed1');
    expect(r.skillId).toBe('ed1.type');
  });

  it('picks the only app of this platform implementing the domain when nothing has the focus and no default is set', async () => {
    // ed2 runs on Windows only: on Linux, ed1 is the only editor.
    const lib = libraryOf(EDITOR, APP('ed1'), APP('ed2').replace('[linux]', '[win32]'), TYPE('ed1'), SAVE('ed1'), TYPE('ed2'), SAVE('ed2'));
    const fake = fakeDesktop({ windows: [win('w1', 'doc - ed1', 'ed1')] });
    const r = await testExecutor({ library: lib, desktop: fake.desktop }).run({ skill: 'Editor.type', args: { text: 'z' } });
    expect(r.status).toBe('succeeded');
    expect(r.skillId).toBe('ed1.type');
  });

  it('names the apps to choose from when several of this platform implement the domain', async () => {
    const { exec, fake } = setup({ running: false });
    const r = await exec().run({ skill: 'Editor.write', args: { text: 'hi', path: '/tmp/a.txt' } });
    expect(r.status).toBe('failed');
    expect(r.error?.message).toBe('`Editor.type` needs an app: pass --app (one of: ed1, ed2)');
    expect(fake.inputCalls()).toEqual([]);
  });

  it('prefers the configured default app of the domain to the only app of this platform', async () => {
    const lib = libraryOf(EDITOR, APP('ed1'), APP('ed2').replace('[linux]', '[win32]'), TYPE('ed1'), SAVE('ed1'), TYPE('ed2'), SAVE('ed2'));
    const fake = fakeDesktop({ windows: [win('w1', 'doc - ed1', 'ed1')] });
    const exec = testExecutor({ library: lib, desktop: fake.desktop, defaultApps: { Editor: 'ed2' } });
    const r = await exec.run({ skill: 'Editor.type', args: { text: 'z' }, dryRun: true });
    expect(r.skillId).toBe('ed2.type');
  });

  it('brings the app up first when it is not running and the skill may launch it', async () => {
    const launching = SAVE('ed1').replace(
      'implements: Editor.save',
      'implements: Editor.save\npermissions:\n  - { capability: app.launch, effect: allow }',
    );
    const lib = libraryOf(EDITOR, APP('ed1'), launching);
    const closed = fakeDesktop({ launchWindows: { ed1: win('w-ed1', 'new - ed1', 'ed1') } });
    const r = await testExecutor({ library: lib, desktop: closed.desktop }).run({ skill: 'ed1.save', args: { path: '/tmp/a.txt' } });
    expect(r.status).toBe('succeeded');
    expect(r.steps.map((st) => st.nodeId)).toEqual(['(bring up)', '(bring up: window)', 'focus', 'plain']);
    expect(closed.calls.filter((c) => c.op === 'launch').map((c) => c.command)).toEqual(['ed1']);

    const open = fakeDesktop({ windows: [win('w1', 'doc - ed1', 'ed1')] });
    const again = await testExecutor({ library: lib, desktop: open.desktop }).run({ skill: 'ed1.save', args: { path: '/tmp/a.txt' } });
    expect(again.steps.map((st) => st.nodeId)).toEqual(['focus', 'plain']);
    expect(open.calls.some((c) => c.op === 'launch')).toBe(false);
  });

  it("waits for the started app's main window as long as its profile's startupMs says (30 s without it)", async () => {
    const launching = SAVE('ed1').replace(
      'implements: Editor.save',
      'implements: Editor.save\npermissions:\n  - { capability: app.launch, effect: allow }',
    );
    const slow = APP('ed1').replace('launch: { command: ed1 }', 'launch: { command: ed1, startupMs: 120000 }');
    const neverShows = () => fakeDesktop({});
    // A clock that jumps: each poll moves time on 10 s, so the wait's own budget decides how many polls fit.
    const jumping = () => {
      let t = 0;
      return { now: () => t, sleep: async () => void (t += 10_000) };
    };
    const r = await testExecutor({ library: libraryOf(EDITOR, slow, launching), desktop: neverShows().desktop, clock: jumping() }).run({
      skill: 'ed1.save',
      args: { path: '/tmp/a.txt' },
    });
    expect(r.error?.message).toMatch(/^No window of `ed1` appeared within 120000 ms/);
    const plain = await testExecutor({
      library: libraryOf(EDITOR, APP('ed1'), launching),
      desktop: neverShows().desktop,
      clock: jumping(),
    }).run({
      skill: 'ed1.save',
      args: { path: '/tmp/a.txt' },
    });
    expect(plain.error?.message).toMatch(/^No window of `ed1` appeared within 30000 ms/);
  });

  it('starts nothing for a skill whose manifest does not allow launching its app: its first window step fails', async () => {
    const { exec, fake } = setup({ running: false });
    const r = await exec().run({ skill: 'ed1.save', args: { path: '/tmp/a.txt' } });
    expect(r.status).toBe('failed');
    expect(r.error?.message).toBe('No window of `ed1` to focus; is the app running?');
    expect(fake.calls.some((c) => c.op === 'launch')).toBe(false);
  });

  it('fails with a clear message and no input when an argument is outside its domain', async () => {
    const { exec, fake, journal } = setup({ running: true });
    const r = await exec().run({ skill: 'Editor.write', app: 'ed1', args: { text: 'hi', path: 'relative.txt' } });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('args.invalid');
    expect(r.error?.message).toContain('Expected `path` to be an absolute POSIX path, got `relative.txt` (string)');
    expect(fake.inputCalls()).toEqual([]);
    expect(journal.runs.get(r.runId)?.status).toBe('failed');
  });

  it('stops before the next primitive when aborted mid-run', async () => {
    const { exec, fake } = setup({ running: true });
    const ac = new AbortController();
    fake.hooks.beforeInput = (c) => {
      if (c.op === 'type') ac.abort();
    };
    const r = await exec().run({ skill: 'Editor.write', app: 'ed1', args: { text: 'hi', path: '/tmp/b.txt' }, signal: ac.signal });
    expect(r.status).toBe('aborted');
    expect(fake.inputCalls()).toEqual([{ op: 'type', text: 'hi' }]);
  });

  it('stops the whole run on a denial without trying alternatives', async () => {
    const { exec, fake } = setup({ running: false });
    const seen: ActionRequest[] = [];
    const denyLaunch: ActionMediator = {
      check: async (req) => {
        seen.push(req);
        return req.primitive.action === 'launch'
          ? { effect: 'deny', code: 'permission.denied', reason: 'app.launch is not declared' }
          : { effect: 'allow' };
      },
    };
    const r = await exec(denyLaunch).run({ skill: 'ed2.type', args: { text: 'x' } });
    expect(r.status).toBe('failed');
    expect(r.error).toMatchObject({ code: 'permission.denied', nodeId: 'launch', skillId: 'ed2.type' });
    expect(r.steps.at(-1)?.outcome).toBe('denied');
    expect(fake.calls.some((c) => c.op === 'launch')).toBe(false);
    expect(seen.map((s) => s.primitive.action)).toEqual(['wait', 'focus_window', 'launch']);
  });

  it('passes resolved templates and the active window to the mediator', async () => {
    const { exec, fake } = setup({ running: true });
    fake.setActiveWindow('w1');
    const seen: ActionRequest[] = [];
    await exec({ check: async (r) => (seen.push(r), { effect: 'allow' }) }).run({ skill: 'ed1.type', args: { text: 'secret' } });
    const typing = seen.find((s) => s.primitive.action === 'type_text')!;
    expect(typing.primitive).toEqual({ action: 'type_text', text: 'secret' });
    expect(typing.activeWindow?.id).toBe('w1');
    expect(typing.activeWindowIsApp).toBe(true);
  });

  it('waits out a focus handoff (no window focused for a moment) before deciding on input, and no longer than three seconds', async () => {
    // The owner takes the focus back after two answers of "none".
    const { exec, fake } = setup({ running: true });
    const active = fake.desktop.windows.active.bind(fake.desktop.windows);
    let gap = 2;
    fake.desktop.windows.active = async () => (gap-- > 0 ? undefined : active());
    const seen: ActionRequest[] = [];
    const r = await exec({ check: async (req) => (seen.push(req), { effect: 'allow' }) }).run({ skill: 'ed1.type', args: { text: 'x' } });
    expect(r.status).toBe('succeeded');
    expect(gap).toBeLessThan(0);
    expect(seen.find((s) => s.primitive.action === 'type_text')?.activeWindowIsApp).toBe(true);

    // Nobody takes it: input is judged with no focused window once the three seconds are up.
    const { exec: exec2, fake: fake2 } = setup({ running: true });
    fake2.desktop.windows.active = async () => undefined;
    let t = 0;
    const seen2: ActionRequest[] = [];
    const mediator = { check: async (req: ActionRequest) => (seen2.push(req), { effect: 'allow' as const }) };
    await exec2(mediator, { now: () => t, sleep: async () => void (t += 50) }).run({ skill: 'ed1.type', args: { text: 'x' } });
    expect(seen2.find((s) => s.primitive.action === 'type_text')?.activeWindowIsApp).toBe(false);
    expect(t).toBeGreaterThanOrEqual(3000);
    expect(t).toBeLessThan(3200);
  });

  it('dry-runs the shipped write_file without touching windows, files or processes', async () => {
    const { loadLibrary } = await import('../../../../src/main/services/library/YamlLibraryLoader');
    const { library: lib } = await loadLibrary({ builtinDir: 'skills' });
    const fake = fakeDesktop();
    const r = await testExecutor({ library: lib, desktop: fake.desktop }).run({
      skill: 'TextEditor.write_file',
      app: 'wine-notepad',
      args: { path: '/tmp/x y.txt', text: 'a\tb' },
      dryRun: true,
    });
    expect(r.status).toBe('succeeded');
    expect(fake.calls.filter((c) => c.op === 'launch' || c.op === 'script')).toEqual([]);
    expect(fake.inputCalls()).toContainEqual({ op: 'type', text: 'Z:\\tmp\\x y.txt' });
    expect(fake.inputCalls()).toContainEqual({ op: 'type', text: 'a\tb' });
  });
});

describe('src/main/services/executor/GraphExecutor wait_for_window fresh', () => {
  const CONFIRM = `
kind: skill
id: ed1.confirm
app: ed1
description: press Enter and dismiss the box it opens
intents: [confirm]
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: act }
    act: { action: key, key: Enter, next: box }
    box: { action: wait_for_window, title: 'ed1$', fresh: true, timeoutMs: 300, next: ok }
    ok: { action: key, key: Escape, next: done }
    done: { terminal: success }
`;

  it('waits past the windows the run has already met for a new one titled like the main window', async () => {
    const lib = libraryOf(EDITOR, APP('ed1'), CONFIRM);
    const fake = fakeDesktop({ windows: [win('main', 'doc - ed1', 'ed1')] });
    // The app answers Enter with a message box titled like its main window, before the wait starts.
    fake.hooks.beforeInput = (call) => {
      if (call.op === 'key' && call.key === 'Enter') fake.windows.push(win('box', 'ed1', 'ed1'));
    };
    const r = await testExecutor({ library: lib, desktop: fake.desktop }).run({ skill: 'ed1.confirm' });
    expect(r.status).toBe('succeeded');
    expect(fake.calls.filter((c) => c.op === 'focus').map((c) => c.id)).toEqual(['main', 'box']);
  });

  it('fails when no new window comes, instead of taking the main window', async () => {
    const lib = libraryOf(EDITOR, APP('ed1'), CONFIRM);
    const fake = fakeDesktop({ windows: [win('main', 'doc - ed1', 'ed1')] });
    const r = await testExecutor({ library: lib, desktop: fake.desktop }).run({ skill: 'ed1.confirm' });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('window.timeout');
    expect(fake.calls.filter((c) => c.op === 'focus').map((c) => c.id)).toEqual(['main']);
  });
});
