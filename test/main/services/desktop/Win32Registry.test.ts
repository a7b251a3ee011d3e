import { describe, expect, it } from 'vitest';
import { decodeValue, splitKey } from '../../../../src/main/services/desktop/Win32Registry';
import { canonicalRegistryKey } from '../../../../src/shared/registryKeys';

const utf16 = (s: string) => Buffer.from(s, 'utf16le');

describe('src/main/services/desktop/Win32Registry', () => {
  it('names one key one way: roots spelled out, regedit address prefix and stray separators dropped', () => {
    expect(canonicalRegistryKey('HKCU\\Software\\X')).toEqual({
      root: 'HKEY_CURRENT_USER',
      subKey: 'Software\\X',
      key: 'HKEY_CURRENT_USER\\Software\\X',
    });
    expect(canonicalRegistryKey('Computer\\HKEY_LOCAL_MACHINE\\SOFTWARE\\Y\\')?.key).toBe('HKEY_LOCAL_MACHINE\\SOFTWARE\\Y');
    expect(canonicalRegistryKey('hklm')?.key).toBe('HKEY_LOCAL_MACHINE');
    expect(canonicalRegistryKey('C:\\Windows')).toBeUndefined();
    expect(canonicalRegistryKey('registry')).toBeUndefined();
    expect(splitKey('HKCU\\Software\\X')).toEqual({ root: 0x80000001 | 0, subKey: 'Software\\X' });
    expect(() => splitKey('Software\\X')).toThrow(/does not start with a registry root \(HKEY_CURRENT_USER \(HKCU\)/);
  });

  it('decodes each value type to text: strings as stored, numbers in decimal, lists by line, bytes as hex', () => {
    expect(decodeValue(1, utf16('héllo ✓\0'))).toEqual({ type: 'REG_SZ', data: 'héllo ✓' });
    expect(decodeValue(2, utf16('%SystemRoot%\\x\0'))).toEqual({ type: 'REG_EXPAND_SZ', data: '%SystemRoot%\\x' });
    expect(decodeValue(7, utf16('a\0b c\0\0'))).toEqual({ type: 'REG_MULTI_SZ', data: 'a\nb c' });
    expect(decodeValue(4, Buffer.from([0x2a, 0, 0, 0]))).toEqual({ type: 'REG_DWORD', data: '42' });
    expect(decodeValue(4, Buffer.from([0xff, 0xff, 0xff, 0xff]))).toEqual({ type: 'REG_DWORD', data: '4294967295' });
    expect(decodeValue(11, Buffer.from([1, 0, 0, 0, 1, 0, 0, 0]))).toEqual({ type: 'REG_QWORD', data: '4294967297' });
    expect(decodeValue(3, Buffer.from([0xde, 0xad, 0x01]))).toEqual({ type: 'REG_BINARY', data: 'dead01' });
  });
});
