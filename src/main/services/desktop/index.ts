/**
 * The desktop service: adapters behind the ports of `src/shared/ports/desktop.ts`.
 * `createDesktop` builds the live desktop for this platform (nut.js mouse and screen; on X11 an
 * exact XTEST keyboard, EWMH windows, clipboard reads over the X connection and writes by xclip;
 * on Windows nut.js and node-window-manager);
 * `createRecordingDesktop` builds the one dry runs and unit tests use. Adapters are imported
 * lazily, so importing this module loads no native code and needs no display.
 */
import type { Desktop, WindowManager } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import type { Keyboard } from './keyboard';
import type { NodeWindowManager } from './NodeWindowManager';
import type { User32 } from './Win32Text';
import type { NutModule } from './nut';
import type { TypingPace } from './x11/XTestKeyboard';

export { DesktopError } from './errors';
export { desktopAvailability, hostPlatform } from './hostPlatform';
export {
  createRecordingDesktop,
  INPUT_OPS,
  READ_OPS,
  type RecordedCall,
  type RecordingDesktop,
  type RecordingDesktopOptions,
} from './RecordingDesktop';
export type { TypingPace } from './x11/XTestKeyboard';
export { unavailableDesktop } from './UnavailableDesktop';

/** Options of createDesktop. */
export interface CreateDesktopOptions {
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /**
   * The X display (Linux). nut.js reads `$DISPLAY` itself, so this must agree with it.
   * @default process.env.DISPLAY
   */
  display?: string;
  /** Typing pace per focused window class (X11). @default WINE_PACE for Wine windows, NATIVE_PACE for others */
  paceFor?: (windowClass: string | undefined) => TypingPace;
  /** Environment added to launched apps and scripts (e.g. WINEPREFIX). */
  env?: Record<string, string>;
}

/** The primary screen: size in physical pixels and scale factor (1 = 96 DPI). */
export interface ScreenInfo {
  width: number;
  height: number;
  scale: number;
}

/** A live desktop; `close` releases its X connection. */
export interface LiveDesktop extends Desktop {
  /** What the primary screen is, for diagnostics and the desktop host's `hello`. */
  describeScreen(): Promise<ScreenInfo | undefined>;
  close(): Promise<void>;
}

/** Builds the live desktop for the platform. Fails with `desktop.no_display` on Linux without an X display. */
export async function createDesktop(options: CreateDesktopOptions = {}): Promise<LiveDesktop> {
  const platform = options.platform ?? process.platform;
  if (platform === 'linux') return createX11Desktop(options);
  if (platform === 'win32' || platform === 'darwin') return createNutDesktop(platform, options);
  throw new DesktopError('desktop.unsupported', `SkillDesk drives desktops on linux (X11), win32 and darwin, not on ${platform}`);
}

async function createX11Desktop(options: CreateDesktopOptions): Promise<LiveDesktop> {
  const display = options.display ?? process.env.DISPLAY;
  if (display && process.env.DISPLAY && display !== process.env.DISPLAY) {
    throw new DesktopError(
      'desktop.display_mismatch',
      `Expected \`display\` to match $DISPLAY (\`${process.env.DISPLAY}\`) because nut.js uses $DISPLAY, got \`${display}\``,
    );
  }
  const [{ X11Connection }, { XTestKeyboard }, { X11WindowManager }, { X11Selection }, { noticeCopies }] = await Promise.all([
    import('./x11/X11Connection'),
    import('./x11/XTestKeyboard'),
    import('./X11WindowManager'),
    import('./x11/X11Selection'),
    import('./copies'),
  ]);
  const x = await X11Connection.open(display);
  try {
    await x.xtest();
    const windows = new X11WindowManager(x);
    const selection = await X11Selection.open(x);
    // A read right after a copy shortcut waits for that copy to land (apps take the keys in their own time).
    const keyboard = noticeCopies(
      new XTestKeyboard(x, {
        focusTarget: () => windows.focusTarget(),
        ...(options.paceFor && { paceFor: options.paceFor }),
      }),
      selection,
    );
    const [nut, { XclipClipboard }] = await Promise.all([loadNut(), import('./XclipClipboard')]);
    const env = { DISPLAY: x.display, ...options.env };
    return {
      ...(await commonParts(nut, keyboard, env)),
      platform: 'linux',
      windows,
      // Writes keep `xclip -i`: its forked owner serves the text after SkillDesk exits.
      clipboard: new XclipClipboard({ display: x.display, read: () => selection.readText() }),
      describeScreen: async () => {
        const root = await x.geometry(x.root);
        return { width: root.width, height: root.height, scale: 1 };
      },
      close: async () => {
        selection.dispose();
        await x.close();
      },
    };
  } catch (err) {
    await x.close();
    throw err;
  }
}

async function createNutDesktop(platform: 'win32' | 'darwin', options: CreateDesktopOptions): Promise<LiveDesktop> {
  const nut = await loadNut();
  const env = options.env ?? {};
  const nutScreen = async () => ({ width: await nut.screen.width(), height: await nut.screen.height(), scale: 1 });
  if (platform === 'darwin') {
    const [{ NutClipboard }, { NutKeyboard }] = await Promise.all([import('./NutClipboard'), import('./NutKeyboard')]);
    const parts = await commonParts(nut, new NutKeyboard(nut), env);
    return {
      ...parts,
      platform,
      windows: unsupportedWindows(platform),
      clipboard: new NutClipboard(nut),
      describeScreen: nutScreen,
      close: async () => undefined,
    };
  }
  const [{ loadUser32, SendInputKeyboard }, { SequencedClipboard }, { noticeCopies }] = await Promise.all([
    import('./Win32Text'),
    import('./SequencedClipboard'),
    import('./copies'),
  ]);
  const user32 = await loadUser32();
  // The Windows clipboard API itself (nut.js's clipboard runs a helper program per read, which
  // fails on an empty clipboard).
  const clipboard = new SequencedClipboard({ readText: () => user32.readClipboard(), writeText: (t) => user32.writeClipboard(t) }, () =>
    user32.clipboardSequence(),
  );
  const parts = await commonParts(nut, noticeCopies(new SendInputKeyboard(user32), clipboard), env);
  const win32 = lazyWin32Windows(nut, user32);
  const { loadWin32Registry } = await import('./Win32Registry');
  return {
    ...parts,
    platform,
    windows: win32.windows,
    clipboard,
    registry: await loadWin32Registry(),
    describeScreen: async () => (await win32.primaryScreen()) ?? nutScreen(),
    close: async () => undefined,
  };
}

async function commonParts(nut: NutModule, keyboard: Keyboard, env: Record<string, string>) {
  const [{ NutInputDriver }, { NutScreenCapture }, { NodeProcessRunner }, { NodeFileProbe }] = await Promise.all([
    import('./NutInputDriver'),
    import('./NutScreenCapture'),
    import('./NodeProcessRunner'),
    import('./NodeFileProbe'),
  ]);
  return {
    input: new NutInputDriver(nut, keyboard),
    screen: new NutScreenCapture(nut),
    processes: new NodeProcessRunner({ env }),
    files: new NodeFileProbe(),
  };
}

async function loadNut(): Promise<NutModule> {
  try {
    const mod = (await import('@nut-tree-fork/nut-js')) as NutModule & { default?: NutModule };
    return mod.mouse ? mod : (mod.default as NutModule);
  } catch (err) {
    throw new DesktopError(
      'desktop.no_nutjs',
      `Could not load @nut-tree-fork/nut-js (native input and screen capture): ${(err as Error).message}`,
    );
  }
}

/** node-window-manager's addon is loaded on first use, so input works even without it. */
function lazyWin32Windows(
  nut: NutModule,
  user32: User32,
): {
  windows: WindowManager;
  primaryScreen(): Promise<ScreenInfo | undefined>;
} {
  let loaded: Promise<NodeWindowManager> | undefined;
  const get = () => {
    loaded ??= import('./NodeWindowManager').then(({ NodeWindowManager, loadNodeWindowManager }) => {
      const manager = new NodeWindowManager(loadNodeWindowManager(), {
        raise: async (handle) => void (await new nut.Window(nut.providerRegistry, handle).focus()),
        settle: (pid) => user32.waitForInputIdle(pid, 2000),
        keyFocus: (handle, timeoutMs) => user32.keyFocus(handle, timeoutMs),
        owner: (handle) => user32.owner(handle),
        close: (handle) => user32.requestClose(handle),
      });
      return manager;
    });
    return loaded;
  };
  return {
    windows: {
      list: async () => (await get()).list(),
      active: async () => (await get()).active(),
      focus: async (id) => (await get()).focus(id),
      close: async (id) => (await get()).close(id),
    },
    primaryScreen: async () => (await get()).primaryScreen(),
  };
}

function unsupportedWindows(platform: string): WindowManager {
  const fail = async (): Promise<never> => {
    throw new DesktopError('desktop.unsupported', `Window management is not implemented on ${platform}`);
  };
  return { list: fail, active: fail, focus: fail, close: fail };
}
