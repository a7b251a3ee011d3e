import { app, type BrowserWindow, globalShortcut, Menu, nativeImage, Tray } from 'electron';
import type { StatusView } from '../../shared/ipc';

/** The emergency-stop accelerator: aborts every run before its next primitive. */
export const EMERGENCY_STOP = 'CommandOrControl+Alt+Escape';

/** Registers the global emergency stop; returns false when another program holds the shortcut. */
export function registerEmergencyStop(stopAll: () => void): boolean {
  return globalShortcut.register(EMERGENCY_STOP, stopAll);
}

/** Only one SkillDesk per user: a second launch focuses the first window and exits. */
export function claimSingleInstance(focus: () => BrowserWindow | undefined): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const w = focus();
    if (!w) return;
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  });
  return true;
}

/** Tray icon with the run status in its tooltip, and Stop all / Show / Quit. */
export function createTray(
  iconPath: string,
  actions: { show: () => void; stopAll: () => void },
): { update(status: StatusView): void; destroy(): void } {
  const tray = new Tray(nativeImage.createFromPath(iconPath));
  const render = (status: StatusView): void => {
    const running = status.running.length;
    tray.setToolTip(running ? `SkillDesk: running ${status.running.map((r) => r.skillId).join(', ')}` : 'SkillDesk: idle');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: running ? `Running: ${running}` : 'Idle', enabled: false },
        ...(status.pendingPrompts ? [{ label: `${status.pendingPrompts} permission request(s) waiting`, click: actions.show }] : []),
        { type: 'separator' },
        { label: 'Show SkillDesk', click: actions.show },
        { label: `Stop all (${EMERGENCY_STOP})`, enabled: running > 0, click: actions.stopAll },
        { type: 'separator' },
        { label: 'Quit', role: 'quit' },
      ]),
    );
  };
  render({ running: [], pendingPrompts: 0 });
  tray.on('click', actions.show);
  return { update: render, destroy: () => tray.destroy() };
}
