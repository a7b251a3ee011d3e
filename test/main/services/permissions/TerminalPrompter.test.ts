import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatPrompt, parseAnswer, TerminalPrompter } from '../../../../src/main/services/permissions';
import type { PermissionPrompt } from '../../../../src/shared/ports/prompter';

const prompt: PermissionPrompt = {
  skill: { id: 'mousepad.save_as', version: '1.0.0', trust: 'community' },
  capability: 'file.write',
  level: 'dangerous',
  target: '/home/u/report.txt',
  policySource: 'manifest:mousepad.save_as#1',
  fallbackMsg: 'Saving needs approval.',
  reason: 'confirm file.write',
  timeoutMs: 2000,
};

function tty() {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  output.on('data', (d: Buffer) => {
    shown += d.toString();
  });
  return { input, output, shown: () => shown };
}

describe('src/main/services/permissions/TerminalPrompter', () => {
  it('denies without asking when there is no terminal', async () => {
    const p = new TerminalPrompter({ input: new PassThrough(), output: new PassThrough() });
    expect(await p.ask(prompt)).toEqual({ answer: 'deny', by: 'no_user' });
  });

  it('shows skill, capability, target, policy source and message, and takes the typed answer (asking again on nonsense)', async () => {
    const io = tty();
    const pending = new TerminalPrompter(io).ask(prompt);
    io.input.write('maybe\n');
    io.input.write('s\n');
    expect(await pending).toEqual({ answer: 'allow_session', by: 'user' });
    const text = io.shown();
    expect(text).toContain('Permission needed: mousepad.save_as wants file.write on /home/u/report.txt');
    expect(text).toContain('mousepad.save_as v1.0.0 (trust: community) · level: dangerous');
    expect(text).toContain('Target, in full (18 characters):\n    | /home/u/report.txt');
    expect(text).toContain('Policy: manifest:mousepad.save_as#1');
    expect(text).toContain('The skill says (its own words, not SkillDesk’s):\n    | Saving needs approval.');
    expect(text.match(/\[o\]nce/g)?.length).toBe(2);
  });

  it('denies when nobody answers before the timeout', async () => {
    const io = tty();
    const started = Date.now();
    expect(await new TerminalPrompter(io).ask({ ...prompt, timeoutMs: 150 })).toEqual({ answer: 'deny', by: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('denies when the run is stopped while asking', async () => {
    const io = tty();
    const ac = new AbortController();
    const pending = new TerminalPrompter(io).ask(prompt, ac.signal);
    ac.abort();
    expect(await pending).toEqual({ answer: 'deny', by: 'cancelled' });
  });

  it('parses answers: empty means deny', () => {
    expect(['o', 'ONCE', 's', 'session', '', 'd', 'no', 'x'].map(parseAnswer)).toEqual([
      'allow_once',
      'allow_once',
      'allow_session',
      'allow_session',
      'deny',
      'deny',
      'deny',
      undefined,
    ]);
    expect(formatPrompt({ ...prompt, target: undefined, fallbackMsg: undefined } as unknown as PermissionPrompt)).not.toMatch(
      /Target|skill says/,
    );
  });
});
