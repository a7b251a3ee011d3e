import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { CHANNELS, fail, type IpcResult } from '../../shared/ipc';
import type { Dispatcher } from '../bridge/Dispatcher';
import type { EventHub } from '../bridge/EventHub';

/**
 * Registers one `ipcMain.handle` per contract channel. The dispatcher validates every payload
 * with the contract's zod schema; here we also refuse senders that are not our own page.
 */
export function registerIpc(dispatcher: Dispatcher, hub: EventHub, appUrl: () => string): () => void {
  const trusted = (event: IpcMainInvokeEvent): boolean => {
    const url = event.senderFrame?.url ?? '';
    return url === appUrl() || url.startsWith(`${appUrl()}#`);
  };
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, payload: unknown): Promise<IpcResult<unknown>> => {
      if (!trusted(event))
        return fail('ipc.untrusted_sender', `Refused \`${channel}\` from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      // The app's own window is the user: it owns prompts and settings (Electron asks through native dialogs anyway).
      return dispatcher.dispatch(channel, payload, { owner: true });
    });
  }
  const unsubscribe = hub.subscribe((event, payload) => {
    for (const w of BrowserWindow.getAllWindows()) if (!w.isDestroyed()) w.webContents.send(event, payload);
  });
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
    unsubscribe();
  };
}
