import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLibrary } from '../../src/main/services/library/YamlLibraryLoader';

// Security issue: a graph with no terminal node was accepted, and a run that simply stopped at
// its last action node was reported as succeeded. Every path must end explicitly at a terminal
// node, so `succeeded` means the skill reached a `success` node it declares.
const builtinDir = join(__dirname, '../../skills');

const SKILL = (nodes: string) => `
kind: skill
id: mousepad.stamp
app: mousepad
description: stamp the document
intents: [stamp the document]
permissions:
  - { capability: app.window, effect: allow, constraints: { apps: [mousepad] } }
  - { capability: input.keyboard, effect: allow, constraints: { apps: [mousepad] } }
graph:
  start: focus
  nodes:
${nodes}
`;

/** The whole graph ends at an action node: no terminal node at all. */
const NO_TERMINAL = SKILL(`    focus: { action: focus_window, next: stamp }
    stamp: { action: type_text, text: 'approved' }`);

/** One alternative ends at a terminal node, the preferred one stops at an action node. */
const ONE_OPEN_PATH = SKILL(`    focus: { action: focus_window, next: [ { to: stamp, weight: 2 }, { to: fallback, weight: 1 } ] }
    stamp: { action: type_text, text: 'approved' }
    fallback: { action: key, key: Escape, next: done }
    done: { terminal: success }`);

/** The same skill, every path ended explicitly. */
const CLOSED = SKILL(`    focus: { action: focus_window, next: stamp }
    stamp: { action: type_text, text: 'approved', next: done }
    done: { terminal: success }`);

const MESSAGE = 'node `stamp` has no `next`: end the path at a terminal node (`next: done` and `done: { terminal: success }`)';

describe('attack: a graph with no terminal node is accepted and reported as succeeded', () => {
  let userDir: string;
  beforeEach(async () => {
    userDir = await mkdtemp(join(tmpdir(), 'skilldesk-graph-terminal-'));
  });
  afterEach(() => rm(userDir, { recursive: true, force: true }));

  it.each([
    ['has no terminal node at all', NO_TERMINAL],
    ['leaves one alternative open', ONE_OPEN_PATH],
  ])('refuses a user skill whose graph %s, with an error on its file and node', async (_, text) => {
    const file = join(userDir, 'mousepad.stamp.yaml');
    await writeFile(file, text);
    const { library, problems } = await loadLibrary({ builtinDir, userDir });
    expect(library.skills.has('mousepad.stamp')).toBe(false);
    const errors = problems.filter((p) => p.file === file && p.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ file, path: ['graph', 'nodes', 'stamp'], message: MESSAGE })]);
    // The rest of the library still loads.
    expect(library.skills.has('mousepad.save_as')).toBe(true);
  });

  it('admits the same skill once every path ends at a terminal node', async () => {
    const file = join(userDir, 'mousepad.stamp.yaml');
    await writeFile(file, CLOSED);
    const { library, problems } = await loadLibrary({ builtinDir, userDir });
    expect(problems.filter((p) => p.file === file && p.severity === 'error')).toEqual([]);
    expect(library.skills.get('mousepad.stamp')?.source.origin).toBe('user');
  });
});
