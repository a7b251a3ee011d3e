import { describe, expect, it } from 'vitest';
import { defaultDataDir, storeFile } from '../../../../src/main/services/store';

describe('src/main/services/store/paths', () => {
  it('uses %APPDATA%\\SkillDesk on Windows', () => {
    expect(defaultDataDir({ platform: 'win32', env: { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, home: 'C:\\Users\\a' })).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\SkillDesk',
    );
    expect(defaultDataDir({ platform: 'win32', env: {}, home: 'C:\\Users\\a' })).toBe('C:\\Users\\a\\AppData\\Roaming\\SkillDesk');
  });

  it('uses ~/Library/Application Support/SkillDesk on macOS', () => {
    expect(defaultDataDir({ platform: 'darwin', env: {}, home: '/Users/a' })).toBe('/Users/a/Library/Application Support/SkillDesk');
  });

  it('uses $XDG_DATA_HOME/skilldesk on Linux, else ~/.local/share/skilldesk', () => {
    expect(defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME: '/data/xdg' }, home: '/home/a' })).toBe('/data/xdg/skilldesk');
    expect(defaultDataDir({ platform: 'linux', env: {}, home: '/home/a' })).toBe('/home/a/.local/share/skilldesk');
  });

  it('ignores a relative XDG_DATA_HOME, as the XDG spec requires', () => {
    expect(defaultDataDir({ platform: 'linux', env: { XDG_DATA_HOME: 'relative/dir' }, home: '/home/a' })).toBe(
      '/home/a/.local/share/skilldesk',
    );
  });

  it('lets SKILLDESK_DATA_DIR override every platform', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(
        defaultDataDir({
          platform,
          env: { SKILLDESK_DATA_DIR: '/srv/skilldesk', APPDATA: 'C:\\x', XDG_DATA_HOME: '/xdg' },
          home: '/home/a',
        }),
      ).toMatch(/[\\/]srv[\\/]skilldesk$/);
    }
  });

  it('puts the store file inside the data dir', () => {
    expect(storeFile('/home/a/.local/share/skilldesk')).toBe('/home/a/.local/share/skilldesk/skilldesk.db');
  });
});
