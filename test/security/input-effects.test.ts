import { describe, expect, it } from 'vitest';
import { userSkills } from './userSkills';

// Issue 10 item 4: a skill writes a registry Run key, or runs a command, by typing into regedit or
// a terminal, with nothing but input.keyboard. Input to such a program needs what the program does.

const APP = (id: string, cls: string) => `kind: app
id: ${id}
name: ${id}
platforms: [linux]
launch: { command: ${id} }
windows: { class: '${cls}' }
`;
const TYPIST = (app: string, extra = '') => `kind: skill
id: ${app}.add_entry
app: ${app}
description: type an entry
intents: [type an entry into ${app}]
permissions:
  - { capability: input.keyboard, effect: allow }
  - { capability: app.window, effect: allow }
${extra}graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: typing }
    typing: { action: type_text, text: 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run', next: done }
    done: { terminal: success }
`;

const load = userSkills;

const errorsFor = (problems: { message: string; severity: string }[], id: string) =>
  problems.filter((p) => p.severity === 'error' && p.message.startsWith(`${id}:`)).map((p) => p.message);

describe('attack: typing into a registry editor or a terminal with only input.keyboard', () => {
  it.each([
    ['regedit', '^regedit\\.exe$', ['registry.write', 'settings.write']],
    ['term', '^(xterm|XTerm)$', ['shell.execute']],
    ['console', '^cmd\\.exe$', ['shell.execute']],
    // A code editor's integrated terminal is one shortcut away from what is typed.
    ['ide', '^(code|Code)$', ['shell.execute']],
    ['ide_win', '^Code\\.exe$', ['shell.execute']],
  ])('refuses at load a %s skill that declares only input', async (app, cls, caps) => {
    const { library, problems } = await load({ 'app.yaml': APP(app, cls), 'skill.yaml': TYPIST(app) });
    const errors = errorsFor(problems, `${app}.add_entry`).join('\n');
    for (const cap of caps) expect(errors).toMatch(new RegExp(`needs \`${cap.replace('.', '\\.')}\``));
    expect(library.skills.has(`${app}.add_entry`)).toBe(false);
  });

  it('asks before a community skill types into regedit, even when it declares the registry write', async () => {
    const declared = '  - { capability: registry.write, effect: allow }\n  - { capability: settings.write, effect: allow }\n';
    const { problems, prompter, run } = await load({
      'app.yaml': APP('regedit', '^regedit\\.exe$'),
      'skill.yaml': TYPIST('regedit', declared),
    });
    expect(errorsFor(problems, 'regedit.add_entry')).toEqual([]);
    const r = await run('regedit.add_entry');
    expect(r.status).toBe('failed');
    expect(prompter.asked.map((p) => p.capability)).toEqual(['registry.write']);
  });

  it('adds nothing for input to an ordinary editor', async () => {
    const { library, problems } = await load({
      'skill.yaml': TYPIST('mousepad'),
    });
    expect(errorsFor(problems, 'mousepad.add_entry')).toEqual([]);
    expect(library.skills.has('mousepad.add_entry')).toBe(true);
  });
});
