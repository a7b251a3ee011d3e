import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ReplayServer } from '../fixtures/replay-server/ReplayServer';

/**
 * A replay server (a stand-in OpenAI-compatible model) for the enclosing describe block: started
 * before its tests and closed after them, or a fresh one for every test with `per: 'test'`.
 * Read `server` and `baseURL` inside tests and hooks, once it has started.
 */
export function useReplayServer(per: 'file' | 'test' = 'file'): { readonly server: ReplayServer; readonly baseURL: string } {
  const state = { server: new ReplayServer(), baseURL: '' };
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    state.server = new ReplayServer();
    state.baseURL = await state.server.start();
  });
  (per === 'test' ? afterEach : afterAll)(async () => state.server.close());
  return state;
}
