import type * as KoffiModule from 'koffi';
import { describeValue } from '../../../shared/errors';
import type { KeyName, NamedKey } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import type { Keyboard } from './keyboard';

/** The user32 calls SkillDesk makes itself on Windows (through koffi, an FFI with prebuilt N-API binaries). */
export interface User32 {
  /** SendInput with INPUT_KEYBOARD records; returns how many were inserted. */
  sendKeyboard(records: readonly KeyRecord[]): number;
  /** GetClipboardSequenceNumber: changes whenever the clipboard's contents change. */
  clipboardSequence(): number;
  /** The key (and Shift) that types `ch` on the current keyboard layout, if a plain or shifted key does. */
  layoutKey(ch: string): LayoutKey | undefined;
  /** The scan code of a virtual key on the current layout (MapVirtualKeyW); 0 when it has none. */
  scanCode(vk: number): number;
  /**
   * WaitForInputIdle: resolves once a newly started process has finished initialising and waits
   * for input (or after `timeoutMs`); for a process that got there before, at once.
   */
  waitForInputIdle(pid: number, timeoutMs: number): Promise<'idle' | 'timeout' | 'failed'>;
  /** The clipboard's Unicode text ('' when it holds none), through OpenClipboard/GetClipboardData. */
  readClipboard(): Promise<string>;
  /** Replaces the clipboard's contents with `text` (CF_UNICODETEXT). */
  writeClipboard(text: string): Promise<void>;
  /**
   * Asks a window to close as its title-bar button does (WM_SYSCOMMAND SC_CLOSE, posted): the
   * program may still ask to save. Needs no focus, so no keystroke can land elsewhere.
   */
  requestClose(handle: number): void;
  /**
   * The window's keyboard focus (GetGUIThreadInfo): the window or the control inside it that has
   * it, once its thread answers a message within `timeoutMs` (SendMessageTimeoutW WM_NULL, not
   * waiting on a hung thread); undefined when the thread does not answer or the focus is elsewhere.
   */
  keyFocus(handle: number, timeoutMs: number): Promise<number | undefined>;
  /** The window's owner (GetWindow GW_OWNER): a dialog is owned by the window it belongs to; 0 when none. */
  owner(handle: number): number;
}

/** A key of the keyboard layout: virtual key, scan code, and whether Shift is held. */
export interface LayoutKey {
  vk: number;
  scan: number;
  shift: boolean;
}

/** One KEYBDINPUT: a virtual key, or (unicode) a UTF-16 code unit. */
export interface KeyRecord {
  vk: number;
  scan: number;
  flags: number;
}

export const KEYEVENTF_EXTENDEDKEY = 0x0001;
export const KEYEVENTF_KEYUP = 0x0002;
export const KEYEVENTF_UNICODE = 0x0004;
const VK_TAB = 0x09;
const VK_RETURN = 0x0d;
const VK_SHIFT = 0x10;

// INPUT on 64-bit Windows: DWORD type, 4 bytes of padding, then the union (40 bytes in all, the
// size of MOUSEINPUT); KEYBDINPUT is WORD wVk, WORD wScan, DWORD dwFlags, DWORD time, 4 bytes of
// padding, ULONG_PTR dwExtraInfo.
const INPUT_SIZE = 40;
const INPUT_KEYBOARD = 1;

type Koffi = typeof KoffiModule;

/** Loads user32 through koffi, or explains why it cannot. */
export async function loadUser32(): Promise<User32> {
  if (process.arch !== 'x64' && process.arch !== 'arm64') {
    throw new DesktopError('desktop.unsupported', `SkillDesk's Windows input needs 64-bit Windows, not ${process.arch}`);
  }
  let koffi: Koffi;
  try {
    const mod = (await import('koffi')) as Partial<Koffi> & { default?: Koffi };
    koffi = (mod.load ? mod : mod.default) as Koffi;
  } catch (err) {
    throw new DesktopError(
      'desktop.no_ffi',
      `Exact text entry on Windows needs koffi's Windows binary (@koromix/koffi-win32-x64, installed with koffi on Windows): ${(err as Error).message}`,
    );
  }
  const user32 = koffi.load('user32.dll');
  const SendInput = user32.func('uint32_t __stdcall SendInput(uint32_t cInputs, void *pInputs, int cbSize)');
  const GetClipboardSequenceNumber = user32.func('uint32_t __stdcall GetClipboardSequenceNumber()');
  const VkKeyScanW = user32.func('int16_t __stdcall VkKeyScanW(uint16_t ch)');
  const MapVirtualKeyW = user32.func('uint32_t __stdcall MapVirtualKeyW(uint32_t uCode, uint32_t uMapType)');
  const MAPVK_VK_TO_VSC = 0;
  const kernel32 = koffi.load('kernel32.dll');
  const OpenProcess = kernel32.func('void * __stdcall OpenProcess(uint32_t dwDesiredAccess, int bInheritHandle, uint32_t dwProcessId)');
  const CloseHandle = kernel32.func('int __stdcall CloseHandle(void *hObject)');
  const WaitForInputIdle = user32.func('uint32_t __stdcall WaitForInputIdle(void *hProcess, uint32_t dwMilliseconds)');
  const SYNCHRONIZE = 0x0010_0000;
  const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
  const OpenClipboard = user32.func('int __stdcall OpenClipboard(void *hWndNewOwner)');
  const CloseClipboard = user32.func('int __stdcall CloseClipboard()');
  const EmptyClipboard = user32.func('int __stdcall EmptyClipboard()');
  const GetClipboardData = user32.func('void * __stdcall GetClipboardData(uint32_t uFormat)');
  const SetClipboardData = user32.func('void * __stdcall SetClipboardData(uint32_t uFormat, void *hMem)');
  const GlobalAlloc = kernel32.func('void * __stdcall GlobalAlloc(uint32_t uFlags, size_t dwBytes)');
  const GlobalFree = kernel32.func('void * __stdcall GlobalFree(void *hMem)');
  // The same function twice: locking memory to read it as a string, and to write into it.
  const GlobalLockText = kernel32.func('const char16_t * __stdcall GlobalLock(void *hMem)');
  const GlobalLock = kernel32.func('void * __stdcall GlobalLock(void *hMem)');
  const GlobalUnlock = kernel32.func('int __stdcall GlobalUnlock(void *hMem)');
  const CopyText = kernel32.func('void __stdcall RtlMoveMemory(void *dst, const char16_t *src, size_t n)');
  const PostMessageW = user32.func('int __stdcall PostMessageW(intptr_t hWnd, uint32_t Msg, uintptr_t wParam, intptr_t lParam)');
  const SendMessageTimeoutW = user32.func(
    'intptr_t __stdcall SendMessageTimeoutW(intptr_t hWnd, uint32_t Msg, uintptr_t wParam, intptr_t lParam, uint32_t fuFlags, uint32_t uTimeout, void *lpdwResult)',
  );
  const GetWindowThreadProcessId = user32.func('uint32_t __stdcall GetWindowThreadProcessId(intptr_t hWnd, void *lpdwProcessId)');
  const GetGUIThreadInfo = user32.func('int __stdcall GetGUIThreadInfo(uint32_t idThread, void *pgui)');
  const IsChild = user32.func('int __stdcall IsChild(intptr_t hWndParent, intptr_t hWnd)');
  const GetWindow = user32.func('intptr_t __stdcall GetWindow(intptr_t hWnd, uint32_t uCmd)');
  const WM_NULL = 0;
  const SMTO_ABORTIFHUNG = 0x0002;
  const GW_OWNER = 4;
  // GUITHREADINFO on 64-bit Windows: DWORD cbSize, DWORD flags, then HWND hwndActive at 8 and
  // hwndFocus at 16 (six HWNDs and a RECT: 72 bytes).
  const GUITHREADINFO_SIZE = 72;
  const CF_UNICODETEXT = 13;
  const WM_SYSCOMMAND = 0x0112;
  const SC_CLOSE = 0xf060;
  const GMEM_MOVEABLE = 0x0002;
  /** Opens the clipboard, waiting (bounded) while another program has it open. */
  const withClipboard = async <T>(work: () => T): Promise<T> => {
    const deadline = Date.now() + 2000;
    while (!OpenClipboard(null)) {
      if (Date.now() > deadline) throw new DesktopError('clipboard.busy', 'Another program kept the clipboard open for 2 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    try {
      return work();
    } finally {
      CloseClipboard();
    }
  };
  return {
    readClipboard: () =>
      withClipboard(() => {
        const handle = GetClipboardData(CF_UNICODETEXT) as unknown;
        if (!handle) return '';
        try {
          return (GlobalLockText(handle) as string | null) ?? '';
        } finally {
          GlobalUnlock(handle);
        }
      }),
    writeClipboard: (text) =>
      withClipboard(() => {
        EmptyClipboard();
        const bytes = (text.length + 1) * 2;
        const handle = GlobalAlloc(GMEM_MOVEABLE, bytes) as unknown;
        if (!handle) throw new DesktopError('clipboard.failed', `Could not allocate ${bytes} bytes for the clipboard`);
        const at = GlobalLock(handle) as unknown;
        CopyText(at, text, bytes);
        GlobalUnlock(handle);
        // The clipboard owns the memory once SetClipboardData succeeds.
        if (!SetClipboardData(CF_UNICODETEXT, handle)) {
          GlobalFree(handle);
          throw new DesktopError('clipboard.failed', 'Windows refused the clipboard text (SetClipboardData)');
        }
      }),
    sendKeyboard: (records) => {
      const buf = Buffer.alloc(records.length * INPUT_SIZE);
      records.forEach((r, i) => {
        const at = i * INPUT_SIZE;
        buf.writeUInt32LE(INPUT_KEYBOARD, at);
        buf.writeUInt16LE(r.vk, at + 8);
        buf.writeUInt16LE(r.scan, at + 10);
        buf.writeUInt32LE(r.flags, at + 12);
      });
      return SendInput(records.length, buf, INPUT_SIZE) as number;
    },
    clipboardSequence: () => GetClipboardSequenceNumber() as number,
    requestClose: (handle) => {
      if (!PostMessageW(handle, WM_SYSCOMMAND, SC_CLOSE, 0)) {
        throw new DesktopError('window.not_found', `Window \`${handle}\` did not take the close request; it may have closed`);
      }
    },
    keyFocus: async (handle, timeoutMs) => {
      const answered = await new Promise<number>((resolve, reject) =>
        (SendMessageTimeoutW as unknown as { async: (...a: unknown[]) => void }).async(
          handle,
          WM_NULL,
          0,
          0,
          SMTO_ABORTIFHUNG,
          Math.max(1, Math.round(timeoutMs)),
          null,
          (err: unknown, v: number) => (err ? reject(err as Error) : resolve(v)),
        ),
      );
      if (!answered) return undefined;
      const thread = GetWindowThreadProcessId(handle, null) as number;
      const info = Buffer.alloc(GUITHREADINFO_SIZE);
      info.writeUInt32LE(GUITHREADINFO_SIZE, 0);
      if (!thread || !GetGUIThreadInfo(thread, info)) return undefined;
      const focus = Number(info.readBigInt64LE(16));
      return focus === handle || (focus !== 0 && (IsChild(handle, focus) as number) !== 0) ? focus : undefined;
    },
    owner: (handle) => Number(GetWindow(handle, GW_OWNER)),
    layoutKey: (ch) => {
      if (ch.length !== 1) return undefined;
      const code = VkKeyScanW(ch.charCodeAt(0)) as number;
      if (code === -1) return undefined;
      const vk = code & 0xff;
      const modifiers = (code >> 8) & 0xff;
      // Only plain and shifted keys: Ctrl or Alt (AltGr) combinations could fire shortcuts.
      if (modifiers & ~1) return undefined;
      return { vk, scan: MapVirtualKeyW(vk, MAPVK_VK_TO_VSC) as number, shift: modifiers === 1 };
    },
    scanCode: (vk) => MapVirtualKeyW(vk, MAPVK_VK_TO_VSC) as number,
    waitForInputIdle: async (pid, timeoutMs) => {
      const process = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) as unknown;
      if (!process) return 'failed';
      try {
        // Asynchronous (koffi's worker thread): the host keeps answering while it waits.
        const r = await new Promise<number>((resolve, reject) =>
          (WaitForInputIdle as unknown as { async: (...a: unknown[]) => void }).async(process, timeoutMs, (err: unknown, v: number) =>
            err ? reject(err as Error) : resolve(v),
          ),
        );
        return r === 0 ? 'idle' : r === 0x102 ? 'timeout' : 'failed';
      } finally {
        CloseHandle(process);
      }
    },
  };
}

/**
 * Key-down and key-up records that type `text` exactly: Enter for newlines, Tab for tabs, each
 * character the keyboard layout has a plain or shifted key for as that key (as a person types it),
 * and every other character as Unicode (VK_PACKET). Real keys are what every program takes,
 * consoles included (Wine's console ignores Unicode packets); Unicode covers what the layout lacks.
 */
export function textRecords(text: string, layoutKey: (ch: string) => LayoutKey | undefined = () => undefined): KeyRecord[] {
  const records: KeyRecord[] = [];
  const tap = (vk: number, scan: number, flags: number) => {
    records.push({ vk, scan, flags }, { vk, scan, flags: flags | KEYEVENTF_KEYUP });
  };
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n') tap(VK_RETURN, 0, 0);
    else if (ch === '\t') tap(VK_TAB, 0, 0);
    else {
      const key = layoutKey(ch);
      if (key?.shift) {
        records.push({ vk: VK_SHIFT, scan: 0, flags: 0 });
        tap(key.vk, key.scan, 0);
        records.push({ vk: VK_SHIFT, scan: 0, flags: KEYEVENTF_KEYUP });
      } else if (key) tap(key.vk, key.scan, 0);
      // Characters beyond the BMP go as their two UTF-16 code units, which Windows pairs up.
      else for (let i = 0; i < ch.length; i++) tap(0, ch.charCodeAt(i), KEYEVENTF_UNICODE);
    }
  }
  return records;
}

/** Characters per SendInput call: small enough for the target's message queue to keep up. */
const CHUNK_CHARS = 64;

/** Virtual-key codes of the named keys, and which of them are extended keys (E0 scan codes). */
const NAMED_VK: Record<NamedKey, number> = {
  Control: 0x11,
  Shift: 0x10,
  Alt: 0x12,
  Super: 0x5b,
  Enter: 0x0d,
  Tab: 0x09,
  Escape: 0x1b,
  Backspace: 0x08,
  Delete: 0x2e,
  Insert: 0x2d,
  Space: 0x20,
  Up: 0x26,
  Down: 0x28,
  Left: 0x25,
  Right: 0x27,
  Home: 0x24,
  End: 0x23,
  PageUp: 0x21,
  PageDown: 0x22,
  F1: 0x70,
  F2: 0x71,
  F3: 0x72,
  F4: 0x73,
  F5: 0x74,
  F6: 0x75,
  F7: 0x76,
  F8: 0x77,
  F9: 0x78,
  F10: 0x79,
  F11: 0x7a,
  F12: 0x7b,
  Menu: 0x5d,
  PrintScreen: 0x2c,
  CapsLock: 0x14,
};
// Without the flag, Windows reads Home, End, the arrows... as the numeric keypad's keys, and with
// Num Lock on it lifts Shift around them (Shift+End would move without selecting).
const EXTENDED: ReadonlySet<NamedKey> = new Set<NamedKey>([
  'Insert',
  'Delete',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Up',
  'Down',
  'Left',
  'Right',
  'Super',
  'Menu',
  'PrintScreen',
]);

/**
 * Key-down records for `keys` in order, then key-up records in reverse: one shortcut as one
 * SendInput batch. Keys are named keys, letters and digits (as their keys, unshifted) and
 * punctuation the layout has an unshifted key for.
 */
export function shortcutRecords(keys: readonly KeyName[], user32: Pick<User32, 'layoutKey' | 'scanCode'>): KeyRecord[] {
  const down = keys.map((key): KeyRecord => {
    if (Object.hasOwn(NAMED_VK, key)) {
      const vk = NAMED_VK[key as NamedKey];
      return { vk, scan: user32.scanCode(vk), flags: EXTENDED.has(key as NamedKey) ? KEYEVENTF_EXTENDEDKEY : 0 };
    }
    if (/^[a-z0-9]$/i.test(key)) {
      const vk = key.toUpperCase().charCodeAt(0);
      return { vk, scan: user32.scanCode(vk), flags: 0 };
    }
    const layout = user32.layoutKey(key);
    if (!layout || layout.shift) {
      throw new DesktopError(
        'input.bad_key',
        `Expected a key name or a letter, digit or unshifted punctuation key for a shortcut, got ${describeValue(key)}`,
      );
    }
    return { vk: layout.vk, scan: layout.scan, flags: 0 };
  });
  return [...down, ...down.toReversed().map((r) => ({ ...r, flags: r.flags | KEYEVENTF_KEYUP }))];
}

/**
 * The Windows keyboard through SendInput. Text: see `textRecords` (layout keys, else Unicode).
 * Keys and shortcuts: all of a shortcut's presses and releases in one SendInput call, so nothing
 * can come between a modifier and its key (under Wine, a focus change between two calls resets
 * the modifiers it holds: Shift+End then moved without selecting, one run in forty).
 * Like SendInput itself, it returns once the keys are queued, not once the app has taken them
 * (Windows has no call that tells; Wine Notepad takes about 100 characters a second): what
 * follows a long text waits on its effect. nut.js's own text entry on Windows drops the
 * characters the layout has no key for (é, ß on a US layout) and, in libnut 2.7, `(` and `)`.
 */
export class SendInputKeyboard implements Keyboard {
  constructor(private readonly user32: User32) {}

  async typeText(text: string): Promise<void> {
    const chars = [...text];
    for (let i = 0; i < chars.length; i += CHUNK_CHARS) {
      this.send(textRecords(chars.slice(i, i + CHUNK_CHARS).join(''), (ch) => this.user32.layoutKey(ch)));
      // Let the host's event loop breathe between chunks.
      await new Promise((r) => setImmediate(r));
    }
  }

  async pressKey(key: KeyName): Promise<void> {
    // A character with no unshifted key of its own (`+`, `é`) is typed as text.
    if ([...key].length === 1 && !/^[a-z0-9]$/i.test(key)) {
      const layout = this.user32.layoutKey(key);
      if (!layout || layout.shift) return this.typeText(key);
    }
    this.send(shortcutRecords([key], this.user32));
  }

  async hotkey(keys: readonly KeyName[]): Promise<void> {
    this.send(shortcutRecords(keys, this.user32));
  }

  private send(records: KeyRecord[]): void {
    const sent = this.user32.sendKeyboard(records);
    if (sent !== records.length) {
      throw new DesktopError(
        'input.blocked',
        `Windows accepted ${sent} of ${records.length} key events (input is blocked, e.g. by a window of higher integrity or the secure desktop)`,
      );
    }
  }
}
