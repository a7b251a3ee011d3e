import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadLibrary } from '../../../../src/main/services/library/YamlLibraryLoader';

async function copyOfLibrary(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skilldesk-lib-'));
  await cp('skills', dir, { recursive: true });
  return dir;
}

describe('src/main/services/library/YamlLibraryLoader', () => {
  it('loads the shipped library without problems', async () => {
    const { library, problems } = await loadLibrary({ builtinDir: 'skills' });
    expect(problems).toEqual([]);
    expect(library.resolve('TextEditor.save_as', 'wine-notepad').id).toBe('wine-notepad.save_as');
    expect(library.resolve('TextEditor.write_file', 'mousepad').kind).toBe('composite');
    expect(library.implementers('Calculator').sort()).toEqual(['calculator', 'gnome-calculator', 'qalculate-gtk']);
  });

  it('reports file, line and field of a broken skill and still loads the rest', async () => {
    const dir = await copyOfLibrary();
    const file = join(dir, 'implementations/mousepad/save_as.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(
        'open: { action: hotkey, keys: [Control, Shift, s], next: dialog }',
        'open: { action: hotkey, keyz: [Control, Shift, s], next: dialog }',
      ),
    );
    const { library, problems } = await loadLibrary({ builtinDir: dir });
    const lines = problems.map((p) => formatProblem(p, dir));
    const line = text.split('\n').findIndex((l) => l.includes('open: { action: hotkey')) + 1;
    expect(lines).toContain(`implementations/mousepad/save_as.yaml:${line}: error: graph.nodes.open: Unrecognized key: "keyz"`);
    expect(library.skills.has('mousepad.save_as')).toBe(false);
    expect(library.skills.has('mousepad.open_file')).toBe(true);
    expect(library.skills.size).toBeGreaterThan(25);
  });

  it('reports a misspelt key name with its file, line and the closest key, not at run time', async () => {
    const dir = await copyOfLibrary();
    const file = join(dir, 'implementations/mousepad/save_as.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('keys: [Control, Shift, s]', 'keys: [Contol, Shift, s]'));
    const { library, problems } = await loadLibrary({ builtinDir: dir });
    const line = text.split('\n').findIndex((l) => l.includes('open: { action: hotkey')) + 1;
    const reported = problems.map((p) => formatProblem(p, dir)).find((l) => l.includes('Contol'));
    expect(reported).toMatch(
      new RegExp(`^implementations/mousepad/save_as.yaml:${line}: error: graph.nodes.open.keys.0: .*did you mean \`Control\``),
    );
    expect(library.skills.has('mousepad.save_as')).toBe(false);
  });

  it('reports YAML syntax errors with their line', async () => {
    const dir = await copyOfLibrary();
    await writeFile(join(dir, 'implementations/mousepad/copy.yaml'), 'kind: skill\nid: [unclosed\n');
    const { problems } = await loadLibrary({ builtinDir: dir });
    const p = problems.find((x) => x.file.endsWith('mousepad/copy.yaml'));
    expect(p?.message).toMatch(/^YAML: /);
    expect(p?.line).toBeGreaterThanOrEqual(2);
  });

  it('lets a user file override a built-in skill with the same id', async () => {
    const user = await mkdtemp(join(tmpdir(), 'skilldesk-user-'));
    const text = await readFile('skills/implementations/mousepad/copy.yaml', 'utf8');
    await writeFile(join(user, 'copy.yaml'), text.replace('version: 1.0.0', '').replace('kind: skill', 'kind: skill\nversion: 2.0.0'));
    const { library, problems } = await loadLibrary({ builtinDir: 'skills', userDir: user });
    expect(library.skills.get('mousepad.copy')?.version).toBe('2.0.0');
    expect(library.skills.get('mousepad.copy')?.source.origin).toBe('user');
    // ...but it does not get the trust of a shipped skill, and saying nothing about trust is no problem.
    expect(library.skills.get('mousepad.copy')?.trust).toBe('community');
    expect(problems).toEqual([]);
  });

  it('rejects a template slot that names no argument', async () => {
    const dir = await copyOfLibrary();
    const file = join(dir, 'implementations/wine-notepad/type_text.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('${text}', '${txet}'));
    const { problems } = await loadLibrary({ builtinDir: dir });
    expect(problems.map((p) => p.message)).toContainEqual(expect.stringContaining('unknown template slot `${txet}`'));
  });
});
