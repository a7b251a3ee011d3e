import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startHost, type Host } from '../../../src/main/host';

export const ROOT = join(__dirname, '..', '..', '..');
export const SCREENS_DIR = join(ROOT, 'test-results', 'screens');
export const CHROMIUM = process.env.SKILLDESK_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with nothing that phones home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
];

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  return t;
}

/** Builds the renderer when out/renderer is missing or older than its sources (host mode serves the build). */
export function ensureRendererBuilt(): void {
  const index = join(ROOT, 'out', 'renderer', 'index.html');
  const stale =
    !existsSync(index) || statSync(index).mtimeMs < Math.max(newest(join(ROOT, 'src', 'renderer')), newest(join(ROOT, 'src', 'shared')));
  if (!stale) return;
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`);
}

export interface HostSession {
  host: Host;
  browser: Browser;
  page: Page;
  dataDir: string;
  /** Console errors and CSP violations seen by the page. */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Host mode in this process (real core, real SQLite file in a temp data dir) and a Chromium page on it. */
export async function openHostSession(
  opts: { prepareDataDir?: (dir: string) => void; promptTimeoutMs?: number } = {},
): Promise<HostSession> {
  ensureRendererBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'skilldesk-e2e-'));
  opts.prepareDataDir?.(dataDir);
  const host = await startHost({ dataDir, ...(opts.promptTimeoutMs && { promptTimeoutMs: opts.promptTimeoutMs }) });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 880 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(host.server.url);
  await page.waitForSelector('text=connected');
  mkdirSync(SCREENS_DIR, { recursive: true });
  return {
    host,
    browser,
    page,
    dataDir,
    pageErrors,
    async screenshot(name) {
      const path = join(SCREENS_DIR, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async close() {
      await browser.close();
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Pids of processes whose executable name is `name` (to end only those a test started). */
export function pidsOf(name: string): Set<number> {
  const r = spawnSync('pgrep', ['-x', name], { encoding: 'utf8' });
  return new Set(r.stdout.split('\n').filter(Boolean).map(Number));
}
