import { describe, expect, it } from 'vitest';
import { LibraryDocSchema, SkillLibrary, type SourceRef, type SourcedDoc } from '../../../src/shared/skill';
import { loadLibrary } from '../../../src/main/services/library/YamlLibraryLoader';

const builtin: SourceRef = { file: 'skills/x.yaml', origin: 'builtin' };
const doc = (d: unknown, source: SourceRef = builtin): SourcedDoc => ({ doc: LibraryDocSchema.parse(d), source });
const method = (args = {}) => ({ description: 'd', intents: ['i'], args });
const graph = { start: 'a', nodes: { a: { action: 'key', key: 'Enter', next: 'done' }, done: { terminal: 'success' } } };
const keys = [{ capability: 'input.keyboard', effect: 'allow' }];
const app = (id: string) => ({
  kind: 'app',
  id,
  name: id,
  platforms: ['linux'],
  launch: { command: id },
  windows: { class: `^${id}$` },
  implements: ['Ed'],
});

/** An interface with two methods and a composite calling both; two apps, `ed` implementing both methods. */
function base(): SourcedDoc[] {
  return [
    doc({
      kind: 'interface',
      id: 'Ed',
      description: 'e',
      methods: {
        open: method({ path: { type: 'path' } }),
        save: method(),
        open_and_save: {
          ...method({ path: { type: 'path' } }),
          composite: {
            permissions: [],
            graph: {
              start: 'o',
              nodes: {
                o: { action: 'call', skill: 'Ed.open', args: { path: '${path}' }, next: 's' },
                s: { action: 'call', skill: 'Ed.save', next: 'done' },
                done: { terminal: 'success' },
              },
            },
          },
        },
      },
    }),
    doc(app('ed')),
    doc(app('other')),
    doc({ kind: 'skill', id: 'ed.open', app: 'ed', implements: 'Ed.open', permissions: keys, graph }),
    doc({ kind: 'skill', id: 'ed.save', app: 'ed', implements: 'Ed.save', permissions: keys, graph }),
    doc({ kind: 'skill', id: 'other.save', app: 'other', implements: 'Ed.save', permissions: keys, graph }),
  ];
}

const tests = (app: string, steps: unknown[], lane = 'desktop') => ({
  kind: 'live_tests',
  app,
  lane,
  tests: [{ name: 'opens and saves', steps, expect: [{ file: 'a.txt', equals: 'x' }] }],
});

describe('src/shared/skill/liveTests (live tests shipped with the skills)', () => {
  it('marks what a test runs as verified on its lane: the step skills and, through a composite, what it calls on that app', () => {
    const library = new SkillLibrary([
      ...base(),
      doc(tests('ed', [{ run: 'Ed.open_and_save', args: { path: '${dir}/a.txt' } }])),
      doc(tests('other', [{ run: 'Ed.save' }], 'windows')),
    ]);
    expect(library.errors).toEqual([]);
    expect(library.verification('Ed.open_and_save', 'ed')).toEqual({
      status: 'live_desktop',
      tests: [{ lane: 'desktop', file: 'skills/x.yaml', test: 'opens and saves' }],
    });
    expect(library.verification('ed.open', 'ed').status).toBe('live_desktop');
    expect(library.verification('ed.save', 'ed').status).toBe('live_desktop');
    expect(library.verification('other.save', 'other').status).toBe('live_windows');
    // A composite is verified per app: not on `other`, where no test ran it.
    expect(library.verification('Ed.open_and_save', 'other').status).toBe('dry_run');
  });

  it('reports unknown apps, methods an app lacks and undeclared arguments, with their paths', () => {
    const library = new SkillLibrary([
      ...base(),
      doc(tests('nope', [{ run: 'Ed.save' }])),
      doc(
        tests('other', [
          { run: 'Ed.open', args: { path: '/x' } },
          { run: 'Ed.save', args: { fast: true } },
        ]),
      ),
    ]);
    const problems = library.errors.map((p) => `${p.path.join('.')}: ${p.message}`);
    expect(problems).toContainEqual(expect.stringMatching(/^app: unknown app `nope`/));
    expect(problems).toContainEqual(expect.stringMatching(/^tests\.0\.steps\.0\.run: App `other` has no implementation of `Ed\.open`/));
    expect(problems).toContainEqual('tests.0.steps.1.args.fast: `other.save` has no argument `fast`; it has: (none)');
    // A file with problems vouches for nothing.
    expect(library.verification('other.save', 'other').status).toBe('dry_run');
  });

  it("counts only shipped files: a user's live-tests file cannot make a skill look verified", () => {
    const user: SourceRef = { file: '/home/me/skills/t.yaml', origin: 'user' };
    const library = new SkillLibrary([...base(), doc(tests('ed', [{ run: 'Ed.save' }]), user)]);
    expect(library.errors).toEqual([]);
    expect(library.verification('ed.save', 'ed')).toEqual({ status: 'dry_run', tests: [] });
  });

  it('rejects paths that leave the test folder and expectations that check nothing', () => {
    const bad = (expectation: unknown, files: unknown = {}) =>
      LibraryDocSchema.safeParse({
        kind: 'live_tests',
        app: 'ed',
        tests: [{ name: 'n', files, steps: [{ run: 'Ed.save' }], expect: [expectation] }],
      }).success;
    expect(bad({ file: '../etc/passwd', equals: '' })).toBe(false);
    expect(bad({ absent: '/tmp/x' })).toBe(false);
    expect(bad({ file: 'a.txt' })).toBe(false);
    expect(bad({ file: 'a.txt', equals: '' }, { 'sub/../../x': 'y' })).toBe(false);
    expect(bad({ file: 'a.txt', equals: '' }, { 'img.png': { base64: 'iVBORw0KGgo=' } })).toBe(true);
  });

  it("reads and cleans the registry in the Windows lane only, and cleans only the tests' own keys", () => {
    const withRegistry = (lane: string, clean: string[]) => ({
      kind: 'live_tests',
      app: 'ed',
      lane,
      clean_registry: clean,
      tests: [
        {
          name: 'n',
          steps: [{ run: 'Ed.save' }],
          expect: [{ registry: { key: 'HKCU\\Software\\SkillDeskTest\\A', name: 'x', equals: '1' } }],
        },
      ],
    });
    expect(new SkillLibrary([...base(), doc(withRegistry('windows', ['HKCU\\Software\\SkillDeskTest\\A']))]).errors).toEqual([]);
    const onDesktop = new SkillLibrary([...base(), doc(withRegistry('desktop', ['HKCU\\Software\\SkillDeskTest\\A']))]);
    expect(onDesktop.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/registry keys can be cleaned in the Windows lane only/),
      expect.stringMatching(/a registry expectation needs lane: windows/),
    ]);
    for (const key of ['HKCU\\Software', 'HKLM\\Software\\SkillDeskTest', 'HKCU\\Software\\SkillDeskTestX', 'HKCU\\Software\\Microsoft'])
      expect(LibraryDocSchema.safeParse(withRegistry('windows', [key])).success, key).toBe(false);
  });

  it('ships live tests that validate against the shipped library', async () => {
    const { library, problems } = await loadLibrary({ builtinDir: 'skills' });
    expect(problems.filter((p) => p.file.includes('live-tests'))).toEqual([]);
    expect(library.liveTests.length).toBeGreaterThan(0);
    expect(library.verification('mousepad.save_as', 'mousepad').status).toBe('live_desktop');
  });
});
