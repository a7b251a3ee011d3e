import { HOST_STORAGE_KEYS, tokenFromFragment } from '../../../shared/ipc';
import type { HostCredentials } from './wsTransport';

/**
 * Moves the token from the address (`/#token=...`, as `skilldesk serve` prints it) into this
 * tab's sessionStorage and strips it from the address bar, so it is neither shown, bookmarked
 * nor shared by copying the URL. Runs before anything reads `location.hash` (the screen routes).
 */
export function captureLaunchToken(): void {
  const token = tokenFromFragment(location.hash);
  if (!token) return;
  sessionStorage.setItem(HOST_STORAGE_KEYS.token, token);
  history.replaceState(null, '', `${location.pathname}${location.search}`);
}

/** The page's host-mode credentials: the tab's token, and the owner key kept for this origin (hence this port). */
export function hostCredentials(): HostCredentials {
  return {
    token: sessionStorage.getItem(HOST_STORAGE_KEYS.token) ?? undefined,
    ownerKey: () => localStorage.getItem(HOST_STORAGE_KEYS.ownerKey) ?? undefined,
    setOwnerKey: (key) => localStorage.setItem(HOST_STORAGE_KEYS.ownerKey, key),
  };
}
