import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src/main/bridge/EventHub';
import { PromptBroker } from '../../../src/main/bridge/PromptBroker';
import type { PermissionPrompt } from '../../../src/shared/ports/prompter';

const prompt = (timeoutMs = 60_000): PermissionPrompt => ({
  skill: { id: 'mousepad.save_as', version: '1.0.0', trust: 'builtin' },
  capability: 'file.write',
  level: 'dangerous',
  target: '/tmp/a.txt',
  policySource: 'manifest:mousepad.save_as#1',
  reason: 'the manifest asks',
  timeoutMs,
});

function setup(clients = 1) {
  const hub = new EventHub();
  const events: { event: string; payload: unknown }[] = [];
  hub.subscribe((event, payload) => events.push({ event, payload }));
  const clock = { t: 1_000 };
  const broker = new PromptBroker({ hub, connectedClients: () => clients, now: () => clock.t });
  return { broker, events, clock };
}

describe('src/main/bridge/PromptBroker', () => {
  it('denies at once when no UI is connected', async () => {
    const { broker, events } = setup(0);
    expect(await broker.ask(prompt())).toEqual({ answer: 'deny', by: 'no_user' });
    expect(events).toEqual([]);
  });

  it('shows the prompt to the UI and resolves with the user answer', async () => {
    const { broker, events, clock } = setup();
    const pending = broker.ask(prompt());
    const shown = events.find((e) => e.event === 'permissions:prompt')!.payload as { promptId: string; skillId: string; target: string };
    expect(shown).toMatchObject({ skillId: 'mousepad.save_as', target: '/tmp/a.txt', capability: 'file.write', level: 'dangerous' });
    expect(broker.list()).toHaveLength(1);
    const { nonce, answerableInMs } = broker.show(shown.promptId)!;
    expect(answerableInMs).toBe(700);
    clock.t += 700;
    expect(broker.answer(shown.promptId, 'allow_session', nonce)).toBe(true);
    expect(await pending).toEqual({ answer: 'allow_session', by: 'user' });
    expect(broker.answer(shown.promptId, 'allow_once', nonce)).toBe(false);
    expect(broker.show(shown.promptId)).toBeUndefined();
    expect(events.at(-1)).toEqual({
      event: 'permissions:settled',
      payload: { promptId: shown.promptId, answer: 'allow_session', by: 'user' },
    });
  });

  it('denies on timeout and on abort', async () => {
    const { broker } = setup();
    expect(await broker.ask(prompt(20))).toEqual({ answer: 'deny', by: 'timeout' });
    const ac = new AbortController();
    const p = broker.ask(prompt(), ac.signal);
    ac.abort();
    expect(await p).toEqual({ answer: 'deny', by: 'cancelled' });
    expect(broker.list()).toEqual([]);
  });

  it('denies everything pending on emergency stop', async () => {
    const { broker } = setup();
    const a = broker.ask(prompt());
    const b = broker.ask(prompt());
    broker.denyAll();
    expect(await Promise.all([a, b])).toEqual([
      { answer: 'deny', by: 'cancelled' },
      { answer: 'deny', by: 'cancelled' },
    ]);
  });

  it('refuses an answer without a nonce from show, or given before the prompt was on screen for 700 ms', async () => {
    const { broker, events, clock } = setup();
    const pending = broker.ask(prompt());
    const view = events.find((e) => e.event === 'permissions:prompt')!.payload as Record<string, unknown>;
    // Neither the prompt event nor the pending list carries anything that could answer.
    expect(JSON.stringify([view, broker.list()])).not.toMatch(/nonce/i);
    const id = view.promptId as string;
    expect(() => broker.answer(id, 'allow_once', 'guessed')).toThrow(expect.objectContaining({ code: 'permissions.not_shown' }));
    const { nonce } = broker.show(id)!;
    clock.t += 699;
    expect(() => broker.answer(id, 'allow_once', nonce)).toThrow(expect.objectContaining({ code: 'permissions.too_soon' }));
    // A second showing (a reconnected page) restarts its own clock; the first nonce keeps its time.
    const again = broker.show(id)!;
    clock.t += 1;
    expect(() => broker.answer(id, 'allow_once', again.nonce)).toThrow(expect.objectContaining({ code: 'permissions.too_soon' }));
    expect(broker.list()).toHaveLength(1);
    expect(broker.answer(id, 'deny', nonce)).toBe(true);
    expect(await pending).toEqual({ answer: 'deny', by: 'user' });
  });
});
