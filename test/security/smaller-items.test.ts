import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main/cli';
import { parseArgPairs } from '../../src/main/cli/commands/run';
import { MemoryRunJournal } from '../../src/main/services/executor';
import { MemoryAuditSink, PolicyMediator } from '../../src/main/services/permissions';
import { PermissionSession } from '../../src/shared/permissions';
import { openStore } from '../../src/main/services/store';
import { checkArgs } from '../../src/shared/skill';
import { libraryOf, testExecutor } from '../helpers/executor';
import { fakeDesktop, win } from '../helpers/fakeDesktop';
import { expectCapability, infer } from './helpers';

// Issue 10 item 14: the smaller findings, each reproduced as the attacker or unlucky user met it.

async function cli(dataDir: string, ...argv: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await main(['--data-dir', dataDir, ...argv], { out: () => {}, err: (t) => err.push(t) });
  return { code, err: err.join('\n') };
}

const EDITOR = `
kind: interface
id: Editor
description: test editor
methods:
  type:
    description: type
    intents: ['type \${text}']
    args: { text: { type: text } }
`;
const APP = `
kind: app
id: ed
name: ed
platforms: [linux]
launch: { command: ed }
windows: { process: '^ed$', title: 'ed$' }
implements: [Editor]
`;
const TYPE = `
kind: skill
id: ed.type
app: ed
implements: Editor.type
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: typing }
    typing: { action: type_text, text: '\${text}', next: done }
    done: { terminal: success }
`;
const LITERAL_NUL = `
kind: skill
id: ed.nul
app: ed
description: types a literal NUL
intents: [type nul]
graph:
  start: focus
  nodes:
    focus: { action: focus_window, next: typing }
    typing: { action: type_text, text: "a\\0b", next: done }
    done: { terminal: success }
`;

describe('issue 10 item 14: smaller findings', () => {
  it('reports a missing `--arg x=@file` in one line, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skilldesk-small-'));
    const r = await cli(dir, 'run', 'Calculator.evaluate', '--arg', 'expression=@/nonexistent/expr.txt', '--dry-run');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: Cannot read `/nonexistent/expr.txt` for --arg expression=@/nonexistent/expr.txt: no such file (write @@ for a value that starts with @)',
    );
  });

  it('names a corrupt store file and what to do, without a stack trace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skilldesk-small-'));
    await writeFile(join(dir, 'skilldesk.db'), 'this is not a database, but it has a few more bytes than a header would'.repeat(20));
    const r = await cli(dir, 'runs', 'list');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: The store .*skilldesk\.db is not a SQLite database, or is damaged .*\(mv "/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('refuses a store whose audit table was dropped, naming the table', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skilldesk-small-'));
    openStore({ dataDir: dir }).close();
    const db = new Database(join(dir, 'skilldesk.db'));
    db.exec('DROP TABLE audit');
    db.close();
    expect(() => openStore({ dataDir: dir })).toThrow(/has no table `audit`: it was damaged or edited outside SkillDesk/);
    const r = await cli(dir, 'audit');
    expect(r.code).toBe(1);
    expect(r.err.split('\n')).toHaveLength(1);
  });

  it('keeps only the start of refused arguments in the journal (a 10 MB argument is not stored whole)', async () => {
    const journal = new MemoryRunJournal();
    const exec = testExecutor({ library: libraryOf(EDITOR, APP, TYPE), desktop: fakeDesktop().desktop, journal });
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const r = await exec.run({ skill: 'ed.type', args: { text: huge, extra: huge } });
    expect(r.status).toBe('failed');
    expect(r.error?.code).toBe('args.invalid');
    const stored = JSON.stringify(journal.runs.get(r.runId)?.args);
    expect(stored.length).toBeLessThan(1000);
    expect(stored).toContain('more characters not kept');
  });

  it('never lets `__proto__` in --args-json reach the prototype; the skill refuses it as an unknown argument', () => {
    const args = parseArgPairs([], '{"__proto__": {"text": "injected"}, "constructor": 1}');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as { text?: unknown }).text).toBeUndefined();
    const res = checkArgs({ text: { type: 'text' } }, args);
    expect(res).toEqual({
      ok: false,
      errors: [
        'Unknown argument `__proto__`; expected one of: text',
        'Unknown argument `constructor`; expected one of: text',
        'Missing argument `text` (text)',
      ],
    });
  });

  it('refuses NUL in typed text before the first key, in a dry run as in a live one', async () => {
    // As an argument: the text domain refuses it.
    const fake = fakeDesktop({ windows: [win('w1', 'doc - ed', 'ed')] });
    const exec = testExecutor({ library: libraryOf(EDITOR, APP, TYPE, LITERAL_NUL), desktop: fake.desktop });
    const viaArg = await exec.run({ skill: 'ed.type', args: { text: 'ab\u0000cd' } });
    expect(viaArg.error?.message).toContain('U+0000 at position 2');
    // Written into the graph: the step fails before typing anything, dry or live.
    for (const dryRun of [true, false]) {
      const literal = await exec.run({ skill: 'ed.nul', dryRun });
      expect(literal.status).toBe('failed');
      expect(literal.error?.code).toBe('input.untypable');
    }
    expect(fake.inputCalls()).toEqual([]);
  });

  it('never shows in clear, in any audit row of a step, a target another row of the step digests', async () => {
    const READER = `
kind: skill
id: ed.peek
app: ed
description: read a key
intents: [read a key]
permissions:
  - { capability: script.execute, effect: allow }
  - { capability: secrets.read, effect: allow }
  - { capability: file.read, effect: allow }
graph:
  start: run
  nodes:
    run: { action: run_script, interpreter: bash, script: 'wc -c /home/u/.ssh/id_ed25519', next: done }
    done: { terminal: success }
`;
    const lib = libraryOf(EDITOR, APP, READER);
    const env = { folders: { home: '/home/u' }, pathStyle: 'posix' as const, utcOffsetMinutes: 0 };
    const session = new PermissionSession({ version: 1, entries: [], trust: {}, folders: {} }, env);
    const audit = new MemoryAuditSink();
    const mediator = new PolicyMediator({
      library: lib,
      session,
      prompter: { ask: async () => ({ answer: 'deny', by: 'no_user' }) },
      audit,
    });
    const r = await testExecutor({ library: lib, desktop: fakeDesktop().desktop, mediator }).run({ skill: 'ed.peek', dryRun: true });
    expect(r.status).toBe('succeeded');
    const targets = audit.records.map((x) => `${x.capability} ${x.target ?? ''}`);
    expect(targets.some((t) => t.startsWith('secrets.read sha256:'))).toBe(true);
    expect(JSON.stringify(audit.records)).not.toContain('id_ed25519');
  });

  it('counts the GitHub CLI token, cargo credentials and shell history as secrets', () => {
    expectCapability(infer('cat ~/.config/gh/hosts.yml', 'bash'), 'secrets.read', /hosts\.yml/);
    expectCapability(infer('cat ~/.cargo/credentials.toml', 'bash'), 'secrets.read', /credentials\.toml/);
    expectCapability(infer('tail ~/.bash_history', 'bash'), 'secrets.read', /bash_history/);
  });
});
