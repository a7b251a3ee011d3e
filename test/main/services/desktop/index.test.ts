import { describe, expect, it } from 'vitest';
import { createDesktop } from '../../../../src/main/services/desktop';

describe('src/main/services/desktop/index', () => {
  it('fails with desktop.no_display on Linux when no X display is given', async () => {
    const saved = process.env.DISPLAY;
    delete process.env.DISPLAY;
    try {
      await expect(createDesktop({ platform: 'linux' })).rejects.toMatchObject({ code: 'desktop.no_display' });
    } finally {
      if (saved !== undefined) process.env.DISPLAY = saved;
    }
  });

  it('refuses a display other than $DISPLAY, which nut.js would use instead', async () => {
    const saved = process.env.DISPLAY;
    process.env.DISPLAY = ':4242';
    try {
      await expect(createDesktop({ platform: 'linux', display: ':4243' })).rejects.toMatchObject({ code: 'desktop.display_mismatch' });
    } finally {
      if (saved === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = saved;
    }
  });

  it('fails with desktop.x11_connect when the display does not exist', async () => {
    const saved = process.env.DISPLAY;
    process.env.DISPLAY = ':4242';
    try {
      await expect(createDesktop({ platform: 'linux' })).rejects.toMatchObject({ code: 'desktop.x11_connect' });
    } finally {
      if (saved === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = saved;
    }
  });

  it('rejects platforms it cannot drive', async () => {
    await expect(createDesktop({ platform: 'aix' })).rejects.toMatchObject({ code: 'desktop.unsupported' });
  });
});
