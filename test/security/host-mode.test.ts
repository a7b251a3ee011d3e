import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dispatcher } from '../../src/main/bridge/Dispatcher';
import { EventHub } from '../../src/main/bridge/EventHub';
import { startHostServer, type HostServer } from '../../src/main/bridge/HostServer';
import { PromptBroker } from '../../src/main/bridge/PromptBroker';
import { saveSettings, testProvider } from '../../src/main/core/settings';
import { openStore, setSetting, type SqliteStore } from '../../src/main/services/store';
import type { PermissionPrompt, PromptResult } from '../../src/shared/ports/prompter';
import { get, openSession } from '../main/bridge/hostClient';
import { recordingCore } from '../main/bridge/fakeCore';

// Issue 10 item 10: host mode's token must not leak to other local ports, holding the token
// must not be enough to approve a step, settings must not turn any environment variable into a
// bearer token for any URL, and malformed requests get a clean 400.
const TOKEN = 'launch-token-0123456789abcdef';

/** A local HTTP listener that records every request; `respond` answers them (404 by default). */
async function listener(respond?: (url: string, port: number) => { status: number; headers?: Record<string, string>; body?: string }) {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const r = respond?.(req.url ?? '', port) ?? { status: 404, body: '{"error":{"message":"no such route"}}' };
    res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
    res.end(r.body ?? '');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return { port, seen, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

describe('host mode: attacks on the token, the approvals and the settings', () => {
  let dir: string;
  let hub: EventHub;
  let broker: PromptBroker;
  let server: HostServer;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-sec-host-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>SkillDesk</title><script src="/app.js"></script>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    hub = new EventHub();
    // Wired as src/main/host.ts wires it: only owner pages count as someone to ask.
    const owners = { count: () => 0 };
    broker = new PromptBroker({ hub, connectedClients: () => owners.count(), minDisplayMs: 200 });
    const dispatcher = new Dispatcher({ core: recordingCore().core, hub, mode: 'host', prompts: broker });
    server = await startHostServer({ dispatcher, hub, rendererDir: dir, token: TOKEN });
    owners.count = () => server.owners();
  });
  afterEach(async () => {
    broker.denyAll();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const prompt: PermissionPrompt = {
    skill: { id: 'ed.tidy', version: '1.0.0', trust: 'community' },
    capability: 'script.execute',
    level: 'dangerous',
    target: 'rm -rf ~/notes',
    policySource: 'manifest:ed.tidy#0',
    reason: 'confirm script.execute',
    timeoutMs: 30_000,
  };

  it('attack: a listener on another local port receives no token while the page and its API are used', async () => {
    const other = await listener();
    try {
      // What a browser does with the printed URL: the fragment stays in the browser, the page and
      // its script are fetched, the socket presents the token in its first message.
      expect(server.url).toMatch(/\/#token=/);
      const jar: string[] = [];
      for (const path of ['/', '/app.js', '/settings']) {
        const r = await get(server.port, path);
        expect(r.status).toBe(200);
        expect(r.body).not.toContain(TOKEN);
        jar.push(...[r.headers['set-cookie'] ?? []].flat());
      }
      const page = await openSession(server.port, { token: TOKEN, claimOwner: true });
      expect(page.welcome?.owner).toBe(true);
      expect(await page.call('app:info')).toMatchObject({ ok: true });
      // The browser then visits another port of 127.0.0.1, sending every cookie 127.0.0.1 set.
      await get(other.port, '/', jar.length ? { cookie: jar.map((c) => c.split(';')[0]).join('; ') } : {});
      expect(jar).toEqual([]);
      expect(other.seen).toHaveLength(1);
      expect(JSON.stringify(other.seen)).not.toContain(TOKEN);
      page.ws.close();
    } finally {
      await other.close();
    }
  });

  it("attack: a token holder answers its own step's prompt through the API", async () => {
    const page = await openSession(server.port, { token: TOKEN, claimOwner: true });
    const script = await openSession(server.port, { token: TOKEN, claimOwner: true });
    expect([page.welcome?.owner, script.welcome?.owner]).toEqual([true, false]);

    const asked = broker.ask(prompt);
    const seen = (await script.nextEvent('permissions:prompt')) as { promptId: string };
    // The script sees the prompt, but neither the event nor the pending list can answer it.
    expect(JSON.stringify([seen, await script.call('permissions:pending')])).not.toMatch(/nonce/i);
    const { promptId } = seen;
    for (const [channel, payload] of [
      ['permissions:answer', { promptId, answer: 'allow_session' }], // the call that used to work
      ['permissions:show', { promptId }],
      ['permissions:answer', { promptId, answer: 'allow_session', nonce: 'guessed-nonce' }],
    ] as const) {
      expect(await script.call(channel, payload)).toMatchObject({ ok: false, error: { code: 'ipc.not_owner' } });
    }
    // Even the owner page cannot answer without showing the prompt first, nor at once.
    expect(await page.call('permissions:answer', { promptId, answer: 'allow_once' })).toMatchObject({
      ok: false,
      error: { code: 'ipc.invalid_request', message: expect.stringContaining('nonce') },
    });
    expect(await page.call('permissions:answer', { promptId, answer: 'allow_once', nonce: 'guessed-nonce' })).toMatchObject({
      ok: false,
      error: { code: 'permissions.not_shown' },
    });
    const shown = await page.call<{ nonce: string; answerableInMs: number }>('permissions:show', { promptId });
    if (!shown.ok) throw new Error(shown.error.message);
    expect(await page.call('permissions:answer', { promptId, answer: 'allow_once', nonce: shown.value.nonce })).toMatchObject({
      ok: false,
      error: { code: 'permissions.too_soon' },
    });
    expect(broker.list()).toHaveLength(1);
    await new Promise((r) => setTimeout(r, shown.value.answerableInMs)); // the prompt stays on screen that long
    expect(await page.call('permissions:answer', { promptId, answer: 'allow_once', nonce: shown.value.nonce })).toEqual({
      ok: true,
      value: { accepted: true },
    });
    expect(await asked).toEqual<PromptResult>({ answer: 'allow_once', by: 'user' });
    page.ws.close();
    script.ws.close();
  });

  it('denies at once when only token holders that are not the owner are connected', async () => {
    const script = await openSession(server.port, { token: TOKEN });
    expect(server.clients()).toBe(1);
    expect(await broker.ask(prompt)).toEqual({ answer: 'deny', by: 'no_user' });
    script.ws.close();
  });

  it("attack: a token holder points a provider's key at its own server through settings", async () => {
    const page = await openSession(server.port, { token: TOKEN, claimOwner: true });
    const script = await openSession(server.port, { token: TOKEN });
    const provider = { preset: 'custom', model: 'm', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'OPENAI_API_KEY' };
    expect(await script.call('settings:save', { providers: { planner: provider } })).toMatchObject({
      ok: false,
      error: { code: 'ipc.not_owner' },
    });
    for (const apiKeyEnv of ['HOME', 'PATH', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN']) {
      expect(await page.call('settings:save', { providers: { planner: { ...provider, apiKeyEnv } } })).toMatchObject({
        ok: false,
        error: { code: 'ipc.invalid_request', message: expect.stringContaining('_API_KEY') },
      });
    }
    page.ws.close();
    script.ws.close();
  });

  it('attack: a malformed %-escape in a path, once a 500 with the exception text, is a short 400', async () => {
    const r = await get(server.port, '/%E0%A4%A');
    expect(r.status).toBe(400);
    expect(r.body).toBe('Bad request: the path has a malformed %-escape.');
  });
});

describe('model settings: which key is sent where', () => {
  let store: SqliteStore;
  let dir: string;
  const KEY = 'sk-test-0123456789abcdef';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skilldesk-sec-keys-'));
    store = openStore({ file: join(dir, 'skilldesk.db') });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a saved key variable that is not an API key, without any request', async () => {
    const server = await listener();
    try {
      // As an older version could have saved it.
      setSetting(store.db, 'llm', {
        planner: { preset: 'custom', model: 'm', baseURL: `http://127.0.0.1:${server.port}/v1`, apiKeyEnv: 'HOME' },
      });
      const r = await testProvider(store.db, 'planner', { HOME: '/home/secret-user' });
      expect(r.ok).toBe(false);
      expect(r.message).toMatch(/apiKeyEnv.*_API_KEY/);
      expect(server.seen).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each(['custom', 'azure'] as const)(
    'sends the key (%s preset) to the saved base URL only: a redirect elsewhere is refused, not followed',
    async (preset) => {
      const elsewhere = await listener();
      const provider = await listener((url) =>
        url.endsWith('/models')
          ? { status: 307, headers: { location: `http://127.0.0.1:${elsewhere.port}/collect` } }
          : { status: 404, body: '{"error":{"message":"no"}}' },
      );
      try {
        saveSettings(store.db, {
          providers: {
            planner: { preset, model: 'm', baseURL: `http://127.0.0.1:${provider.port}/v1`, apiKeyEnv: 'SKILLDESK_TEST_API_KEY' },
          },
        });
        const r = await testProvider(store.db, 'planner', { SKILLDESK_TEST_API_KEY: KEY, OPENAI_API_KEY: 'sk-other-0123456789' });
        expect(r.ok).toBe(false);
        expect(provider.seen.length).toBeGreaterThan(0);
        const sent = provider.seen[0]!.headers;
        expect(preset === 'azure' ? sent['api-key'] : sent.authorization).toBe(preset === 'azure' ? KEY : `Bearer ${KEY}`);
        expect(JSON.stringify(provider.seen)).not.toContain('sk-other');
        expect(elsewhere.seen).toEqual([]);
        expect(r.message).not.toContain(KEY);
      } finally {
        await provider.close();
        await elsewhere.close();
      }
    },
  );

  it('sends no key when the saved provider names no key variable, whatever the environment holds', async () => {
    const provider = await listener();
    try {
      saveSettings(store.db, { providers: { planner: { preset: 'custom', model: 'm', baseURL: `http://127.0.0.1:${provider.port}/v1` } } });
      await testProvider(store.db, 'planner', { OPENAI_API_KEY: KEY });
      expect(provider.seen.length).toBeGreaterThan(0);
      expect(provider.seen.every((s) => s.headers.authorization === undefined && s.headers['api-key'] === undefined)).toBe(true);
    } finally {
      await provider.close();
    }
  });
});
