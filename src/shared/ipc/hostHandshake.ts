/**
 * Host mode's WebSocket handshake (src/main/bridge/HostServer.ts, src/renderer/src/bridge/wsTransport.ts).
 *
 * The per-launch token reaches the page in the URL's fragment (`/#token=...`, never sent to a
 * server), and the page presents it in its first message. A cookie would do the same job, but
 * browsers send 127.0.0.1's cookies to every port of 127.0.0.1, so any local listener would
 * receive the token. The first page to present the token may claim the **owner key**: only
 * owner connections answer permission prompts and save settings, so another holder of the
 * token (a script, a second browser) can use the API but cannot approve its own steps.
 */

/** The first message on the socket. */
export interface HostHello {
  type: 'hello';
  token: string;
  /** The owner key this browser was given earlier in this launch, if any. */
  ownerKey?: string;
  /** Become the owner if nobody is (the page asks; scripts need not). */
  claimOwner?: boolean;
}

/** The server's answer to a valid hello; events and replies follow. */
export interface HostWelcome {
  type: 'welcome';
  owner: boolean;
  /** Given to the owner, to keep for reconnections and other tabs of this origin. */
  ownerKey?: string;
}

/** WebSocket close code for a missing or wrong token (4000-4999 are the application's). */
export const HOST_CLOSE_UNAUTHORIZED = 4401;

/** Where the page keeps the token (sessionStorage: this tab) and the owner key (localStorage: this origin, so this port). */
export const HOST_STORAGE_KEYS = { token: 'skilldesk.token', ownerKey: 'skilldesk.ownerKey' } as const;

/** The token in a URL fragment such as `#token=abc` (the address the server prints), or undefined. */
export function tokenFromFragment(hash: string): string | undefined {
  const m = /^#token=([A-Za-z0-9_-]{16,128})$/.exec(hash);
  return m?.[1];
}
