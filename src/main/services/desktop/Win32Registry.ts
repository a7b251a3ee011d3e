import type * as KoffiModule from 'koffi';
import type { RegistryProbe, RegistryValue } from '../../../shared/ports/desktop';
import { canonicalRegistryKey, REGISTRY_ROOTS_HELP } from '../../../shared/registryKeys';
import { DesktopError } from './errors';

type Koffi = typeof KoffiModule;

/** The predefined root keys, as the (sign-extended) handle values Windows gives them. */
const ROOTS: Record<string, number> = {
  HKEY_CLASSES_ROOT: 0x80000000 | 0,
  HKEY_CURRENT_USER: 0x80000001 | 0,
  HKEY_LOCAL_MACHINE: 0x80000002 | 0,
  HKEY_USERS: 0x80000003 | 0,
  HKEY_CURRENT_CONFIG: 0x80000005 | 0,
};

const REG_TYPES: Record<number, RegistryValue['type']> = {
  0: 'REG_NONE',
  1: 'REG_SZ',
  2: 'REG_EXPAND_SZ',
  3: 'REG_BINARY',
  4: 'REG_DWORD',
  5: 'REG_DWORD_BIG_ENDIAN',
  7: 'REG_MULTI_SZ',
  11: 'REG_QWORD',
};

const ERROR_SUCCESS = 0;
const ERROR_FILE_NOT_FOUND = 2;
const ERROR_MORE_DATA = 234;
/** RRF_RT_ANY | RRF_NOEXPAND: any type, %VARS% left as stored. */
const FLAGS = 0x0000ffff | 0x10000000;

/** Splits `HKCU\\Software\\X` (or regedit's `Computer\\HKEY_CURRENT_USER\\...`) into its root's handle and its subkey. */
export function splitKey(key: string): { root: number; subKey: string } {
  const k = canonicalRegistryKey(key);
  if (!k) throw new DesktopError('registry.bad_key', `\`${key}\` does not start with a registry root (${REGISTRY_ROOTS_HELP})`);
  return { root: ROOTS[k.root]!, subKey: k.subKey };
}

/**
 * A value's data as text: strings as stored (without their terminator), numbers in decimal,
 * multi-strings one per line, binary data as lower-case hex.
 */
export function decodeValue(type: number, data: Buffer): RegistryValue {
  const name = REG_TYPES[type] ?? `REG_TYPE_${type}`;
  const text = (b: Buffer) => b.toString('utf16le');
  switch (type) {
    case 1:
    case 2:
      return { type: name, data: text(data).replace(/\0+$/, '') };
    case 7:
      return { type: name, data: text(data).split('\0').filter(Boolean).join('\n') };
    case 4:
      return { type: name, data: data.length >= 4 ? String(data.readUInt32LE(0)) : '' };
    case 5:
      return { type: name, data: data.length >= 4 ? String(data.readUInt32BE(0)) : '' };
    case 11:
      return { type: name, data: data.length >= 8 ? data.readBigUInt64LE(0).toString() : '' };
    default:
      return { type: name, data: data.toString('hex') };
  }
}

/** Reads registry values with advapi32's RegGetValueW (through koffi): exact Unicode, no process started. */
export async function loadWin32Registry(): Promise<RegistryProbe> {
  let koffi: Koffi;
  try {
    const mod = (await import('koffi')) as Partial<Koffi> & { default?: Koffi };
    koffi = (mod.load ? mod : mod.default) as Koffi;
  } catch (err) {
    throw new DesktopError('desktop.no_ffi', `Reading the registry needs koffi's Windows binary: ${(err as Error).message}`);
  }
  const advapi32 = koffi.load('advapi32.dll');
  const RegGetValueW = advapi32.func(
    'int32_t __stdcall RegGetValueW(intptr_t hkey, const char16_t *lpSubKey, const char16_t *lpValue, uint32_t dwFlags, _Out_ uint32_t *pdwType, void *pvData, _Inout_ uint32_t *pcbData)',
  );
  return {
    async readValue(key: string, name: string): Promise<RegistryValue | undefined> {
      const { root, subKey } = splitKey(key);
      // The value can grow between the size query and the read: ask again while it says "more data".
      for (let size = 256, attempt = 0; attempt < 4; attempt++) {
        const type = [0];
        const cb = [size];
        const buf = Buffer.alloc(size);
        const status = RegGetValueW(root, subKey || null, name || null, FLAGS, type, buf, cb) as number;
        if (status === ERROR_FILE_NOT_FOUND) return undefined;
        if (status === ERROR_MORE_DATA) {
          size = Math.max(cb[0]!, size * 2);
          continue;
        }
        if (status !== ERROR_SUCCESS)
          throw new DesktopError('registry.read_failed', `Could not read \`${name || '(Default)'}\` of \`${key}\`: error ${status}`);
        return decodeValue(type[0]!, buf.subarray(0, cb[0]!));
      }
      throw new DesktopError('registry.read_failed', `\`${name || '(Default)'}\` of \`${key}\` kept growing while it was read`);
    },
  };
}
