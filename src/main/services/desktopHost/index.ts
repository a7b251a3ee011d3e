/**
 * The desktop host: a desktop's ports served to a SkillDesk core over an authenticated local
 * channel (protocol: src/shared/desktopHost/protocol.ts), and the `Desktop` a core drives it by.
 */
export { startDesktopHost, MIN_TOKEN_LENGTH, type DesktopHost, type DesktopHostOptions } from './DesktopHostServer';
export { connectDesktopHost, type RemoteDesktop, type RemoteDesktopOptions } from './RemoteDesktop';
