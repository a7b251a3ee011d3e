import { existsSync } from 'node:fs';

/** The system Chromium the web tests drive (`SKILLDESK_CHROMIUM` overrides). */
export const CHROMIUM = process.env.SKILLDESK_CHROMIUM ?? '/usr/bin/chromium';

/** Fails (never skips) when the system Chromium is missing: these tests claim web skills work in a real browser. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: the web tests drive the real browser (on Debian: apt-get install chromium).`);
  return CHROMIUM;
}
