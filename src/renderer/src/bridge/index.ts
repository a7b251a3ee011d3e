import { buildBridge, CHANNELS, EVENT_CHANNELS, type SkillDeskBridge } from '../../../shared/ipc';
import { hostCredentials } from './hostToken';
import { createWsTransport, type ConnectionState } from './wsTransport';

export { captureLaunchToken } from './hostToken';
export type { ConnectionState } from './wsTransport';

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in host mode. */
    skilldesk?: SkillDeskBridge;
  }
}

/** The bridge to main: Electron's preload when present, else host mode's WebSocket. */
export function connectBridge(onConnection?: (state: ConnectionState, session?: { owner: boolean }) => void): SkillDeskBridge {
  if (window.skilldesk) return window.skilldesk;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return buildBridge(createWsTransport(`${scheme}://${location.host}/ws`, hostCredentials(), onConnection), CHANNELS, EVENT_CHANNELS);
}
