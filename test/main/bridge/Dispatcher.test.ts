import { describe, expect, it } from 'vitest';
import { Dispatcher } from '../../../src/main/bridge/Dispatcher';
import { EventHub } from '../../../src/main/bridge/EventHub';
import { recordingCore } from './fakeCore';

/** A token holder that is not the owner page (host mode's default). */
const USER = { owner: false };
const OWNER = { owner: true };

function setup() {
  const hub = new EventHub();
  const events: { event: string; payload: unknown }[] = [];
  hub.subscribe((event, payload) => events.push({ event, payload }));
  const fake = recordingCore();
  const d = new Dispatcher({ core: fake.core, hub, mode: 'host' });
  return { d, events, ...fake };
}

describe('src/main/bridge/Dispatcher', () => {
  it('refuses unknown channels and invalid payloads as data, without calling the core', async () => {
    const { d, calls } = setup();
    expect(await d.dispatch('shell:exec', {}, USER)).toMatchObject({ ok: false, error: { code: 'ipc.unknown_channel' } });
    const bad = await d.dispatch('library:search', { query: '', limit: 5000 }, USER);
    expect(bad).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    if (!bad.ok) expect(bad.error.problems?.map((p) => p.path[0])).toEqual(['query', 'limit']);
    expect(await d.dispatch('runs:list', { limit: 5, extra: true }, USER)).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalid_request' },
    });
    expect(calls).toEqual([]);
  });

  it('fills schema defaults before calling the core', async () => {
    const { d, calls } = setup();
    expect(await d.dispatch('runs:list', {}, USER)).toEqual({ ok: true, value: [] });
    expect(calls).toEqual([{ method: 'listRuns', args: [{ limit: 50 }] }]);
  });

  it('passes metrics:get its window, and refuses a window that is not a time', async () => {
    const { d, calls } = setup();
    const r = await d.dispatch('metrics:get', { since: 1000 }, USER);
    expect(r).toMatchObject({ ok: true, value: { window: { since: 1000 }, tasks: { all: { tasks: 0, success: { rate: null } } } } });
    expect(await d.dispatch('metrics:get', { since: '7d' }, USER)).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    expect(await d.dispatch('metrics:get', { since: -5 }, USER)).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    expect(calls).toEqual([{ method: 'metrics', args: [{ since: 1000 }] }]);
  });

  it('returns thrown errors with their code and problems', async () => {
    const { d } = setup();
    expect(await d.dispatch('skills:get', { id: 'x.y' }, USER)).toEqual({
      ok: false,
      error: { code: 'skill.not_found', message: 'No skill `x.y`' },
    });
    expect(await d.dispatch('skills:save', { doc: {} }, USER)).toEqual({
      ok: false,
      error: { code: 'skills.invalid', message: 'invalid', problems: [{ path: ['graph'], message: 'bad' }] },
    });
  });

  it('answers run:start with the run id, streams its events, and stops it on run:stop', async () => {
    const { d, events } = setup();
    const started = await d.dispatch('run:start', { skill: 's.k', args: { n: 3 } }, USER);
    expect(started).toEqual({ ok: true, value: { runId: 'r1' } });
    expect(d.status().running.map((r) => r.runId)).toEqual(['r1']);
    expect(events.filter((e) => e.event === 'run:event').map((e) => (e.payload as { type: string }).type)).toEqual([
      'run_started',
      'step_started',
    ]);
    expect(await d.dispatch('run:stop', {}, USER)).toEqual({ ok: true, value: { stopped: 1 } });
    await new Promise((r) => setTimeout(r, 10));
    const finished = events.filter((e) => e.event === 'run:event').at(-1)!.payload as { type: string; result: { status: string } };
    expect(finished).toMatchObject({ type: 'run_finished', result: { status: 'aborted' } });
    expect(d.status().running).toEqual([]);
    expect(events.filter((e) => e.event === 'app:status').length).toBeGreaterThanOrEqual(2);
  });

  it('reports a run refused before its first step as an error', async () => {
    const { d } = setup();
    expect(await d.dispatch('run:start', { skill: 'refused.skill' }, USER)).toEqual({
      ok: false,
      error: { code: 'dispatch.no_app', message: 'needs an app' },
    });
  });

  it('says what to do when the agent is not available', async () => {
    const { d } = setup();
    const r = await d.dispatch('run:goal', { goal: 'save the file' }, USER);
    expect(r).toMatchObject({ ok: false, error: { code: 'agent.unavailable' } });
  });

  it('lets only the owner answer prompts and save settings', async () => {
    const { d, calls } = setup();
    for (const [channel, payload] of [
      ['permissions:show', { promptId: 'p' }],
      ['permissions:answer', { promptId: 'p', answer: 'allow_once', nonce: 'n' }],
      ['settings:save', { providers: {} }],
    ] as const) {
      expect(await d.dispatch(channel, payload, USER)).toMatchObject({ ok: false, error: { code: 'ipc.not_owner' } });
    }
    expect(calls).toEqual([]);
    expect(await d.dispatch('settings:save', { providers: {} }, OWNER)).toMatchObject({ ok: true });
    // Without a prompt broker (Electron asks through native dialogs) there is nothing to show.
    expect(await d.dispatch('permissions:show', { promptId: 'p' }, OWNER)).toMatchObject({
      ok: false,
      error: { code: 'permissions.expired' },
    });
  });

  it('lets only the owner record a demonstration, refuses malformed ones, and pushes its progress as learn:event', async () => {
    const { d, calls, events } = setup();
    const search = { app: 'shop-b', method: 'ShoppingSite.search_product', args: { query: 'mug' } };
    expect(await d.dispatch('learn:record', search, USER)).toMatchObject({ ok: false, error: { code: 'ipc.not_owner' } });
    expect(await d.dispatch('learn:stop', { session: 'l1' }, USER)).toMatchObject({ ok: false, error: { code: 'ipc.not_owner' } });
    for (const bad of [
      { ...search, method: 'search_product' },
      { ...search, start: 'find/mug' },
      { ...search, args: { query: { text: 'mug' } } },
      { ...search, app: '' },
    ]) {
      expect(await d.dispatch('learn:record', bad, OWNER)).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request' } });
    }
    expect(calls).toEqual([]);
    expect(await d.dispatch('learn:record', search, OWNER)).toEqual({
      ok: true,
      value: { session: 'l1', app: 'shop-b', method: 'ShoppingSite.search_product', args: { query: 'mug' }, where: 'browser' },
    });
    expect(events.filter((e) => e.event === 'learn:event').map((e) => e.payload)).toEqual([
      { session: 'l1', type: 'recording', app: 'shop-b', method: 'ShoppingSite.search_product', where: 'browser' },
    ]);
    expect(await d.dispatch('learn:blueprint', {}, USER)).toEqual({ ok: true, value: { apps: [] } });
    expect(await d.dispatch('learn:stop', { session: 'gone' }, OWNER)).toMatchObject({ ok: false, error: { code: 'learn.no_session' } });
    expect(calls.map((c) => c.method)).toEqual(['learnRecord', 'learnBlueprint', 'learnStop']);
  });

  it('refuses a settings key variable that is not an API key, before the core sees it', async () => {
    const { d } = setup();
    for (const apiKeyEnv of ['HOME', 'PATH', 'AWS_SECRET_ACCESS_KEY', 'openai_api_key']) {
      const r = await d.dispatch(
        'settings:save',
        { providers: { planner: { preset: 'custom', model: 'm', baseURL: 'http://127.0.0.1:1/v1', apiKeyEnv } } },
        OWNER,
      );
      expect(r).toMatchObject({ ok: false, error: { code: 'ipc.invalid_request', message: expect.stringContaining('_API_KEY') } });
    }
  });
});
