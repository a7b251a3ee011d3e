import type * as KoffiModule from 'koffi';
import type { KeyName } from '../../../shared/ports/desktop';
import { DesktopError } from './errors';
import type { Keyboard } from './keyboard';

/** The user32 calls SkillDesk makes itself on Windows (through koffi, an FFI with prebuilt N-API binaries). */
export interface User32 {
  /** SendInput with INPUT_KEYBOARD records; returns how many were inserted. */
  sendKeyboard(records: readonly KeyRecord[]): number;
  /** GetClipboardSequenceNumber: changes whenever the clipboard's contents change. */
  clipboardSequence(): number;
}

/** One KEYBDINPUT: a virtual key, or (unicode) a UTF-16 code unit. */
export interface KeyRecord {
  vk: number;
  scan: number;
  flags: number;
}

export const KEYEVENTF_KEYUP = 0x0002;
export const KEYEVENTF_UNICODE = 0x0004;
const VK_TAB = 0x09;
const VK_RETURN = 0x0d;

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
  return {
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
  };
}

/** Key-down and key-up records that type `text` exactly: Enter for newlines, Tab for tabs, every other character as Unicode. */
export function textRecords(text: string): KeyRecord[] {
  const records: KeyRecord[] = [];
  const tap = (vk: number, scan: number, flags: number) => {
    records.push({ vk, scan, flags }, { vk, scan, flags: flags | KEYEVENTF_KEYUP });
  };
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    if (ch === '\n') tap(VK_RETURN, 0, 0);
    else if (ch === '\t') tap(VK_TAB, 0, 0);
    // Characters beyond the BMP go as their two UTF-16 code units, which Windows pairs up.
    else for (let i = 0; i < ch.length; i++) tap(0, ch.charCodeAt(i), KEYEVENTF_UNICODE);
  }
  return records;
}

/** Characters per SendInput call: small enough for the target's message queue to keep up. */
const CHUNK_CHARS = 64;

/**
 * The Windows keyboard: text through SendInput's KEYEVENTF_UNICODE (exact for every character, on
 * any layout), keys and shortcuts through the given keyboard (nut.js). nut.js's own text entry
 * on Windows looks characters up on the keyboard layout, which drops those the layout has no key
 * for (é, ß on a US layout) and, in libnut 2.7, `(` and `)`.
 */
export class SendInputKeyboard implements Keyboard {
  constructor(
    private readonly user32: User32,
    private readonly keys: Keyboard,
  ) {}

  async typeText(text: string): Promise<void> {
    const chars = [...text];
    for (let i = 0; i < chars.length; i += CHUNK_CHARS) {
      const records = textRecords(chars.slice(i, i + CHUNK_CHARS).join(''));
      const sent = this.user32.sendKeyboard(records);
      if (sent !== records.length) {
        throw new DesktopError(
          'input.blocked',
          `Windows accepted ${sent} of ${records.length} key events (input is blocked, e.g. by a window of higher integrity or the secure desktop)`,
        );
      }
      // Let the target drain its queue between chunks.
      await new Promise((r) => setImmediate(r));
    }
  }

  pressKey(key: KeyName): Promise<void> {
    return this.keys.pressKey(key);
  }

  hotkey(keys: readonly KeyName[]): Promise<void> {
    return this.keys.hotkey(keys);
  }
}
