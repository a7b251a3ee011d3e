import { describe, expect, it } from 'vitest';
import { formatWindowId, parseWindowId } from '../../../../src/main/services/desktop/X11WindowManager';
import { defaultPace, NATIVE_PACE, WINE_PACE } from '../../../../src/main/services/desktop/x11/XTestKeyboard';

describe('src/main/services/desktop/X11WindowManager', () => {
  it('formats and parses X window ids as wmctrl prints them', () => {
    expect(formatWindowId(0xc00001)).toBe('0x00c00001');
    expect(parseWindowId('0x00c00001')).toBe(0xc00001);
    expect(parseWindowId('12582913')).toBe(0xc00001);
  });

  it('rejects ids that are not X window ids', () => {
    expect(() => parseWindowId('dry:notepad:main')).toThrow('Expected an X11 window id like `0x00c00001`, got `dry:notepad:main` (string)');
    expect(() => parseWindowId('0x0')).toThrow(expect.objectContaining({ code: 'window.bad_id' }));
  });
});

describe('src/main/services/desktop/x11/XTestKeyboard', () => {
  it('types at Wine pace into Wine windows and fast elsewhere', () => {
    expect(defaultPace('notepad.exe.notepad.exe')).toBe(WINE_PACE);
    expect(defaultPace('mousepad.Mousepad')).toBe(NATIVE_PACE);
    expect(defaultPace(undefined)).toBe(NATIVE_PACE);
  });
});
