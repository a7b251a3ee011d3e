import { z } from 'zod';
import { SkillDeskError } from '../errors';
import { callEdges } from './graph';
import type { Skill, SkillLibrary, SourceRef } from './library';

/**
 * Live tests shipped with the skills: for one app, sequences of skill runs on the real app and
 * what the world must look like afterwards (files, folders, archives, the clipboard, windows).
 * The `live` test project runs every built-in file of lane `desktop` on the test desktop, the
 * `windows` project those of lane `windows` in the Windows lane; a red run means nothing lands.
 * The Library reads them to show how each implementation is verified. Only shipped files count:
 * a user's file can describe tests, never vouch for a skill.
 */

const RelPathSchema = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), 'a path inside the test folder (relative, no `..`)');

/** Text expectations: exactly, containing, or matching a regex. */
const TextCheck = {
  equals: z.string().optional(),
  contains: z.string().optional(),
  matches: z.string().optional(),
};

export const LiveExpectSchema = z.union([
  /** A file in the test folder and its text (UTF-8). */
  z
    .object({ file: RelPathSchema, ...TextCheck })
    .strict()
    .refine((e) => e.equals !== undefined || e.contains !== undefined || e.matches !== undefined, 'give equals, contains or matches'),
  z.object({ exists: RelPathSchema }).strict(),
  z.object({ absent: RelPathSchema }).strict(),
  /** A folder's entries (names, sorted), exactly. */
  z.object({ dir: RelPathSchema, entries: z.array(z.string()) }).strict(),
  /** The member paths of a .zip or .tar(.gz|.bz2|.xz) archive, sorted, exactly (folders end in `/`). */
  z.object({ archive: RelPathSchema, entries: z.array(z.string()) }).strict(),
  z.object({ clipboard: z.object(TextCheck).strict() }).strict(),
  /** A window of the app whose title matches (a regex). */
  z.object({ window: z.string().min(1) }).strict(),
  /** A GSettings key as `gsettings get` prints it (the display's own settings store). */
  z.object({ gsettings: z.object({ schema: z.string().min(1), key: z.string().min(1), ...TextCheck }).strict() }).strict(),
  /**
   * A Windows registry value's data as the `registry_value` condition reads it (numbers in
   * decimal), or `absent: true`; Windows lane only.
   */
  z
    .object({
      registry: z.object({ key: z.string().min(1), name: z.string(), ...TextCheck, absent: z.literal(true).optional() }).strict(),
    })
    .strict(),
]);
export type LiveExpect = z.infer<typeof LiveExpectSchema>;

export const LiveStepSchema = z
  .object({
    /** `Interface.method` (dispatched to this file's app) or an app skill id. */
    run: z.string().min(1),
    /**
     * Arguments; `${dir}` in a string is the test's fresh folder as the app names it (in the
     * Windows lane a Windows path: write `'${dir}\name.txt'` there).
     */
    args: z.record(z.string(), z.unknown()).default({}),
    /** The run must fail (a refusal, a check that must not pass). */
    fails: z.boolean().default(false),
    /** What the skill must return (compared with ===; numbers within a relative 1e-9). */
    result: z.union([z.string(), z.number(), z.boolean()]).optional(),
  })
  .strict();
export type LiveStep = z.infer<typeof LiveStepSchema>;

export const LiveTestSchema = z
  .object({
    name: z.string().min(1),
    /** Files written into the test's fresh folder first: relative path -> text, or `{ base64 }` for bytes (a small image). */
    files: z.record(RelPathSchema, z.union([z.string(), z.object({ base64: z.string().min(1) }).strict()])).default({}),
    /** Folders created in it first. */
    dirs: z.array(RelPathSchema).default([]),
    /** Text on the clipboard before the first step. */
    clipboard: z.string().optional(),
    steps: z.array(LiveStepSchema).min(1),
    expect: z.array(LiveExpectSchema).default([]),
  })
  .strict();
export type LiveTest = z.infer<typeof LiveTestSchema>;

export const LiveTestsDocSchema = z
  .object({
    kind: z.literal('live_tests'),
    app: z.string().min(1),
    /** `desktop`: the Debian test desktop; `windows`: the Windows lane (Windows programs under Wine). */
    lane: z.enum(['desktop', 'windows']).default('desktop'),
    /**
     * Processes (patterns matched against command lines, as `pgrep -f`) ended before each test,
     * so every test starts with the app closed; default: the app's launch command.
     */
    kill: z.array(z.string().min(1)).optional(),
    /**
     * A stand-in user allows once what the permission policy asks about (typing into a terminal is
     * `shell.execute`, which asks); without it nobody answers and a question is a denial.
     */
    approve: z.boolean().default(false),
    /**
     * The app's own state removed before each test (settings, sessions, crash-recovery data), so
     * every test starts as on a fresh machine: `config/…`, `data/…` or `cache/…`, inside the test
     * desktop's XDG folders (XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME), never elsewhere.
     * @example [config/libreoffice]
     */
    clean: z
      .array(
        z
          .string()
          .regex(/^(config|data|cache)\/[^/]/, 'start with config/, data/ or cache/')
          .refine((p) => !p.split('/').includes('..'), 'no `..`'),
      )
      .default([]),
    /**
     * Registry keys deleted (with their subkeys) before each test: keys of the test's own under
     * `HKEY_CURRENT_USER\\Software\\SkillDeskTest`. Windows lane only.
     */
    clean_registry: z
      .array(
        z
          .string()
          .refine(
            (k) => /^(HKCU|HKEY_CURRENT_USER)\\Software\\SkillDeskTest(\\[^\\]+)*$/i.test(k),
            "a key under HKEY_CURRENT_USER\\Software\\SkillDeskTest (only the tests' own keys are deleted)",
          ),
      )
      .default([]),
    /** Environment for the apps the tests launch, e.g. `GSETTINGS_BACKEND: memory` for settings that start fresh. */
    env: z.record(z.string(), z.string()).default({}),
    tests: z.array(LiveTestSchema).min(1),
  })
  .strict();
export type LiveTestsDoc = z.infer<typeof LiveTestsDocSchema>;

/** How an implementation (or a composite on an app) is verified. */
export type Verification = 'live_desktop' | 'live_windows' | 'dry_run';

export interface LiveCoverage {
  lane: LiveTestsDoc['lane'];
  file: string;
  test: string;
}

export interface LiveTestProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Checks one live-tests file against the library (app known, every step runnable on it with
 * declared arguments) and returns which skills on which app its tests run: each step's skill,
 * and for a composite the app's implementations it calls, transitively.
 */
export function analyseLiveTests(
  library: SkillLibrary,
  doc: LiveTestsDoc,
): { problems: LiveTestProblem[]; covers: { skill: Skill; app: string; test: string }[] } {
  const problems: LiveTestProblem[] = [];
  const covers: { skill: Skill; app: string; test: string }[] = [];
  if (!library.apps.has(doc.app)) {
    problems.push({ path: ['app'], message: `unknown app \`${doc.app}\`; known apps: ${[...library.apps.keys()].join(', ')}` });
    return { problems, covers };
  }
  // The registry is read and cleaned through the Windows lane; the test desktop has none.
  if (doc.lane !== 'windows' && doc.clean_registry.length > 0)
    problems.push({ path: ['clean_registry'], message: 'registry keys can be cleaned in the Windows lane only (lane: windows)' });
  doc.tests.forEach((test, t) => {
    test.expect.forEach((e, i) => {
      if (doc.lane !== 'windows' && 'registry' in e)
        problems.push({ path: ['tests', t, 'expect', i, 'registry'], message: 'a registry expectation needs lane: windows' });
    });
    test.steps.forEach((step, s) => {
      let skill: Skill;
      try {
        skill = library.resolve(step.run, doc.app);
      } catch (err) {
        if (!(err instanceof SkillDeskError)) throw err;
        problems.push({ path: ['tests', t, 'steps', s, 'run'], message: err.message });
        return;
      }
      for (const name of Object.keys(step.args)) {
        if (!Object.hasOwn(skill.args, name))
          problems.push({
            path: ['tests', t, 'steps', s, 'args', name],
            message: `\`${skill.id}\` has no argument \`${name}\`; it has: ${Object.keys(skill.args).join(', ') || '(none)'}`,
          });
      }
      for (const covered of runsOf(library, skill, doc.app)) covers.push({ skill: covered, app: doc.app, test: test.name });
    });
  });
  return { problems, covers };
}

/** A skill and, for composites, what it calls on `app` (each once). */
function runsOf(library: SkillLibrary, skill: Skill, app: string, seen = new Set<string>()): Skill[] {
  if (seen.has(skill.id)) return [];
  seen.add(skill.id);
  const out = [skill];
  if (skill.kind !== 'composite') return out;
  for (const { call } of callEdges(skill.graph)) {
    try {
      out.push(...runsOf(library, library.resolve(call.skill, app), app, seen));
    } catch {
      // A callee the app lacks fails the run itself; nothing is covered by it.
    }
  }
  return out;
}

/** Key of the coverage index: a skill on an app (composites run on whichever app calls them). */
export function coverageKey(skillId: string, app: string | undefined): string {
  return `${skillId}@${app ?? ''}`;
}

/** Built-in coverage only: a user's test file describes, it does not vouch. */
export function countsAsVerification(source: SourceRef): boolean {
  return source.origin === 'builtin';
}
