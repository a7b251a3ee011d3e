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
  return { broker: new PromptBroker({ hub, connectedClients: () => clients }), events };
}

describe('src/main/bridge/PromptBroker', () => {
  it('denies at once when no UI is connected', async () => {
    const { broker, events } = setup(0);
    expect(await broker.ask(prompt())).toEqual({ answer: 'deny', by: 'no_user' });
    expect(events).toEqual([]);
  });

  it('shows the prompt to the UI and resolves with the user answer', async () => {
    const { broker, events } = setup();
    const pending = broker.ask(prompt());
    const shown = events.find((e) => e.event === 'permissions:prompt')!.payload as { promptId: string; skillId: string; target: string };
    expect(shown).toMatchObject({ skillId: 'mousepad.save_as', target: '/tmp/a.txt', capability: 'file.write', level: 'dangerous' });
    expect(broker.list()).toHaveLength(1);
    expect(broker.answer(shown.promptId, 'allow_session')).toBe(true);
    expect(await pending).toEqual({ answer: 'allow_session', by: 'user' });
    expect(broker.answer(shown.promptId, 'allow_once')).toBe(false);
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
});
