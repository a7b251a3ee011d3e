import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Core } from '../../src/main/core/Core';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { connectDesktopHost, type RemoteDesktop } from '../../src/main/services/desktopHost';

/** A core on Linux whose desktop is the Windows desktop host under Wine, with a fresh data folder. */
export async function windowsCore(): Promise<{ core: Core; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-windows-'));
  const core = await createNodeCore({ dataDir, interactive: false, desktopHost: inject('windowsDesktop') });
  return { core, dataDir };
}

/** A direct connection to the Windows desktop host (adapter-level tests). */
export function windowsDesktop(): Promise<RemoteDesktop> {
  return connectDesktopHost(inject('windowsDesktop'));
}

/**
 * A Linux path as Wine's Windows programs see it: drive Z: is the POSIX root in a default prefix.
 * Only tests know this; skills and product code see Windows paths.
 */
export function winePath(posixPath: string): string {
  return `Z:${posixPath.replace(/\//g, '\\')}`;
}
