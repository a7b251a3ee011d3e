import { describe, expect, it } from 'vitest';
import { jsonPointer } from '../../../../src/main/services/executor/conditionChecks';
import type { RegistryValue } from '../../../../src/shared/ports/desktop';
import type { AccessibleElement, Grounder } from '../../../../src/shared/ports/grounding';
import { libraryOf, testExecutor } from '../../../helpers/executor';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const APP = `
kind: app
id: ed
name: ed
platforms: [linux]
launch: { command: ed }
windows: { process: '^ed$', title: 'ed$' }
`;
/** An app skill that only waits for `condition` (given as YAML flow text). */
const CHECK = (condition: string) => `
kind: skill
id: ed.check
app: ed
description: check
intents: [check]
graph:
  start: wait
  nodes:
    wait: { action: wait_until, condition: ${condition}, timeoutMs: 30, next: done }
    done: { terminal: success }
`;

async function check(
  condition: string,
  o: { files?: Record<string, string>; grounder?: Grounder; registry?: Record<string, RegistryValue> } = {},
) {
  const fake = fakeDesktop({
    windows: [win('w1', 'doc - ed', 'ed')],
    ...(o.files && { files: o.files }),
    ...(o.registry && { registry: o.registry }),
  });
  const r = await testExecutor({
    library: libraryOf(APP, CHECK(condition)),
    desktop: fake.desktop,
    ...(o.grounder && { grounder: o.grounder }),
  }).run({
    skill: 'ed.check',
    app: 'ed',
  });
  return { ok: r.status === 'succeeded', error: r.error?.message };
}

const tree = (elements: AccessibleElement[]): Grounder => ({
  locate: async () => ({ found: false, reason: 'not used', source: 'test' }),
  inspect: async (q) => ({
    supported: true,
    source: 'test',
    elements: elements.filter((e) => e.name === q.name && (!q.role || e.role === q.role)),
  }),
});

describe('src/main/services/executor/PrimitiveRunner (content, JSON and accessibility conditions)', () => {
  it('checks what a file holds, as text or by a pattern, and waits while it does not exist', async () => {
    const files = { '/tmp/a.txt': 'total: 42\nend\n' };
    expect((await check("{ kind: file_contains, path: /tmp/a.txt, text: 'total: 42' }", { files })).ok).toBe(true);
    expect((await check("{ kind: file_contains, path: /tmp/a.txt, pattern: '^end$' }", { files })).ok).toBe(false);
    expect((await check("{ kind: file_contains, path: /tmp/a.txt, pattern: 'total: \\d+' }", { files })).ok).toBe(true);
    expect((await check("{ kind: file_contains, path: /tmp/a.txt, text: 'total: 43', present: false }", { files })).ok).toBe(true);
    expect((await check("{ kind: file_contains, path: /tmp/a.txt, text: 'total: 42', present: false }", { files })).ok).toBe(false);
    expect((await check('{ kind: file_exists, path: /tmp/none.txt, present: false }', { files })).ok).toBe(true);
    expect((await check('{ kind: file_exists, path: /tmp/a.txt, present: false }', { files })).error).toMatch(
      /File `\/tmp\/a.txt` is gone did not hold/,
    );
    // Absent means the file is there without it: a missing file holds nothing and proves nothing.
    expect((await check("{ kind: file_contains, path: /tmp/none.txt, text: 'x', present: false }", { files })).ok).toBe(false);
    expect((await check("{ kind: file_contains, path: /tmp/none.txt, text: 'x' }", { files })).error).toMatch(
      /File `\/tmp\/none.txt` contains `x`/,
    );
  });

  it('reads a JSON value by pointer, numbers matching their text, and never a value that is not there', async () => {
    const files = { '/tmp/s.json': JSON.stringify({ 'editor.fontSize': 14, 'a/b': { list: [true, null] }, name: 'x' }) };
    expect((await check('{ kind: json_value, path: /tmp/s.json, pointer: /editor.fontSize, equals: 14 }', { files })).ok).toBe(true);
    expect((await check("{ kind: json_value, path: /tmp/s.json, pointer: /editor.fontSize, equals: '14' }", { files })).ok).toBe(true);
    expect((await check('{ kind: json_value, path: /tmp/s.json, pointer: /a~1b/list/1, equals: null }', { files })).ok).toBe(true);
    expect((await check('{ kind: json_value, path: /tmp/s.json, pointer: /a~1b/list/5, equals: null }', { files })).ok).toBe(false);
    expect((await check("{ kind: json_value, path: /tmp/s.json, pointer: /name, equals: 'y' }", { files })).ok).toBe(false);
    expect(
      (await check("{ kind: json_value, path: /tmp/s.json, pointer: /name, equals: 'x' }", { files: { '/tmp/s.json': '{ broken' } })).ok,
    ).toBe(false);
    expect(jsonPointer({ a: { '~x': 1 } }, '/a/~0x')).toBe(1);
    expect(jsonPointer({ a: 1 }, '/constructor')).toBeUndefined();
  });

  it('reads an element state from the accessibility tree, its absence included', async () => {
    const grounder = tree([{ name: 'Word wrap', role: 'check menu item', states: ['enabled', 'showing', 'checked'] }]);
    expect((await check('{ kind: ui_element, name: Word wrap, state: checked }', { grounder })).ok).toBe(true);
    expect((await check('{ kind: ui_element, name: Word wrap, state: unchecked }', { grounder })).ok).toBe(false);
    expect((await check('{ kind: ui_element, name: Word wrap, role: check menu item, state: enabled }', { grounder })).ok).toBe(true);
    expect((await check('{ kind: ui_element, name: Word wrap, role: push button }', { grounder })).ok).toBe(false);
    expect((await check('{ kind: ui_element, name: Save, present: false }', { grounder })).ok).toBe(true);
    // A plain menu item drawn with a check mark reports no state: "unchecked" cannot be told from "not checkable".
    const drawn = tree([{ name: 'Word Wrap', role: 'menu item', states: ['enabled', 'showing'] }]);
    expect((await check('{ kind: ui_element, name: Word Wrap, state: unchecked }', { grounder: drawn })).error).toMatch(
      /cannot be checked: the element reports no unchecked state \(menu item\)/,
    );
  });

  it('fails at once, saying why, where no accessibility tree can be read (never a guess from pixels)', async () => {
    const noTree: Grounder = {
      locate: async () => ({ found: true, point: { x: 1, y: 1 }, confidence: 1, source: 'ocr' }),
      inspect: async () => ({ supported: false, reason: 'notepad.exe has no AT-SPI tree (Wine)' }),
    };
    const r = await check('{ kind: ui_element, name: Word wrap, state: checked }', { grounder: noTree });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/An element named `Word wrap` checked cannot be checked here: notepad.exe has no AT-SPI tree \(Wine\)/);
    const ocrOnly: Grounder = { locate: noTree.locate };
    expect((await check('{ kind: ui_element, name: X }', { grounder: ocrOnly })).error).toMatch(/no accessibility grounder/);
  });

  it('asks again when a tree could not be read this time (a slow walk), and says so when the time runs out', async () => {
    let calls = 0;
    const slowThenAnswers: Grounder = {
      locate: async () => ({ found: false, reason: 'not used', source: 'test' }),
      inspect: async () =>
        ++calls < 3
          ? { supported: false, reason: 'reading the accessibility tree took longer than 10000 ms', retry: true }
          : { supported: true, source: 'test', elements: [{ name: 'Word wrap', role: 'check menu item', states: ['checked'] }] },
    };
    expect((await check('{ kind: ui_element, name: Word wrap, state: checked }', { grounder: slowThenAnswers })).ok).toBe(true);
    expect(calls).toBe(3);
    // Never read: the wait fails (it does not take "unknown" for "absent") and carries the reason.
    const neverRead: Grounder = {
      locate: slowThenAnswers.locate,
      inspect: async () => ({ supported: false, reason: 'reading the accessibility tree took longer than 10000 ms', retry: true }),
    };
    const r = await check('{ kind: ui_element, name: Save, present: false }', { grounder: neverRead });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/did not hold within 30 ms \(last check: reading the accessibility tree took longer than 10000 ms\)/);
  });

  it('judges the state of an element once it is there, when it comes later than the wait would end', async () => {
    let since = Date.now();
    // The dialog's tree is published 200 ms on, after the 30 ms wait: its box is unchecked.
    const late: Grounder = {
      locate: async () => ({ found: false, reason: 'not used', source: 'test' }),
      inspect: async () => ({
        supported: true,
        source: 'test',
        elements: Date.now() - since < 200 ? [] : [{ name: 'Use regular expressions', role: 'check box', states: [] }],
      }),
    };
    expect((await check('{ kind: ui_element, name: Use regular expressions, state: unchecked }', { grounder: late })).ok).toBe(true);
    since = Date.now();
    // There, but in the other state: the wait fails within its own timeout once the box is read.
    const r = await check('{ kind: ui_element, name: Use regular expressions, state: checked }', { grounder: late });
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/checked did not hold within 30 ms$/);
  });

  it('waits on the window the skill works in when the condition says `current`, whatever other windows show', async () => {
    // The same picture in two windows; closing it in the one in hand leaves the other as it was.
    const run = async (current: boolean) => {
      const fake = fakeDesktop({ windows: [win('w1', 'pic - ed', 'ed'), win('w2', 'pic - ed', 'ed')] });
      fake.hooks.beforeInput = (call) => {
        if (call.op === 'hotkey') fake.windows.find((w) => w.id === 'w2')!.title = 'ed';
      };
      const close = `
kind: skill
id: ed.close
app: ed
description: close
intents: [close]
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: close }
    close: { action: hotkey, keys: [Control, w], next: gone }
    gone: { action: wait_until, condition: { kind: window_gone, pattern: '^pic - ed$', current: ${current} }, timeoutMs: 30, next: done }
    done: { terminal: success }
`;
      return testExecutor({ library: libraryOf(APP, close), desktop: fake.desktop }).run({ skill: 'ed.close', app: 'ed' });
    };
    expect((await run(true)).status).toBe('succeeded');
    expect((await run(false)).error?.message).toMatch(/No window titled \/\^pic - ed\$\/ left did not hold/);
    expect((await check("{ kind: window_title, pattern: 'ed$', current: true }")).error).toMatch(/the skill has no window in hand/);
  });

  it('reads a registry value by key and name, any spelling of its root, and says so where there is no registry', async () => {
    const registry = {
      'HKEY_CURRENT_USER\\Software\\SkillDesk\\Answer': { type: 'REG_DWORD', data: '42' },
      'HKEY_CURRENT_USER\\Software\\SkillDesk\\': { type: 'REG_SZ', data: 'default value' },
    };
    const key = 'HKCU\\Software\\SkillDesk';
    expect((await check(`{ kind: registry_value, key: '${key}', name: Answer, equals: 42 }`, { registry })).ok).toBe(true);
    expect((await check(`{ kind: registry_value, key: '${key}', name: Answer, equals: '42' }`, { registry })).ok).toBe(true);
    expect((await check(`{ kind: registry_value, key: '${key}', name: Answer, equals: 43 }`, { registry })).ok).toBe(false);
    expect(
      (await check(`{ kind: registry_value, key: 'Computer\\HKEY_CURRENT_USER\\Software\\SkillDesk', name: Answer }`, { registry })).ok,
    ).toBe(true);
    expect((await check(`{ kind: registry_value, key: '${key}', name: '', equals: default value }`, { registry })).ok).toBe(true);
    expect((await check(`{ kind: registry_value, key: '${key}', name: Gone, present: false }`, { registry })).ok).toBe(true);
    expect((await check(`{ kind: registry_value, key: '${key}', name: Answer, present: false }`, { registry })).ok).toBe(false);
    const r = await check(`{ kind: registry_value, key: '${key}', name: Answer }`);
    expect(r.error).toMatch(
      /Registry `HKCU\\Software\\SkillDesk` has `Answer` cannot be checked here: this desktop \(linux\) has no Windows registry/,
    );
  });

  it('branches on a registry value (a guard), reading the state before changing it', async () => {
    const SKILL = `
kind: skill
id: ed.set_speed
app: ed
description: set
intents: [set]
args: { speed: { type: number, min: 1, max: 20, integer: true } }
graph:
  start: current
  nodes:
    current:
      action: wait
      ms: 0
      next:
        - { to: same, when: { registry_value: { key: 'HKCU\\\\Control Panel\\\\Mouse', name: MouseSensitivity, equals: '\${speed}' } } }
        - { to: change, when: { not: { registry_value: { key: 'HKCU\\\\Control Panel\\\\Mouse', name: MouseSensitivity, equals: '\${speed}' } } } }
    same: { action: wait, ms: 0, next: done }
    change: { action: key, key: Home, next: done }
    done: { terminal: success }
`;
    const registry = { 'HKEY_CURRENT_USER\\Control Panel\\Mouse\\MouseSensitivity': { type: 'REG_SZ', data: '10' } };
    const run = async (speed: number) => {
      const fake = fakeDesktop({ windows: [win('w1', 'doc - ed', 'ed')], registry });
      const r = await testExecutor({ library: libraryOf(APP, SKILL), desktop: fake.desktop }).run({
        skill: 'ed.set_speed',
        app: 'ed',
        args: { speed },
      });
      expect(r.error?.message).toBeUndefined();
      return r.steps.map((st) => st.nodeId);
    };
    expect(await run(10)).toEqual(['current', 'same']);
    expect(await run(12)).toEqual(['current', 'change']);
  });
});
