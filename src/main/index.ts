import { app, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { CoreApiAdapter } from './bridge/CoreApiAdapter';
import { Dispatcher } from './bridge/Dispatcher';
import { EventHub } from './bridge/EventHub';
import { createNodeCore } from './core/createNodeCore';
import { packageRoot } from './core/paths';
import { packageVersion } from './host';
import {
  builtPaths,
  claimSingleInstance,
  createMainWindow,
  createTray,
  hardenSession,
  NativeDialogPrompter,
  registerEmergencyStop,
  registerIpc,
} from './platform';
import { defaultDataDir } from './services/store';

/**
 * The Electron composition root: the same core as the CLI and host mode, with native permission
 * dialogs, the IPC bridge, the emergency-stop shortcut, a tray icon and a single instance.
 * better-sqlite3 loads the Electron build named by SKILLDESK_SQLITE_BINDING (scripts/start.cjs
 * builds it into .cache/); packaged apps get one rebuilt by electron-builder.
 */

let window: BrowserWindow | undefined;

async function main(): Promise<void> {
  if (!claimSingleInstance(() => window)) {
    app.quit();
    return;
  }
  await app.whenReady();
  hardenSession();
  const dataDir = process.env.SKILLDESK_DATA_DIR ?? defaultDataDir();
  const nativeBinding = process.env.SKILLDESK_SQLITE_BINDING || undefined;
  const hub = new EventHub();
  const prompter = new NativeDialogPrompter(() => window);
  const core = await createNodeCore({ dataDir, interactive: false, prompter, ...(nativeBinding && { nativeBinding }) });
  const api = new CoreApiAdapter({ core, db: core.db!, version: packageVersion() });
  const dispatcher = new Dispatcher({ core: api, hub, mode: 'electron' });

  const paths = builtPaths(__dirname);
  const icon = join(packageRoot(), 'assets', 'icon.png');
  const trayIcon = join(packageRoot(), 'assets', 'tray.png');
  const open = (): BrowserWindow => (window = createMainWindow({ ...paths, icon }));
  const appUrl = (): string => window?.webContents.getURL().split('#')[0] ?? '';
  const unregister = registerIpc(dispatcher, hub, appUrl);
  open();
  const show = (): void => {
    if (!window || window.isDestroyed()) open();
    window?.show();
    window?.focus();
  };
  const stopAll = (): void => void dispatcher.stop();
  if (!registerEmergencyStop(stopAll))
    console.warn('SkillDesk: the emergency-stop shortcut is taken by another program; use Stop all in the window or tray.');
  const tray = createTray(trayIcon, { show, stopAll });
  hub.subscribe((event, payload) => {
    if (event === 'app:status') tray.update(payload as Parameters<typeof tray.update>[0]);
  });

  app.on('activate', show);
  app.on('window-all-closed', () => {
    // The tray keeps running skills reachable; quit only where there is no tray convention.
    if (process.platform === 'darwin') return;
    app.quit();
  });
  app.on('will-quit', () => {
    dispatcher.stop();
    unregister();
    tray.destroy();
    core.close();
  });
}

main().catch((err: unknown) => {
  console.error(`SkillDesk failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  app.exit(1);
});
