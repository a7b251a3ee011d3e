import type { Platform } from '../../../shared/skill';

/**
 * The platform whose app implementations apply on this machine: Windows and macOS by name,
 * every other Unix as `linux` (X11). The one place that maps `process.platform` to a skill
 * platform; the agent, retrieval, dry runs and the UI's app info all ask here.
 * @example hostPlatform('freebsd') // 'linux'
 */
export function hostPlatform(nodePlatform: NodeJS.Platform = process.platform): Platform {
  return nodePlatform === 'win32' || nodePlatform === 'darwin' ? nodePlatform : 'linux';
}

/** Whether a live desktop can be driven: always on Windows and macOS, with an X display on Linux. */
export function desktopAvailability(
  platform: Platform = hostPlatform(),
  env: Record<string, string | undefined> = process.env,
): 'available' | 'unavailable' {
  return platform !== 'linux' || env.DISPLAY ? 'available' : 'unavailable';
}
