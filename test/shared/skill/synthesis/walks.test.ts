import { beforeAll, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { checkArgs, SynthesizedTaskSchema, synthesizeTasks, type SkillLibrary, type SynthesizedTask } from '../../../../src/shared/skill';

const APPS = [
  'mousepad',
  'wine-notepad',
  'geany',
  'gnome-calculator',
  'pcmanfm',
  'thunar',
  'xterm',
  'libreoffice-calc',
  'kolourpaint',
  'xarchiver',
];

describe('src/shared/skill/synthesis/walks', () => {
  let library: SkillLibrary;
  let tasks: SynthesizedTask[];
  beforeAll(async () => {
    library = (await loadLibrary({ builtinDir: 'skills' })).library;
    tasks = synthesizeTasks(library, { apps: APPS, count: 200, seed: 11, tempDir: '/tmp/t' }).tasks;
  }, 60_000);

  it('gives the same tasks for the same seed, and others for another seed', () => {
    const again = synthesizeTasks(library, { apps: APPS, count: 200, seed: 11, tempDir: '/tmp/t' }).tasks;
    expect(again).toEqual(tasks);
    const other = synthesizeTasks(library, { apps: APPS, count: 200, seed: 12, tempDir: '/tmp/t' }).tasks;
    expect(other.map((t) => t.steps)).not.toEqual(tasks.map((t) => t.steps));
    // A task depends on its seed and position only: the first tasks of a longer run are the same.
    expect(synthesizeTasks(library, { apps: APPS, count: 20, seed: 11, tempDir: '/tmp/t' }).tasks).toEqual(tasks.slice(0, 20));
  });

  it('makes tasks of 2 to 8 skills on every app asked for, each step inside its domains, each task with a check', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(190);
    expect(new Set(tasks.map((t) => t.apps[0]))).toEqual(new Set(APPS));
    for (const t of tasks) {
      expect(SynthesizedTaskSchema.safeParse(t).success, t.id).toBe(true);
      expect(t.steps.length, t.id).toBeGreaterThanOrEqual(2);
      expect(t.steps.length, t.id).toBeLessThanOrEqual(8);
      expect(t.check.length, t.id).toBeGreaterThan(0);
      expect(t.instruction, t.id).toMatch(/^In .+\.$/);
      for (const step of t.steps) {
        const skill = library.resolve(step.skill, step.app);
        expect(checkArgs(skill.args, step.args), `${t.id} ${step.skill}`).toMatchObject({ ok: true });
      }
    }
  });

  it('opens only files that are there: given to the task, or made by an earlier step', () => {
    for (const t of tasks) {
      const made = new Set([...Object.keys(t.setup.files), ...t.setup.folders]);
      for (const step of t.steps) {
        if (step.skill === 'Document.open_file')
          expect(made.has(String(step.args.path)), `${t.id} opens ${String(step.args.path)}`).toBe(true);
        for (const key of ['path', 'output']) if (typeof step.args[key] === 'string') made.add(String(step.args[key]));
        if (typeof step.args.destination === 'string') made.add(String(step.args.destination));
      }
    }
  });

  it('closes documents saying what becomes of their changes, never with the default cancel that keeps them open', () => {
    const closes = tasks.flatMap((t) =>
      t.steps.filter((s) => s.skill === 'Document.close_document').map((s) => [t.id, s.args.unsaved] as const),
    );
    expect(closes.length).toBeGreaterThan(5);
    for (const [id, unsaved] of closes) expect(['save', 'discard'], id).toContain(unsaved);
  });

  it('lets data flow between steps and apps: a file one app saves is one another app opens', () => {
    const flows = tasks.filter((t) =>
      t.steps.some(
        (s, i) => s.skill === 'Document.open_file' && t.steps.slice(0, i).some((e) => e.app !== s.app && e.args.path === s.args.path),
      ),
    );
    expect(flows.length).toBeGreaterThan(0);
  });

  it('checks file bytes the steps leave, as the text model tells them', () => {
    const written = tasks.flatMap((t) => t.check.filter((c) => c.kind === 'file_text').map((c) => ({ t, c })));
    expect(written.length).toBeGreaterThan(20);
    // Geany ends every saved file with a line break (its profile says so).
    const geany = tasks.find((t) => t.apps.length === 1 && t.apps[0] === 'geany' && t.check.some((c) => c.kind === 'file_text'))!;
    for (const c of geany.check) if (c.kind === 'file_text') expect(c.equals.endsWith('\n'), geany.id).toBe(true);
  });

  it('computes what calculations, commands and cells return', () => {
    const results = tasks.flatMap((t) => t.check.filter((c) => c.kind === 'result').map((c) => ({ t, c })));
    const calc = results.find(({ t, c }) => c.kind === 'result' && t.steps[c.step]!.skill === 'Calculator.evaluate')!;
    const expression = String(calc.t.steps[(calc.c as { step: number }).step]!.args.expression);
    expect(expression).toMatch(/^[0-9+\-*/(). sqrt]+$/);
    expect(results.some(({ t, c }) => c.kind === 'result' && t.steps[c.step]!.skill === 'CommandLine.run_command')).toBe(true);
  });

  it('reports how many skill sequences the graph can make, and refuses bad options', () => {
    const { space } = synthesizeTasks(library, { apps: APPS, count: 1, seed: 1, tempDir: '/tmp/t' });
    expect(BigInt(space.walks)).toBeGreaterThan(10_000n);
    expect(space.nodes).toBeGreaterThan(50);
    expect(() => synthesizeTasks(library, { apps: ['nope'], count: 1, tempDir: '/tmp/t' })).toThrow('No app `nope` in the library');
    expect(() => synthesizeTasks(library, { apps: APPS, count: -1, tempDir: '/tmp/t' })).toThrow('non-negative integer');
    expect(() => synthesizeTasks(library, { apps: APPS, count: 1, minSteps: 5, maxSteps: 3, tempDir: '/tmp/t' })).toThrow('minSteps');
  });
});
