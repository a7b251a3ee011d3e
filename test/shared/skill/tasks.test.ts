import { beforeAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';
import { checkArgs, graphPrimitives, synthesizeTasks, type SkillLibrary } from '../../../src/shared/skill';

const APPS = ['wine-notepad', 'mousepad', 'gnome-calculator', 'notepad', 'calculator'];

describe('src/shared/skill/tasks', () => {
  let library: SkillLibrary;
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
  });

  it('synthesizes tasks only from roots of the composition graph, on apps where their whole call tree resolves', () => {
    const tasks = synthesizeTasks(library, { apps: APPS, perSkill: 2, tempDir: '/tmp/t' });
    const called = new Set(
      [...library.skills.values()].flatMap((s) =>
        graphPrimitives(s.graph).flatMap((p) => (p.action === 'call' ? [library.canonicalRef(p.skill)] : [])),
      ),
    );
    for (const t of tasks) {
      const skill = library.skills.get(t.skill)!;
      expect(called.has(library.canonicalRef(t.skill)) || called.has(skill.implements ?? ''), `${t.id} is called by another skill`).toBe(
        false,
      );
    }
    const appsOf = (skill: string) => [...new Set(tasks.filter((t) => t.skill === skill).map((t) => t.app))].sort();
    expect(appsOf('TextEditor.write_file')).toEqual(['mousepad', 'notepad', 'wine-notepad']);
    expect(appsOf('Calculator.evaluate')).toEqual(['calculator', 'gnome-calculator']);
    expect(appsOf('mousepad.go_to_line')).toEqual(['mousepad']);
    expect(tasks.filter((t) => t.skill === 'TextEditor.write_file' && t.app === 'mousepad')).toHaveLength(2);
    // Implementations that a composite calls are never roots of their own.
    expect(tasks.some((t) => t.skill === 'mousepad.save_as' || t.skill === 'gnome-calculator.equals')).toBe(false);
  });

  it('lists the concrete skills a task runs, resolved for its app, and counts their primitives without calls', () => {
    const [task] = synthesizeTasks(library, {
      apps: ['mousepad'],
      perSkill: 1,
      tempDir: '/tmp/t',
      only: (s) => s.id === 'TextEditor.write_file',
    });
    expect(task!.skills).toEqual(['TextEditor.write_file', 'mousepad.new_document', 'mousepad.type_text', 'mousepad.save_as']);
    const expected = task!.skills.reduce(
      (n, id) => n + graphPrimitives(library.skills.get(id)!.graph).filter((p) => p.action !== 'call').length,
      0,
    );
    expect(task!.primitives).toBe(expected);
    expect(task!.primitives).toBeGreaterThan(10);
  });

  it('opens the app first when nothing under the root launches it', () => {
    const tasks = synthesizeTasks(library, { apps: ['mousepad', 'gnome-calculator'], perSkill: 1, tempDir: '/tmp/t' });
    const of = (skill: string, app: string) => tasks.find((t) => t.skill === skill && t.app === app)!;
    expect(of('TextEditor.write_file', 'mousepad').before).toEqual([]); // new_document launches the editor
    expect(of('Calculator.evaluate', 'gnome-calculator').before).toEqual([{ skill: 'Desktop.open_app', args: {} }]);
    expect(of('mousepad.go_to_line', 'mousepad').before).toEqual([{ skill: 'Desktop.open_app', args: {} }]);
    expect(of('Desktop.open_app', 'mousepad').before).toEqual([]);
  });

  it('samples arguments inside their feasible domains, with Windows paths for Windows-only apps', () => {
    const tasks = synthesizeTasks(library, { apps: APPS, perSkill: 4, seed: 7, tempDir: '/tmp/t' });
    expect(tasks.length).toBeGreaterThan(20);
    for (const t of tasks) {
      const windows = library.apps.get(t.app)!.platforms.every((p) => p === 'win32');
      const check = checkArgs(library.skills.get(t.skill)!.args, t.args, { pathStyle: windows ? 'win32' : 'posix' });
      expect(check, t.id).toMatchObject({ ok: true });
    }
    const onNotepad = tasks.find((t) => t.skill === 'TextEditor.write_file' && t.app === 'notepad')!;
    expect(onNotepad.args.path).toMatch(/^C:\\Users\\Public\\Documents\\/);
    const onMousepad = tasks.find((t) => t.skill === 'TextEditor.write_file' && t.app === 'mousepad')!;
    expect(onMousepad.args.path).toMatch(/^\/tmp\/t\//);
  });

  it('is deterministic for a seed and varies with it', () => {
    const run = (seed: number) => synthesizeTasks(library, { apps: APPS, perSkill: 3, seed, tempDir: '/tmp/t' });
    expect(run(3)).toEqual(run(3));
    expect(run(3).map((t) => t.args)).not.toEqual(run(4).map((t) => t.args));
  });

  it('refuses a task count that is not a positive integer', () => {
    expect(() => synthesizeTasks(library, { apps: APPS, perSkill: 0, tempDir: '/tmp/t' })).toThrow(
      'Expected `perSkill` to be a positive integer, got `0`',
    );
  });
});
