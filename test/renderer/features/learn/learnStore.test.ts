import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learnBlueprint } from '../../../../src/main/core/learning';
import { loadCheckedLibrary } from '../../../../src/main/core/skills';
import { createLearnStore, phrase, type LearnBridge } from '../../../../src/renderer/src/features/learn/learnStore';
import type { IpcResult, LearnBlueprintView, LearnEventView, LearnRecordingView, LearnResultView } from '../../../../src/shared/ipc';
import type { SkillLibrary } from '../../../../src/shared/skill';
import { BUILTIN_SKILLS } from '../../helpers/libraryBridge';

let userDir: string;
let library: SkillLibrary;
beforeAll(async () => {
  userDir = mkdtempSync(join(tmpdir(), 'skilldesk-learnstore-'));
  library = (await loadCheckedLibrary({ builtinDir: BUILTIN_SKILLS, userDir })).library;
});
afterAll(() => rmSync(userDir, { recursive: true, force: true }));

const ENV = { SKILLDESK_SITE_SHOP_B: 'http://127.0.0.1:8102', DISPLAY: ':99' };
const recording: LearnRecordingView = {
  session: 's1',
  app: 'shop-b',
  method: 'ShoppingSite.add_to_cart',
  args: { quantity: 2 },
  where: 'browser',
  url: 'http://127.0.0.1:8102/item?sku=B-001',
};
const admitted: LearnResultView = {
  id: 'rep',
  method: 'ShoppingSite.add_to_cart',
  app: 'shop-b',
  status: 'admitted',
  skillId: 'shop-b.add_to_cart',
  signatureAdded: false,
  files: ['/d/skills/shop-b.add_to_cart.yaml'],
  steps: 2,
  runs: [{ args: { quantity: 2 }, ok: true }],
  at: 1,
  reportFile: '/d/induction/rep.json',
};

/** The blueprint from the shipped library (main's own function); recording and stopping answered as told, every call kept. */
function bridge(
  o: { record?: IpcResult<LearnRecordingView>; stop?: () => Promise<IpcResult<LearnResultView>>; underWay?: LearnRecordingView } = {},
) {
  const calls: { method: string; request: unknown }[] = [];
  const b: LearnBridge = {
    learnBlueprint: async (r) => {
      calls.push({ method: 'learnBlueprint', request: r });
      try {
        return { ok: true, value: { ...learnBlueprint(library, r.app, { env: ENV }), ...(o.underWay && { recording: o.underWay }) } };
      } catch (err) {
        return { ok: false, error: { code: (err as { code: string }).code, message: (err as Error).message } };
      }
    },
    learnRecord: async (r) => {
      calls.push({ method: 'learnRecord', request: r });
      return o.record ?? { ok: true, value: recording };
    },
    learnStop: async (r) => {
      calls.push({ method: 'learnStop', request: r });
      return o.stop ? o.stop() : { ok: true, value: admitted };
    },
  };
  return { bridge: b, calls };
}

describe('src/renderer/src/features/learn/learnStore', () => {
  it('opens on the first site left to learn, and "Show me how" fills the form with values to demonstrate with', async () => {
    const { bridge: b, calls } = bridge();
    const store = createLearnStore(b);
    await store.getState().load();
    expect(calls.map((c) => c.request)).toEqual([{}, { app: 'shop-b' }]);
    const s = store.getState();
    expect(s.app).toBe('shop-b');
    expect(s.apps.find((a) => a.id === 'shop-b')).toMatchObject({ kind: 'site', missing: 5 });
    expect(s.blueprint?.methods.map((m) => m.method)).toEqual(['search_product', 'open_product', 'add_to_cart', 'view_cart', 'checkout']);

    store.getState().showMeHow('ShoppingSite.checkout');
    expect(store.getState().method?.ref).toBe('ShoppingSite.checkout');
    expect(store.getState().values).toMatchObject({ full_name: 'Grace Hopper', shipping: 'standard' });
    expect(phrase(store.getState().method!.intents[1]!, store.getState().values)).toBe('place the order for Grace Hopper');
    store.getState().showMeHow('ShoppingSite.add_to_cart');
    expect(store.getState().values).toEqual({ quantity: '1' });
  });

  it('checks values as they are typed and refuses to record with a bad one, without asking main', async () => {
    const { bridge: b, calls } = bridge();
    const store = createLearnStore(b);
    await store.getState().selectApp('shop-b');
    store.getState().showMeHow('ShoppingSite.add_to_cart');
    store.getState().setValue('quantity', '9');
    expect(store.getState().fieldErrors.quantity).toMatch(/Expected `quantity` to be an integer >= 1 <= 5, got `9`/);
    await store.getState().record();
    expect(store.getState()).toMatchObject({ phase: 'idle', error: { code: 'ui.invalid_args' } });
    expect(calls.filter((c) => c.method === 'learnRecord')).toEqual([]);
  });

  it('records with typed values and the start page, shows progress, and shows the result after Stop', async () => {
    let answer!: (r: IpcResult<LearnResultView>) => void;
    const { bridge: b, calls } = bridge({ stop: () => new Promise((resolve) => (answer = resolve)) });
    const store = createLearnStore(b);
    await store.getState().selectApp('shop-b');
    store.getState().showMeHow('ShoppingSite.add_to_cart');
    store.getState().setValue('quantity', '2');
    store.getState().setStart('item?sku=B-001');
    await store.getState().record();
    expect(calls.find((c) => c.method === 'learnRecord')?.request).toEqual({
      app: 'shop-b',
      method: 'ShoppingSite.add_to_cart',
      args: { quantity: 2 },
      start: '/item?sku=B-001',
    });
    expect(store.getState()).toMatchObject({ phase: 'recording', recording });

    const events: LearnEventView[] = [
      { session: 'other', type: 'inducing', steps: 9 },
      { session: 's1', type: 'inducing', steps: 2 },
      { session: 's1', type: 'verifying', args: { quantity: 2 } },
      { session: 's1', type: 'finished', result: admitted },
    ];
    const stopping = store.getState().stop();
    expect(store.getState().phase).toBe('learning');
    for (const e of events) store.getState().handleEvent(e);
    expect(store.getState().progress).toEqual([
      'Recording stopped.',
      'Learning from 2 recorded steps…',
      'Re-executing on {"quantity":2} to verify…',
      'Verified.',
    ]);
    answer({ ok: true, value: admitted });
    await stopping;
    expect(store.getState()).toMatchObject({ phase: 'done', result: admitted, recording: undefined });
    // Admitted: the blueprint is read again (the method leaves it once main learned it).
    expect(calls.filter((c) => c.method === 'learnBlueprint').length).toBe(2);
    store.getState().reset();
    expect(store.getState()).toMatchObject({ phase: 'idle', method: undefined, result: undefined });
  });

  it('shows main’s refusals and a recording that broke as errors, back at the form', async () => {
    const refused = bridge({
      record: { ok: false, error: { code: 'learn.busy', message: 'A demonstration is being recorded: stop it first' } },
    });
    const store = createLearnStore(refused.bridge);
    await store.getState().selectApp('shop-b');
    store.getState().showMeHow('ShoppingSite.view_cart');
    await store.getState().record();
    expect(store.getState()).toMatchObject({ phase: 'idle', error: { code: 'learn.busy' } });

    const broken = createLearnStore(bridge().bridge);
    await broken.getState().selectApp('shop-b');
    broken.getState().showMeHow('ShoppingSite.view_cart');
    await broken.getState().record();
    broken.getState().handleEvent({ session: 's1', type: 'failed', error: { code: 'browser.closed', message: 'The browser was closed' } });
    expect(broken.getState()).toMatchObject({ phase: 'idle', recording: undefined, error: { message: 'The browser was closed' } });

    const unknown = createLearnStore(bridge().bridge);
    await unknown.getState().selectApp('shop-x');
    expect(unknown.getState().error?.message).toBe('`shop-x` is not an app; did you mean `shop-a`, `shop-b`?');
  });

  it('takes up a demonstration main is recording that it did not start (a reloaded window), so that it can be stopped', async () => {
    const { bridge: b, calls } = bridge({ underWay: recording });
    const store = createLearnStore(b);
    await store.getState().load();
    expect(store.getState()).toMatchObject({
      app: 'shop-b',
      phase: 'recording',
      recording,
      method: { ref: 'ShoppingSite.add_to_cart' },
      values: { quantity: '2' },
    });
    await store.getState().stop();
    expect(calls.find((c) => c.method === 'learnStop')?.request).toEqual({ session: 's1' });
    expect(store.getState()).toMatchObject({ phase: 'done', result: admitted });
  });

  it('drops the blueprint of an app the user has already left', async () => {
    const pending: ((r: IpcResult<LearnBlueprintView>) => void)[] = [];
    const store = createLearnStore({
      learnBlueprint: () => new Promise((resolve) => pending.push(resolve)),
      learnRecord: async () => ({ ok: true, value: recording }),
      learnStop: async () => ({ ok: true, value: admitted }),
    });
    const first = store.getState().selectApp('pcmanfm');
    const second = store.getState().selectApp('shop-b');
    pending[1]!({ ok: true, value: learnBlueprint(library, 'shop-b', { env: ENV }) });
    pending[0]!({ ok: true, value: learnBlueprint(library, 'pcmanfm', { env: ENV }) });
    await Promise.all([first, second]);
    expect(store.getState()).toMatchObject({ app: 'shop-b', blueprint: { app: 'shop-b' } });
  });
});
