import { basename } from 'node:path';
import type { WindowInfo, WindowManager } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';

/** The slice of node-window-manager used here (the package is optional and loaded lazily). */
interface NwmWindow {
  id: number;
  processId: number;
  path: string;
  getTitle(): string;
  getBounds(): { x?: number; y?: number; width?: number; height?: number };
  isVisible(): boolean;
  isWindow(): boolean;
  bringToTop(): void;
  restore(): void;
}

interface NwmModule {
  windowManager: {
    getWindows(): NwmWindow[];
    getActiveWindow(): NwmWindow;
  };
}

/** Loads node-window-manager, or explains how to get it. */
export async function loadNodeWindowManager(): Promise<NwmModule> {
  const name = 'node-window-manager';
  try {
    const mod = (await import(/* @vite-ignore */ name)) as NwmModule & { default?: NwmModule };
    return mod.windowManager ? mod : (mod.default as NwmModule);
  } catch (err) {
    throw new DesktopError(
      'desktop.no_window_manager',
      `Windows needs the optional package node-window-manager (\`npm install node-window-manager\`): ${(err as Error).message}`,
    );
  }
}

/**
 * Windows on Win32 through node-window-manager. It cannot close windows, so `close` is given
 * by the caller (focus, then Alt+F4, which sends WM_CLOSE like the title-bar button).
 */
export class NodeWindowManager implements WindowManager {
  constructor(
    private readonly nwm: NwmModule,
    private readonly closeWindow: (id: string) => Promise<void>,
  ) {}

  async list(): Promise<WindowInfo[]> {
    return this.nwm.windowManager
      .getWindows()
      .filter((w) => w.isWindow() && w.isVisible() && w.getTitle() !== '')
      .map(describe);
  }

  async active(): Promise<WindowInfo | undefined> {
    const w = this.nwm.windowManager.getActiveWindow();
    return w && w.isWindow() ? describe(w) : undefined;
  }

  async focus(id: string): Promise<void> {
    const w = this.find(id);
    w.restore();
    w.bringToTop();
    for (let i = 0; i < 50; i++) {
      if (String(this.nwm.windowManager.getActiveWindow()?.id) === id) return;
      await new Promise((r) => setTimeout(r, 20));
      if (i === 10) w.bringToTop();
    }
    throw new DesktopError(
      'window.focus_failed',
      `Window \`${id}\` did not come to the foreground (Windows may refuse focus changes while another app is in front)`,
    );
  }

  async close(id: string): Promise<void> {
    this.find(id);
    await this.closeWindow(id);
  }

  private find(id: string): NwmWindow {
    const w = this.nwm.windowManager.getWindows().find((x) => String(x.id) === id);
    if (!w) throw new DesktopError('window.not_found', `No window \`${id}\`; it may have closed`);
    return w;
  }
}

function describe(w: NwmWindow): WindowInfo {
  const b = w.getBounds();
  return {
    id: String(w.id),
    title: w.getTitle(),
    pid: w.processId,
    processName: basename(w.path.replace(/\\/g, '/')).toLowerCase(),
    bounds: { x: b.x ?? 0, y: b.y ?? 0, width: b.width ?? 0, height: b.height ?? 0 },
  };
}
