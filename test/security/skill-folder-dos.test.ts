import { describe, expect, it } from 'vitest';
import { loadCheckedLibrary } from '../../src/main/core/skills';
import { LIBRARY_LIMITS } from '../../src/main/services/library/YamlLibraryLoader';
import { builtinDir, userFolder } from './userSkills';

// Issue 10 item 11: denial of service from the skill folder. Each hostile file is reported with
// its path (the rest of the library loads), and loading stays fast whatever the folder holds.

const errorsOf = (problems: { file: string; message: string; severity: string }[], file: string) =>
  problems.filter((p) => p.severity === 'error' && p.file.endsWith(file)).map((p) => p.message);

const SHIPPED = 'mousepad.save_as';

describe('attack: a skill folder that makes every command hang or crash', () => {
  it('reports a YAML alias bomb as that file’s error; the rest of the library loads', async () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
    ].join('\n');
    // Bounded against the same library without the bomb (the shipped library alone takes seconds
    // on a busy machine): expanded, the bomb would take minutes and gigabytes.
    let started = Date.now();
    await loadCheckedLibrary({ builtinDir, userDir: await userFolder({}) });
    const baseline = Date.now() - started;
    const userDir = await userFolder({ 'bomb.yaml': bomb });
    started = Date.now();
    const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir });
    expect(Date.now() - started).toBeLessThan(2 * baseline + 3000);
    expect(errorsOf(problems, 'bomb.yaml')).toEqual([expect.stringMatching(/alias/i)]);
    expect(library.skills.has(SHIPPED)).toBe(true);
  }, 60_000);

  it('refuses a file over the size limit without parsing it', async () => {
    const big = `kind: skill\nid: mousepad.big\n# ${'x'.repeat(LIBRARY_LIMITS.fileBytes)}\n`;
    const userDir = await userFolder({ 'big.yaml': big });
    const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir });
    expect(errorsOf(problems, 'big.yaml')).toEqual([expect.stringMatching(/^the file has \d+ bytes; a skill file may have at most \d+/)]);
    expect(library.skills.has('mousepad.big')).toBe(false);
    expect(library.skills.has(SHIPPED)).toBe(true);
  });

  it('refuses an inline script over the size limit (analysing it would block Stop all)', async () => {
    const script = `echo ${'a'.repeat(LIBRARY_LIMITS.scriptChars)}`;
    const skill = `kind: skill
id: mousepad.huge_script
app: mousepad
description: run a huge script
intents: [run a huge script]
permissions:
  - { capability: script.execute, effect: allow }
graph:
  start: run
  nodes:
    run: { action: run_script, interpreter: bash, script: '${script}', next: done }
    done: { terminal: success }
`;
    const userDir = await userFolder({ 'huge.yaml': skill });
    const started = Date.now();
    const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(errorsOf(problems, 'huge.yaml').join('\n')).toMatch(/script.*at most \d+ characters/i);
    expect(library.skills.has('mousepad.huge_script')).toBe(false);
  });

  it('derives the manifests of skills with a wide call fan-out in bounded time (each skill is derived once)', async () => {
    // Ten skills, each calling the next ten times: 10^10 call paths, 100 call edges.
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) {
      const calls =
        i === 9
          ? `    c0: { action: focus_window, next: done }\n`
          : Array.from(
              { length: 10 },
              (_, k) => `    c${k}: { action: call, skill: mousepad.fan${i + 1}, next: ${k === 9 ? 'done' : `c${k + 1}`} }\n`,
            ).join('');
      files[`fan${i}.yaml`] = `kind: skill
id: mousepad.fan${i}
app: mousepad
description: fan ${i}
intents: [fan ${i}]
permissions:
  - { capability: skill.call, effect: allow }
  - { capability: app.window, effect: allow, constraints: { apps: [mousepad] } }
graph:
  start: c0
  nodes:
${calls}    done: { terminal: success }
`;
    }
    const userDir = await userFolder(files);
    const started = Date.now();
    const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(library.skills.has('mousepad.fan0')).toBe(true);
  });

  it('refuses, in bounded time, skills whose call cycles multiply with fan-out', async () => {
    // As above, and every skill also calls the first: no derivation below the first can be kept.
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++) {
      const fan = Array.from(
        { length: 10 },
        (_, k) => `    c${k}: { action: call, skill: mousepad.loop${(i + 1) % 10}, next: c${k + 1} }\n`,
      );
      files[`loop${i}.yaml`] = `kind: skill
id: mousepad.loop${i}
app: mousepad
description: loop ${i}
intents: [loop ${i}]
permissions:
  - { capability: skill.call, effect: allow }
graph:
  start: c0
  nodes:
${fan.join('')}    c10: { action: call, skill: mousepad.loop0, next: done }
    done: { terminal: success }
`;
    }
    const userDir = await userFolder(files);
    const started = Date.now();
    const { library, problems } = await loadCheckedLibrary({ builtinDir, userDir });
    expect(Date.now() - started).toBeLessThan(15_000);
    for (let i = 0; i < 10; i++) {
      expect(errorsOf(problems, `loop${i}.yaml`).join('\n')).toMatch(/more than \d+ skill derivations/);
      expect(library.skills.has(`mousepad.loop${i}`)).toBe(false);
    }
    expect(library.skills.has(SHIPPED)).toBe(true);
  });

  it('still finds a need ten calls down, and through a call cycle, when derivations are shared', async () => {
    // b and c call each other; c types. Whichever is derived first, both must need input.keyboard.
    const skill = (id: string, callee: string, extra = '') => `kind: skill
id: mousepad.${id}
app: mousepad
description: ${id}
intents: [${id}]
permissions:
  - { capability: skill.call, effect: allow }
  - { capability: app.window, effect: allow, constraints: { apps: [mousepad] } }
graph:
  start: go
  nodes:
    go: { action: call, skill: mousepad.${callee}, next: ${extra ? 'typing' : 'done'} }
${extra}    done: { terminal: success }
`;
    const typing = `    typing: { action: type_text, text: x, next: done }\n`;
    const userDir = await userFolder({ 'a.yaml': skill('a', 'b'), 'b.yaml': skill('b', 'c'), 'c.yaml': skill('c', 'b', typing) });
    const { problems } = await loadCheckedLibrary({ builtinDir, userDir });
    for (const id of ['a', 'b', 'c'])
      expect(errorsOf(problems, `${id}.yaml`).join('\n'), id).toMatch(/under-declared: needs `input\.keyboard`/);
  });
});
