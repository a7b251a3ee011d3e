import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CoreApiAdapter } from '../../../src/main/bridge/CoreApiAdapter';
import { main } from '../../../src/main/cli';
import type { Core } from '../../../src/main/core/Core';
import { createNodeCore } from '../../../src/main/core/createNodeCore';
import { loadCheckedLibrary } from '../../../src/main/core/skills';

/** mousepad.type_text with its manifest emptied: the graph types, so `input.keyboard` is under-declared. */
const underDeclared = {
  kind: 'skill',
  id: 'mousepad.type_text',
  app: 'mousepad',
  implements: 'TextEditor.type_text',
  permissions: [],
  graph: {
    start: 'act',
    nodes: { act: { action: 'type_text', text: '${text}', next: 'done' }, done: { terminal: 'success' } },
  },
};
const declared = {
  ...underDeclared,
  permissions: [{ capability: 'input.keyboard', effect: 'allow', constraints: { apps: ['mousepad'] } }],
};

describe('src/main/core/skills', () => {
  let dataDir: string;
  let core: Core;
  let api: CoreApiAdapter;
  const userDir = () => join(dataDir, 'skills');
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['--data-dir', dataDir, ...argv], { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-save-'));
    core = await createNodeCore({ dataDir, interactive: false });
    api = new CoreApiAdapter({ core, db: core.db!, version: '0' });
  });
  afterEach(() => {
    core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses from the editor a skill whose graph needs more than its manifest declares, naming the manifest, and writes nothing', async () => {
    await expect(api.saveUserSkill(underDeclared)).rejects.toMatchObject({
      code: 'skills.invalid',
      message: expect.stringMatching(/permissions: .*input\.keyboard/),
      problems: [expect.objectContaining({ path: ['permissions'], message: expect.stringContaining('input.keyboard') })],
    });
    expect(existsSync(userDir())).toBe(false);
    expect((await api.getSkill('mousepad.type_text')).origin).toBe('builtin');
  });

  it('refuses the same file from `skills add` with file:line: field, exit 1, and nothing written', async () => {
    const file = join(dataDir, 'type_text.yaml');
    writeFileSync(file, `# my edit\n${stringify(underDeclared)}`);
    const r = await cli('skills', 'add', file);
    expect(r.code).toBe(1);
    // `permissions: []` is on line 6 of the file given, not of the copy that would have been saved.
    expect(r.err).toMatch(/type_text\.yaml:6: error: permissions: mousepad\.type_text: .*input\.keyboard/);
    expect(existsSync(userDir())).toBe(false);
  });

  it('installs a skill that loads, through the editor and the command line alike, and the next start keeps it', async () => {
    const saved = await api.saveUserSkill(declared);
    expect(saved).toMatchObject({ path: join(userDir(), 'mousepad.type_text.yaml'), skill: { origin: 'user', trust: 'community' } });
    const file = join(dataDir, 'greet.yaml');
    writeFileSync(
      file,
      `# Types a greeting.\n${stringify({
        ...declared,
        id: 'mousepad.greet',
        implements: undefined,
        description: 'Greets',
        intents: ['greet'],
        graph: { start: 'act', nodes: { act: { action: 'type_text', text: 'hello', next: 'done' }, done: { terminal: 'success' } } },
      })}`,
    );
    const added = await cli('skills', 'add', file);
    expect(added.code).toBe(0);
    expect(added.out).toBe(`installed mousepad.greet (trust: community) as ${join(userDir(), 'mousepad.greet.yaml')}`);
    expect(readFileSync(join(userDir(), 'mousepad.greet.yaml'), 'utf8')).toMatch(
      /^# Saved by skilldesk skills add\.\n\n?# Types a greeting\./,
    );
    const restarted = await loadCheckedLibrary({ builtinDir: core.builtinSkillsDir, userDir: userDir() });
    expect(restarted.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(
      [...restarted.library.skills.values()]
        .filter((s) => s.source.origin === 'user')
        .map((s) => s.id)
        .sort(),
    ).toEqual(['mousepad.greet', 'mousepad.type_text']);
  });

  it('never writes more trust than `community` for a user file, whatever the file claims', async () => {
    for (const trust of ['builtin', 'verified', undefined]) {
      const { skill, path } = await api.saveUserSkill({ ...declared, trust });
      expect(skill.trust).toBe('community');
      expect(readFileSync(path, 'utf8')).toMatch(/^trust: community$/m);
    }
    const file = join(dataDir, 'verified.yaml');
    writeFileSync(file, stringify({ ...declared, trust: 'verified' }));
    expect((await cli('skills', 'add', file, '--json')).out).toMatch(/"trust": "community"/);
    const { skill } = await api.saveUserSkill({ ...declared, trust: 'untrusted' });
    expect(skill.trust).toBe('untrusted');
  });

  it('names the field and line of a schema error, and of a YAML error, in a file given to `skills add`', async () => {
    const file = join(dataDir, 'bad.yaml');
    writeFileSync(file, stringify({ ...declared, version: 'one' }));
    const schema = await cli('skills', 'add', file);
    expect(schema.code).toBe(1);
    expect(schema.err).toMatch(/bad\.yaml:\d+: error: version: expected a semantic version/);
    writeFileSync(file, 'kind: skill\nid: [unclosed\n');
    expect((await cli('skills', 'add', file)).err).toMatch(/bad\.yaml:\d+: error: /);
    expect((await cli('skills', 'add', join(dataDir, 'missing.yaml'))).err).toMatch(/Cannot read .*missing\.yaml.*no such file/);
    expect(existsSync(userDir()) ? readdirSync(userDir()) : []).toEqual([]);
  });

  it('explains `skills add` in its help', async () => {
    const r = await cli('skills', 'add', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: skilldesk skills add [options] <file>');
    expect(r.out).toMatch(/checked exactly as at startup/);
  });
});
