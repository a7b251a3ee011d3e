import { contextBridge, ipcRenderer } from 'electron';
import { buildBridge, CHANNELS, EVENT_CHANNELS, type BridgeTransport } from '../shared/ipc';

// The renderer gets `window.skilldesk`: one method per contract entry, never ipcRenderer itself.
const transport: BridgeTransport = {
  invoke: (channel, request) => ipcRenderer.invoke(channel, request),
  subscribe: (event, listener) => {
    const handler = (_e: Electron.IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(event, handler);
    return () => {
      ipcRenderer.removeListener(event, handler);
    };
  },
};

contextBridge.exposeInMainWorld('skilldesk', buildBridge(transport, CHANNELS, EVENT_CHANNELS));
