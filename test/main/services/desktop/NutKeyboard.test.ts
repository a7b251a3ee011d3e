import { describe, expect, it } from 'vitest';
import { NutKeyboard } from '../../../../src/main/services/desktop/NutKeyboard';
import type { NutModule } from '../../../../src/main/services/desktop/nut';

/** nut.js's libnut provider: the last key is the key, the others are its modifier flags, which must be modifiers. */
function fakeNut() {
  const Key = { LeftShift: 'shift', LeftControl: 'control', LeftAlt: 'alt', End: 'end', S: 's', Enter: 'enter', Tab: 'tab' } as const;
  const modifiers = new Set(['shift', 'control', 'alt']);
  const events: string[] = [];
  const toggle =
    (event: string) =>
    async (...keys: string[]) => {
      const [key, ...mods] = [...keys].reverse();
      for (const m of mods) if (!modifiers.has(m) && m.length > 1) throw new Error('Invalid key flag specified.');
      events.push(`${event} ${key}${mods.length ? ` +${mods.join('+')}` : ''}`);
    };
  const nut = {
    Key,
    keyboard: { config: { autoDelayMs: 0 }, pressKey: toggle('down'), releaseKey: toggle('up'), type: async () => undefined },
  };
  return { nut: nut as unknown as NutModule, events };
}

describe('src/main/services/desktop/NutKeyboard', () => {
  it('releases a shortcut with the same key and modifiers it pressed (Shift+End, Control+Shift+s)', async () => {
    const { nut, events } = fakeNut();
    const kb = new NutKeyboard(nut);
    await kb.hotkey(['Shift', 'End']);
    await kb.hotkey(['Control', 'Shift', 's']);
    expect(events).toEqual(['down end +shift', 'up end +shift', 'down s +shift+control', 'up s +shift+control']);
  });
});
