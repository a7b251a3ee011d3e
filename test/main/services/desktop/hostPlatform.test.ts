import { describe, expect, it } from 'vitest';
import { desktopAvailability, hostPlatform } from '../../../../src/main/services/desktop';

describe('src/main/services/desktop/hostPlatform', () => {
  it('maps Windows and macOS by name and every other Unix to linux', () => {
    expect(hostPlatform('win32')).toBe('win32');
    expect(hostPlatform('darwin')).toBe('darwin');
    expect(hostPlatform('linux')).toBe('linux');
    expect(hostPlatform('freebsd')).toBe('linux');
  });

  it('reports a Linux desktop available only with an X display', () => {
    expect(desktopAvailability('linux', {})).toBe('unavailable');
    expect(desktopAvailability('linux', { DISPLAY: ':99' })).toBe('available');
    expect(desktopAvailability('win32', {})).toBe('available');
  });
});
