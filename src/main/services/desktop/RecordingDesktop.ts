import type { Desktop, Rect, RegistryValue, ScriptRequest, ScriptResult, WindowInfo } from '../../../shared/ports/desktop';
import { canonicalRegistryKey } from '../../../shared/registryKeys';
import { DesktopError } from './errors';
import { encodePng } from '../image';
import { hostPlatform } from './hostPlatform';

/** One recorded call: `op` names it (`type`, `hotkey`, `focus`, `clipboard.read`...), the rest are its arguments. */
export interface RecordedCall {
  op: string;
  [arg: string]: unknown;
}

/** Ops that only read; everything else would change the desktop. */
export const READ_OPS: ReadonlySet<string> = new Set([
  'windows.list',
  'windows.active',
  'screen.capture',
  'clipboard.read',
  'file.exists',
  'file.read',
  'registry.read',
]);

/** Ops that are user input (keyboard and mouse). */
export const INPUT_OPS: ReadonlySet<string> = new Set(['key', 'hotkey', 'type', 'click', 'drag', 'scroll']);

/** Options of createRecordingDesktop. */
export interface RecordingDesktopOptions {
  /** @default the host platform */
  platform?: Desktop['platform'];
  /** The windows `list` returns at first. @default none */
  windows?: WindowInfo[];
  /** The focused window. @default the first of `windows` */
  activeWindowId?: string;
  /** Windows that appear when a command is launched, by command. */
  launchWindows?: Record<string, WindowInfo | WindowInfo[]>;
  /** Initial clipboard text. @default '' */
  clipboard?: string;
  /** Files `exists` and `readText` see, by path. */
  files?: Record<string, string>;
  /**
   * Registry values by `<key>\\<name>` (`HKEY_CURRENT_USER\\Software\\X\\Answer`); given, the desktop
   * has a registry (as a Windows one does). @default none
   */
  registry?: Record<string, RegistryValue>;
  /** The screen size captures report. @default 1280x800 */
  screen?: { width: number; height: number };
  /** The result of `runScript`. @default exit 0 with empty output */
  scriptResult?: (req: ScriptRequest) => ScriptResult;
  /**
   * Called with every call as it is made, before its effect: a dry run can print actions as they
   * happen, and a test can make the world react (a dialog that closes after a click).
   */
  onCall?: (call: RecordedCall) => void;
}

/** A desktop that touches nothing and records every call, with plausible answers. */
export interface RecordingDesktop {
  desktop: Desktop;
  /** Every call in order, reads included. */
  calls: RecordedCall[];
  /** The calls that would have changed the desktop (no reads): what a dry run prints. */
  actions(): RecordedCall[];
  /** The current windows (launches add, close removes); tests may edit it. */
  windows: WindowInfo[];
  files: Map<string, string>;
  /** Makes `id` the focused window without recording a call, as when another app takes focus. */
  setActiveWindow(id: string | undefined): void;
  clear(): void;
}

/**
 * Builds the recording desktop used by `--dry-run` and by unit tests. Focus accepts any id (dry
 * runs focus stand-in windows), the clipboard returns what was last written, captures are blank
 * white PNGs of the requested size.
 */
export function createRecordingDesktop(options: RecordingDesktopOptions = {}): RecordingDesktop {
  const calls: RecordedCall[] = [];
  const windows: WindowInfo[] = [...(options.windows ?? [])];
  const files = new Map(Object.entries(options.files ?? {}));
  const registry = options.registry && { ...options.registry };
  const screen = options.screen ?? { width: 1280, height: 800 };
  let active = options.activeWindowId ?? windows[0]?.id;
  let clipboard = options.clipboard ?? '';
  let nextPid = 4000;
  const record = (call: RecordedCall) => {
    options.onCall?.(call);
    calls.push(call);
  };

  const desktop: Desktop = {
    platform: options.platform ?? hostPlatform(),
    input: {
      pressKey: async (key) => record({ op: 'key', key }),
      hotkey: async (keys) => record({ op: 'hotkey', keys: [...keys] }),
      typeText: async (text) => record({ op: 'type', text }),
      click: async (at, button, count) => record({ op: 'click', at: { ...at }, button, count }),
      drag: async (from, to) => record({ op: 'drag', from: { ...from }, to: { ...to } }),
      scroll: async (at, dx, dy) => record({ op: 'scroll', ...(at && { at: { ...at } }), dx, dy }),
    },
    windows: {
      list: async () => {
        record({ op: 'windows.list' });
        return windows.map((w) => ({ ...w }));
      },
      active: async () => {
        record({ op: 'windows.active' });
        const w = windows.find((x) => x.id === active);
        return w && { ...w };
      },
      focus: async (id) => {
        record({ op: 'focus', id });
        active = id;
      },
      close: async (id) => {
        record({ op: 'close', id });
        const i = windows.findIndex((w) => w.id === id);
        if (i >= 0) windows.splice(i, 1);
      },
    },
    screen: {
      capture: async (region?: Rect) => {
        record({ op: 'screen.capture', ...(region && { region: { ...region } }) });
        const width = Math.max(1, Math.round(region?.width ?? screen.width));
        const height = Math.max(1, Math.round(region?.height ?? screen.height));
        return { width, height, png: encodePng({ width, height, data: new Uint8Array(width * height * 3).fill(255) }) };
      },
    },
    clipboard: {
      readText: async () => {
        record({ op: 'clipboard.read' });
        return clipboard;
      },
      writeText: async (text) => {
        record({ op: 'clipboard.write', text });
        clipboard = text;
      },
    },
    processes: {
      launch: async (req) => {
        record({
          op: 'launch',
          command: req.command,
          args: [...req.args],
          ...(req.env && { env: { ...req.env } }),
          ...(req.cwd && { cwd: req.cwd }),
        });
        const appeared = options.launchWindows?.[req.command];
        for (const w of appeared === undefined ? [] : Array.isArray(appeared) ? appeared : [appeared]) {
          if (!windows.some((x) => x.id === w.id)) windows.push({ ...w });
          active = w.id;
        }
        return { pid: nextPid++ };
      },
      runScript: async (req) => {
        record({ op: 'script', interpreter: req.interpreter, script: req.script, args: [...req.args], timeoutMs: req.timeoutMs });
        if (req.signal?.aborted) throw new DesktopError('script.aborted', `The ${req.interpreter} script was stopped before it started`);
        return options.scriptResult?.(req) ?? { exitCode: 0, stdout: '', stderr: '' };
      },
    },
    files: {
      exists: async (path) => {
        record({ op: 'file.exists', path });
        return files.has(path);
      },
      readText: async (path) => {
        record({ op: 'file.read', path });
        const text = files.get(path);
        if (text === undefined)
          throw new DesktopError('file.not_found', `Could not read \`${path}\`: no such file in the recording desktop`);
        return text;
      },
    },
    ...(registry && {
      registry: {
        readValue: async (key: string, name: string) => {
          record({ op: 'registry.read', key, name });
          const k = canonicalRegistryKey(key);
          if (!k) throw new DesktopError('registry.bad_key', `\`${key}\` does not start with a registry root`);
          return registry[`${k.key}\\${name}`];
        },
      },
    }),
  };

  return {
    desktop,
    calls,
    actions: () => calls.filter((c) => !READ_OPS.has(c.op)),
    windows,
    files,
    setActiveWindow: (id) => {
      active = id;
    },
    clear: () => {
      calls.length = 0;
    },
  };
}
