import { describe, expect, it } from 'vitest';
import { GraphExecutor } from '../../../../src/main/services/executor';
import { LibraryDocSchema, SkillLibrary } from '../../../../src/shared/skill';
import { fakeDesktop, win } from '../../../helpers/fakeDesktop';

const docs = [
  { kind: 'app', id: 'ed', name: 'Ed', platforms: ['linux'], launch: { command: 'ed' }, windows: { class: '^ed$' }, implements: [] },
  {
    kind: 'skill',
    id: 'ed.paste_note',
    app: 'ed',
    description: 'paste a note',
    intents: ['paste ${text}'],
    args: { text: { type: 'text' } },
    permissions: [
      { capability: 'clipboard.write', effect: 'allow' },
      { capability: 'input.keyboard', effect: 'allow' },
    ],
    graph: {
      start: 'paste',
      nodes: {
        paste: { action: 'paste_text', text: '${text}', next: 'terminal' },
        terminal: { action: 'paste_text', text: 'x', keys: ['Shift', 'Insert'], next: 'done' },
        done: { terminal: 'success' },
      },
    },
  },
];

describe('src/main/services/executor/PrimitiveRunner (paste_text)', () => {
  it('puts the text on the clipboard, then presses the paste chord (Control+v unless the step names another)', async () => {
    const library = new SkillLibrary(
      docs.map((d, i) => ({ doc: LibraryDocSchema.parse(d), source: { file: `d${i}`, origin: 'builtin' } })),
    );
    expect(library.errors).toEqual([]);
    const fake = fakeDesktop({ windows: [win('1', 'ed', 'ed', 'ed')] });
    const clipboardAtPaste: string[] = [];
    fake.hooks.beforeInput = async () => void clipboardAtPaste.push(await fake.desktop.clipboard.readText());
    const allow = { check: async () => ({ effect: 'allow' as const }) };
    const r = await new GraphExecutor({ library, desktop: fake.desktop, mediator: allow }).run({
      skill: 'ed.paste_note',
      args: { text: 'a\tlong\nnote ü' },
    });
    expect(r.status).toBe('succeeded');
    expect(fake.inputCalls()).toEqual([
      { op: 'hotkey', keys: ['Control', 'v'] },
      { op: 'hotkey', keys: ['Shift', 'Insert'] },
    ]);
    expect(clipboardAtPaste).toEqual(['a\tlong\nnote ü', 'x']);
  });
});
