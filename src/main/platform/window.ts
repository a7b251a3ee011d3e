import { BrowserWindow, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The policy for every page of the app (the renderer's meta tag carries the same one). */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Hardens the default session: no permission requests granted, CSP on every response. */
export function hardenSession(): void {
  const ses = session.defaultSession;
  // The UI needs no camera, notifications, geolocation...: refuse every request and check.
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

export interface MainWindowOptions {
  preload: string;
  /** The built renderer's index.html. */
  indexHtml: string;
  icon?: string;
}

/**
 * The main window: isolated, sandboxed, no Node in the page; navigation away from the app
 * and new windows are denied.
 */
export function createMainWindow(o: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'SkillDesk',
    ...(o.icon && { icon: o.icon }),
    webPreferences: {
      preload: o.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click opens links without `click` events; nothing in the UI needs it.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  const appUrl = pathToFileURL(o.indexHtml).href;
  win.webContents.on('will-navigate', (event, url) => {
    if (url !== appUrl && !url.startsWith(`${appUrl}#`)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event) => event.preventDefault());
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  // The UI links nowhere outside itself; nothing opens, not even in the system browser.
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  void win.loadFile(o.indexHtml);
  return win;
}

/** Paths of the built preload and renderer, next to out/main. */
export function builtPaths(mainDir: string): { preload: string; indexHtml: string } {
  return { preload: join(mainDir, '..', 'preload', 'index.cjs'), indexHtml: join(mainDir, '..', 'renderer', 'index.html') };
}
