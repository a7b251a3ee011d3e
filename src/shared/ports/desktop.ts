/**
 * Ports through which the core reaches the desktop. Pure types: adapters live in
 * `src/main/services/desktop/` (nut.js, X11, node-window-manager) and tests use
 * recording fakes.
 */
import type { Interpreter } from '../skill/interpreters';

import type { KeyName } from '../skill/keys';

/** The key vocabulary lives with the skill model (skill files are checked against it when they load). */
export { NAMED_KEYS, isKeyName, type KeyName, type NamedKey } from '../skill/keys';

/** A point in screen pixels. */
export interface Point {
  x: number;
  y: number;
}

/** A rectangle in screen pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type MouseButton = 'left' | 'right' | 'middle';

/** Keyboard and mouse. Implementations must type text exactly (every printable ASCII, Latin-1, tab, newline). */
export interface InputDriver {
  pressKey(key: KeyName): Promise<void>;
  /** Presses `keys` in order, then releases them in reverse order. */
  hotkey(keys: readonly KeyName[]): Promise<void>;
  typeText(text: string): Promise<void>;
  click(at: Point, button: MouseButton, count: 1 | 2): Promise<void>;
  drag(from: Point, to: Point): Promise<void>;
  scroll(at: Point | undefined, dx: number, dy: number): Promise<void>;
}

/** A top-level window as the window manager sees it. */
export interface WindowInfo {
  /** Opaque, stable for the window's lifetime (X11 window id, HWND...). */
  id: string;
  title: string;
  pid?: number;
  /** Executable name, e.g. `notepad.exe`, `mousepad`. */
  processName?: string;
  /** X11 WM_CLASS (instance.class) or Win32 class name. */
  className?: string;
  /**
   * A dialog: a window owned by another (Win32 owner, X11 WM_TRANSIENT_FOR) or typed as a dialog
   * (`_NET_WM_WINDOW_TYPE_DIALOG`). A wait fails on an app's dialog it does not expect.
   */
  dialog?: boolean;
  bounds: Rect;
}

export interface WindowManager {
  list(): Promise<WindowInfo[]>;
  /** The focused window, if any. */
  active(): Promise<WindowInfo | undefined>;
  /** Raises and focuses the window; resolves once focus is confirmed or rejects. */
  focus(id: string): Promise<void>;
  /** Closes the window politely (WM_DELETE_WINDOW / WM_CLOSE). */
  close(id: string): Promise<void>;
  /**
   * Calls `listener` with the window in front each time it or its title changes, stamped with the
   * display server's time of the change (on X11 the clock a global input hook stamps keys and
   * clicks with), until the returned function is called. Absent where the platform cannot say
   * when a change happened.
   */
  watchFront?(listener: (window: WindowInfo | undefined, serverTime: number) => void): Promise<() => Promise<void>>;
}

/** An RGB screenshot encoded as PNG. */
export interface Screenshot {
  width: number;
  height: number;
  png: Uint8Array;
}

export interface ScreenCapture {
  capture(region?: Rect): Promise<Screenshot>;
}

export interface Clipboard {
  readText(): Promise<string>;
  writeText(text: string): Promise<void>;
}

export interface LaunchRequest {
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface ScriptRequest {
  interpreter: Interpreter;
  script: string;
  args: readonly string[];
  timeoutMs: number;
  env?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ScriptResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Starts applications (detached) and runs scripts (awaited, bounded). */
export interface ProcessRunner {
  launch(req: LaunchRequest): Promise<{ pid: number }>;
  runScript(req: ScriptRequest): Promise<ScriptResult>;
}

/** The file-system facts the executor needs for guards and `wait_until`. */
export interface FileProbe {
  exists(path: string): Promise<boolean>;
  readText(path: string): Promise<string>;
}

/** A registry value: its type (`REG_SZ`, `REG_DWORD`...) and its data as text (numbers in decimal, binary as hex). */
export interface RegistryValue {
  type: string;
  data: string;
}

/** Reads the Windows registry (the checks of settings skills). */
export interface RegistryProbe {
  /** The value `name` (`''`: the key's default value) of `key` (`HKCU\Software\...`), or undefined where there is none. */
  readValue(key: string, name: string): Promise<RegistryValue | undefined>;
}

/** Everything the executor touches on the desktop. */
export interface Desktop {
  input: InputDriver;
  windows: WindowManager;
  screen: ScreenCapture;
  clipboard: Clipboard;
  processes: ProcessRunner;
  files: FileProbe;
  /** Windows only: desktops without a registry leave it out. */
  registry?: RegistryProbe;
  /** `linux` or `win32` (the platform whose app implementations apply). */
  platform: 'linux' | 'win32' | 'darwin';
}
