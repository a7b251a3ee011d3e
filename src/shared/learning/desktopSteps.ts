import type { Point, WindowInfo } from '../ports/desktop';
import type { Target } from '../skill/conditions';
import type { Primitive } from '../skill/primitives';
import type { DemoStep } from './trajectory';

/** A key a person pressed: its SkillDesk key name (`a`, `Enter`, `F5`), the character it types, and the modifiers held. */
export interface RecordedKey {
  type: 'key';
  at: number;
  key: string;
  /** What it types without Control/Alt/Super held (Shift applied), when it types a character. */
  char?: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
  window?: WindowInfo;
}

/** A click, with what was under the pointer when the recorder could tell. */
export interface RecordedClick {
  type: 'click';
  at: number;
  point: Point;
  button: 'left' | 'right';
  double: boolean;
  window?: WindowInfo;
  /** The accessible element under the pointer (name and role), or the word OCR read there. */
  element?: { name: string; role?: string } | { text: string };
}

export type RecordedDesktopEvent = RecordedKey | RecordedClick;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A desktop demonstration's input as steps of the app it was about: typed characters become one
 * `type_text` (a Backspace takes the last one back), other keys and chords `key`/`hotkey`, clicks
 * a click on the element under the pointer (its accessible name, else the word read there, else
 * the point in the window); the app's first window is focused first, and a window of the app that
 * comes up (a dialog) is waited for before the input that goes to it. Input to other apps is left out.
 */
export function desktopSteps(events: readonly RecordedDesktopEvent[], belongs: (w: WindowInfo) => boolean): DemoStep[] {
  const steps: DemoStep[] = [];
  let typing: { text: string; at: number; window?: WindowInfo } | undefined;
  let windowId: string | undefined;
  const flush = () => {
    if (typing?.text) steps.push({ primitive: { action: 'type_text', text: typing.text }, at: typing.at, before: context(typing.window) });
    typing = undefined;
  };
  let title: string | undefined;
  for (const e of events) {
    if (!e.window || !belongs(e.window)) continue;
    // The same window under a new title (a folder opened, a document saved): the input that comes
    // next was given once it showed, so the skill waits for it too.
    if (e.window.id === windowId && e.window.title !== title) {
      flush();
      steps.push({
        primitive: { action: 'wait_until', condition: { kind: 'window_title', pattern: `^${escapeRegex(e.window.title)}$` } },
        at: e.at,
        before: context(e.window),
      });
    }
    title = e.window.title;
    if (e.window.id !== windowId) {
      flush();
      const first = windowId === undefined;
      windowId = e.window.id;
      steps.push({
        primitive: first ? { action: 'focus_window' } : { action: 'wait_for_window', title: `^${escapeRegex(e.window.title)}$` },
        at: e.at,
        before: context(e.window),
      });
    }
    if (e.type === 'key') {
      const plain = !e.ctrl && !e.alt && !e.meta;
      if (plain && e.char !== undefined) {
        typing ??= { text: '', at: e.at, window: e.window };
        typing.text += e.char;
        continue;
      }
      if (plain && e.key === 'Backspace' && typing?.text) {
        typing.text = typing.text.slice(0, -1);
        continue;
      }
      flush();
      const mods = [e.ctrl && 'Control', e.alt && 'Alt', e.shift && 'Shift', e.meta && 'Super'].filter((m): m is string => Boolean(m));
      const primitive: Primitive = mods.length
        ? { action: 'hotkey', keys: [...mods, e.key] as never }
        : { action: 'key', key: e.key as never };
      steps.push({ primitive, at: e.at, before: context(e.window) });
      continue;
    }
    flush();
    const target: Target =
      e.element && 'name' in e.element && e.element.name
        ? { kind: 'accessibility', name: e.element.name, ...(e.element.role && { role: e.element.role }) }
        : e.element && 'text' in e.element && e.element.text
          ? { kind: 'text', text: e.element.text }
          : {
              kind: 'point',
              x: Math.round(e.point.x - e.window.bounds.x),
              y: Math.round(e.point.y - e.window.bounds.y),
              relativeTo: 'window',
            };
    const action = e.button === 'right' ? 'right_click' : e.double ? 'double_click' : 'click';
    steps.push({ primitive: { action, target } as Primitive, at: e.at, before: context(e.window) });
  }
  flush();
  return steps;
}

function context(w: WindowInfo | undefined): DemoStep['before'] {
  return w ? { title: w.title } : undefined;
}
