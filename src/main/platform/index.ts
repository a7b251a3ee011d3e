/** The only code that imports electron: windows, IPC registration, dialogs, shortcuts, tray. */
export { createMainWindow, hardenSession, builtPaths, CONTENT_SECURITY_POLICY } from './window';
export { registerIpc } from './ipc';
export { NativeDialogPrompter } from './NativeDialogPrompter';
export { registerEmergencyStop, claimSingleInstance, createTray, EMERGENCY_STOP } from './shell';
