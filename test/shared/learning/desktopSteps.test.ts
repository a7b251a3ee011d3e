import { describe, expect, it } from 'vitest';
import { desktopSteps, type RecordedDesktopEvent } from '../../../src/shared/learning/desktopSteps';
import { generalize } from '../../../src/shared/learning/generalize';
import type { WindowInfo } from '../../../src/shared/ports/desktop';

const win = (id: string, title: string, className = 'pcmanfm.Pcmanfm'): WindowInfo => ({
  id,
  title,
  className,
  bounds: { x: 100, y: 50, width: 640, height: 480 },
});
const key = (
  at: number,
  window: WindowInfo,
  k: string,
  o: { char?: string; ctrl?: boolean; shift?: boolean } = {},
): RecordedDesktopEvent => ({
  type: 'key',
  at,
  key: k,
  ...(o.char !== undefined && { char: o.char }),
  ctrl: o.ctrl ?? false,
  alt: false,
  shift: o.shift ?? false,
  meta: false,
  window,
});
const typed = (at: number, window: WindowInfo, text: string) => [...text].map((c, i) => key(at + i, window, c, { char: c }));

describe('src/shared/learning/desktopSteps', () => {
  it("makes steps of a person's keys and clicks in one app: typing, corrections, chords, dialogs and titles waited for", () => {
    const main = win('0x1', 'a');
    const moved = { ...main, title: 'budget' };
    const dialog = win('0x2', 'Creating New Folder');
    const events: RecordedDesktopEvent[] = [
      key(0, main, 'l', { char: 'l', ctrl: true }),
      ...typed(10, main, '/tmp/w/budgetx'),
      key(30, main, 'Backspace'),
      key(40, main, 'Enter'),
      key(50, win('0x9', 'Other app', 'xterm.XTerm'), 'x', { char: 'x' }),
      key(60, moved, 'n', { char: 'N', ctrl: true, shift: true }),
      ...typed(70, dialog, 'made'),
      key(90, dialog, 'Enter'),
      {
        type: 'click',
        at: 100,
        point: { x: 130, y: 90 },
        button: 'left',
        double: false,
        window: moved,
        element: { name: 'made', role: 'icon' },
      },
      { type: 'click', at: 110, point: { x: 150, y: 80 }, button: 'right', double: false, window: moved },
    ];
    const steps = desktopSteps(events, (w) => w.className === 'pcmanfm.Pcmanfm');
    expect(steps.map((s) => s.primitive)).toEqual([
      { action: 'focus_window' },
      { action: 'hotkey', keys: ['Control', 'l'] },
      { action: 'type_text', text: '/tmp/w/budget' },
      { action: 'key', key: 'Enter' },
      { action: 'wait_until', condition: { kind: 'window_title', pattern: '^budget$' } },
      { action: 'hotkey', keys: ['Control', 'Shift', 'n'] },
      { action: 'wait_for_window', title: '^Creating New Folder$' },
      { action: 'type_text', text: 'made' },
      { action: 'key', key: 'Enter' },
      { action: 'wait_for_window', title: '^budget$' },
      { action: 'click', target: { kind: 'accessibility', name: 'made', role: 'icon' } },
      { action: 'right_click', target: { kind: 'point', x: 50, y: 30, relativeTo: 'window' } },
    ]);
    // A folder's path typed whole, its name in the dialog, its parent's name in the title: each its slot.
    const g = generalize({
      kind: 'trajectory',
      app: 'pcmanfm',
      source: 'desktop',
      args: { path: '/tmp/w/budget/made' },
      steps,
      recordedAt: 0,
    });
    expect(g.unused).toEqual([]);
    expect(g.steps.slice(1, 8)).toEqual([
      { action: 'hotkey', keys: ['Control', 'l'] },
      { action: 'type_text', text: '${path|dirname}' },
      { action: 'key', key: 'Enter' },
      { action: 'wait_until', condition: { kind: 'window_title', pattern: '^${path|dirname|basename|regex_escape}$' } },
      { action: 'hotkey', keys: ['Control', 'Shift', 'n'] },
      { action: 'wait_for_window', title: '^Creating New Folder$' },
      { action: 'type_text', text: '${path|basename}' },
    ]);
  });
});
