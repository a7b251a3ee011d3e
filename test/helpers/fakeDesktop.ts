import type { Desktop, WindowInfo } from '../../src/shared/ports/desktop';

export interface FakeCall {
  op: string;
  [k: string]: unknown;
}

/** A scriptable desktop for unit tests: records every call; windows and files are plain data tests change. */
export function fakeDesktop(
  init: { windows?: WindowInfo[]; files?: Record<string, string>; onLaunch?: (cmd: string) => WindowInfo | undefined } = {},
) {
  const calls: FakeCall[] = [];
  const windows: WindowInfo[] = [...(init.windows ?? [])];
  const files = new Map(Object.entries(init.files ?? {}));
  let active: string | undefined = windows[0]?.id;
  let clipboard = '';
  const hooks: { beforeInput?: (call: FakeCall) => void } = {};
  const input = (call: FakeCall) => {
    hooks.beforeInput?.(call);
    calls.push(call);
  };
  const desktop: Desktop = {
    platform: 'linux',
    input: {
      pressKey: async (key) => input({ op: 'key', key }),
      hotkey: async (keys) => input({ op: 'hotkey', keys: [...keys] }),
      typeText: async (text) => input({ op: 'type', text }),
      click: async (at, button, count) => input({ op: 'click', at, button, count }),
      drag: async (from, to) => input({ op: 'drag', from, to }),
      scroll: async (at, dx, dy) => input({ op: 'scroll', at, dx, dy }),
    },
    windows: {
      list: async () => [...windows],
      active: async () => windows.find((w) => w.id === active),
      focus: async (id) => {
        if (!id.startsWith('dry:') && !windows.some((w) => w.id === id)) throw new Error(`no window ${id}`);
        calls.push({ op: 'focus', id });
        active = id;
      },
      close: async (id) => {
        calls.push({ op: 'close', id });
      },
    },
    screen: { capture: async () => ({ width: 1, height: 1, png: new Uint8Array([137, 80, 78, 71]) }) },
    clipboard: {
      readText: async () => clipboard,
      writeText: async (t) => {
        clipboard = t;
      },
    },
    processes: {
      launch: async (req) => {
        calls.push({ op: 'launch', command: req.command, args: [...req.args] });
        const w = init.onLaunch?.(req.command);
        if (w) windows.push(w);
        return { pid: 1234 };
      },
      runScript: async (req) => {
        calls.push({ op: 'script', interpreter: req.interpreter, script: req.script, args: [...req.args] });
        return { exitCode: 0, stdout: `ran ${req.args.join(' ')}\n`, stderr: '' };
      },
    },
    files: {
      exists: async (p) => files.has(p),
      readText: async (p) => files.get(p) ?? '',
    },
  };
  return {
    desktop,
    calls,
    windows,
    files,
    hooks,
    setActive: (id: string) => {
      active = id;
    },
    setClipboard: (t: string) => {
      clipboard = t;
    },
    inputCalls: () => calls.filter((c) => ['key', 'hotkey', 'type', 'click', 'drag', 'scroll'].includes(c.op)),
  };
}

export function win(id: string, title: string, processName: string, className?: string): WindowInfo {
  return { id, title, processName, ...(className && { className }), bounds: { x: 10, y: 20, width: 800, height: 600 } };
}
