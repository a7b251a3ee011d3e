/**
 * Windows registry key names. A key is written many ways (`HKCU\Software\X`,
 * `HKEY_CURRENT_USER\Software\X\`, regedit's `Computer\HKEY_CURRENT_USER\Software\X`); the
 * canonical form spells the root out and drops the rest of the noise, so permission scopes and
 * the audit name one key one way.
 */

const ROOT_NAMES: Record<string, string> = {
  HKCR: 'HKEY_CLASSES_ROOT',
  HKEY_CLASSES_ROOT: 'HKEY_CLASSES_ROOT',
  HKCU: 'HKEY_CURRENT_USER',
  HKEY_CURRENT_USER: 'HKEY_CURRENT_USER',
  HKLM: 'HKEY_LOCAL_MACHINE',
  HKEY_LOCAL_MACHINE: 'HKEY_LOCAL_MACHINE',
  HKU: 'HKEY_USERS',
  HKEY_USERS: 'HKEY_USERS',
  HKCC: 'HKEY_CURRENT_CONFIG',
  HKEY_CURRENT_CONFIG: 'HKEY_CURRENT_CONFIG',
};

/** The key with its root spelled out (`HKEY_CURRENT_USER\Software\X`), or undefined when it does not start with a root. */
export function canonicalRegistryKey(key: string): { root: string; subKey: string; key: string } | undefined {
  const parts = key
    .trim()
    .replace(/^Computer\\/i, '')
    .split('\\')
    .filter(Boolean);
  const root = ROOT_NAMES[(parts[0] ?? '').toUpperCase()];
  if (!root) return undefined;
  const subKey = parts.slice(1).join('\\');
  return { root, subKey, key: subKey ? `${root}\\${subKey}` : root };
}

export const REGISTRY_ROOTS_HELP =
  'HKEY_CURRENT_USER (HKCU), HKEY_LOCAL_MACHINE (HKLM), HKEY_CLASSES_ROOT (HKCR), HKEY_USERS (HKU), HKEY_CURRENT_CONFIG (HKCC)';
