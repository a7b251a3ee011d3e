import { execFile } from 'node:child_process';
import type { Point, WindowInfo } from '../../../shared/ports/desktop';
import type { Grounder, GroundingContext, GroundingResult, InspectResult } from '../../../shared/ports/grounding';
import type { Target } from '../../../shared/skill';

/**
 * Accessibility grounding on Linux through AT-SPI (python3 + gir1.2-atspi-2.0): finds a showing
 * element by name (and role) in the accessibility tree of the window's process (or of every
 * app) and answers with the centre of its extents. GTK/Qt apps expose a tree; Wine apps do not,
 * so this sits before OCR in the chain and falls through at once for Wine windows.
 */

/**
 * Walks the tree in Python: GObject introspection is the supported way to read AT-SPI.
 * Two GTK 4 (4.8) habits are handled here: its widgets below the window never carry SHOWING
 * (VISIBLE is what it reports), and a button labelled by its own label is named twice ("7 7").
 * Each match carries its top-level frame, which the caller needs for GTK 4's coordinates.
 */
const SCRIPT = String.raw`
import gi, json, sys
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
req = json.loads(sys.argv[1])
def norm(s):
    s = (s or '').lower()
    return ''.join(ch for ch in s if ch.isalnum()) or ''.join(s.split())
def named(s):
    h = (s or '').split(' ')
    return ' '.join(h[:len(h) // 2]) if len(h) % 2 == 0 and h[:len(h) // 2] == h[len(h) // 2:] else s
want, role = norm(req['name']), norm(req.get('role') or '')
found, seen, apps = [], 0, []
desk = Atspi.get_desktop(0)
for i in range(desk.get_child_count()):
    app = desk.get_child_at_index(i)
    if app is None or (req.get('pid') and app.get_process_id() != req['pid']): continue
    toolkit = '%s %s' % (app.get_toolkit_name() or '?', app.get_toolkit_version() or '')
    apps.append(toolkit)
    gtk4 = toolkit.lower().startswith('gtk 4')
    state = Atspi.StateType.VISIBLE if gtk4 else Atspi.StateType.SHOWING
    stack = [(app, 0, None)]
    frames, first = 0, len(found)
    while stack and seen < req['maxNodes']:
        node, depth, frame = stack.pop()
        seen += 1
        try:
            states = node.get_state_set()
            if depth == 1:
                if not states.contains(Atspi.StateType.SHOWING): continue
                e = node.get_extents(Atspi.CoordType.SCREEN)
                frame = {'name': node.get_name(), 'x': e.x, 'y': e.y, 'width': e.width, 'height': e.height}
                frames += 1
            elif depth > 1 and not states.contains(state): continue
            if depth > 0 and want in (norm(node.get_name()), norm(named(node.get_name()))) and (not role or norm(node.get_role_name()) == role):
                e = node.get_extents(Atspi.CoordType.SCREEN)
                if e.width > 0 and e.height > 0 or req.get('inspect'):
                    found.append({'x': e.x, 'y': e.y, 'width': e.width, 'height': e.height, 'role': node.get_role_name(),
                                  'windowRelative': gtk4, 'frame': frame, 'name': named(node.get_name()),
                                  'states': [st.value_nick for st in states.get_states()]})
            n = node.get_child_count()
            for k in range(min(n, 500) - 1, -1, -1):
                c = node.get_child_at_index(k)
                if c is not None: stack.append((c, depth + 1, frame))
        except Exception:
            continue
    for m in found[first:]: m['soleFrame'] = frames == 1
print(json.dumps({'matches': found, 'visited': seen, 'apps': apps}))
`;

export interface AtspiOptions {
  /** @default '/usr/bin/python3' (the system Python, which has the GObject bindings) */
  python?: string;
  /** Give up a walk after this long: the chain moves on, a wait asks again. @default 10000 */
  timeoutMs?: number;
  /** @default 20000 */
  maxNodes?: number;
  /** Physical pixels per logical pixel. @default 1 */
  displayScale?: number;
}

/** One element the script found: its extents as the toolkit reported them, and its top-level frame's. */
export interface AtspiMatch {
  x: number;
  y: number;
  width: number;
  height: number;
  role: string;
  /** The element's accessible name (a GTK 4 name doubled by its own label, once). */
  name: string;
  /** AT-SPI state nicks: `showing`, `checked`, `selected`, `expanded`... */
  states: string[];
  /** GTK 4 reports extents relative to its top-level widget whatever coordinate type is asked for. */
  windowRelative: boolean;
  frame: { name: string; x: number; y: number; width: number; height: number } | null;
  /** The frame is the only showing top-level of its app. */
  soleFrame?: boolean;
}

interface AtspiAnswer {
  matches: AtspiMatch[];
  visited: number;
  /** Toolkit and version of each app searched. */
  apps: string[];
}

export class AtspiGrounder implements Grounder {
  constructor(private readonly o: AtspiOptions = {}) {}

  async locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult> {
    const name = target.kind === 'text' ? target.text : target.name;
    const nth = target.kind === 'text' ? (target.nth ?? 0) : 0;
    // Wine draws its controls itself and publishes no accessibility tree: spare the lookup.
    if (ctx.window?.className && /\.exe(\.|$)/i.test(ctx.window.className))
      return { found: false, source: 'accessibility', reason: `${ctx.window.processName ?? 'a Wine window'} has no AT-SPI tree (Wine)` };
    const req = {
      name,
      role: target.kind === 'accessibility' ? target.role : undefined,
      pid: ctx.window?.pid,
      maxNodes: this.o.maxNodes ?? 20_000,
    };
    let answer: AtspiAnswer;
    try {
      answer = JSON.parse(await this.run(JSON.stringify(req), ctx.signal)) as AtspiAnswer;
    } catch (err) {
      return {
        found: false,
        source: 'accessibility',
        reason: `AT-SPI unavailable: ${(err as Error).message.split('\n').filter(Boolean).pop()}`,
      };
    }
    const placed = answer.matches.flatMap((m) => {
      const at = screenPoint(m, ctx.window);
      return at ? [{ at, y: m.y, x: m.x }] : [];
    });
    // Reading order, like OCR matches.
    const hit = placed.sort((a, b) => a.y - b.y || a.x - b.x)[nth];
    if (!hit) {
      const where = req.pid ? ` of pid ${req.pid} (${answer.apps.join(', ') || 'not on the accessibility bus'})` : '';
      const unplaced = answer.matches.length - placed.length;
      return {
        found: false,
        source: 'accessibility',
        reason:
          `no showing element named "${name}"${req.role ? ` with role ${req.role}` : ''} among ${answer.visited} accessible(s)${where}` +
          (unplaced ? `; ${unplaced} match(es) in a window other than the step's could not be placed on screen` : ''),
      };
    }
    return { found: true, source: 'accessibility', confidence: 0.9, point: toScreenshotPixels(hit.at, ctx, this.o.displayScale ?? 1) };
  }

  /** Elements named `name` (and of `role`) showing in the window's process, with their states. */
  async inspect(query: { name: string; role?: string }, ctx: Omit<GroundingContext, 'screenshot'>): Promise<InspectResult> {
    if (ctx.window?.className && /\.exe(\.|$)/i.test(ctx.window.className))
      return { supported: false, reason: `${ctx.window.processName ?? 'a Wine window'} has no AT-SPI tree (Wine)` };
    const req = { name: query.name, role: query.role, pid: ctx.window?.pid, maxNodes: this.o.maxNodes ?? 20_000, inspect: true };
    let answer: AtspiAnswer;
    try {
      answer = JSON.parse(await this.run(JSON.stringify(req), ctx.signal)) as AtspiAnswer;
    } catch (err) {
      if (err instanceof WalkTimedOut) return { supported: false, reason: err.message, retry: true };
      return { supported: false, reason: `AT-SPI unavailable: ${(err as Error).message.split('\n').filter(Boolean).pop()}` };
    }
    // An app registers on the bus a moment after its window shows: a wait asks again.
    if (req.pid && answer.apps.length === 0)
      return { supported: false, reason: `pid ${req.pid} is not on the accessibility bus`, retry: true };
    return {
      supported: true,
      source: 'accessibility',
      elements: answer.matches.map((m) => ({ name: m.name, role: m.role, states: m.states })),
    };
  }

  private run(arg: string, signal?: AbortSignal): Promise<string> {
    const timeout = this.o.timeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
      execFile(
        this.o.python ?? '/usr/bin/python3',
        ['-c', SCRIPT, arg],
        { timeout, ...(signal && { signal }), maxBuffer: 1 << 20 },
        (err, stdout, stderr) => {
          if (err && err.killed && !signal?.aborted) reject(new WalkTimedOut(timeout));
          else if (err) reject(new Error(stderr || err.message));
          else resolve(stdout);
        },
      );
    });
  }
}

/** The tree walk ran out of time (a busy machine, a large tree): worth asking again. */
class WalkTimedOut extends Error {
  constructor(ms: number) {
    super(`reading the accessibility tree took longer than ${ms} ms`);
  }
}

/**
 * The centre of a match on the screen. Window-relative extents (GTK 4) are placed in the step's
 * window, and only when the match lies in it (its frame is titled like the window, or is the only
 * showing frame of the window's process: GTK 4.8 names GNOME Clocks' frame "ClocksWindow" while
 * its window is titled "Clocks"): the X window
 * of a client-decorated GTK 4 app includes its shadow or resize margins around the top-level
 * widget, taken to be equal on opposite sides. Undefined when the match cannot be placed.
 */
export function screenPoint(m: AtspiMatch, window: WindowInfo | undefined): Point | undefined {
  const centre = { x: m.x + m.width / 2, y: m.y + m.height / 2 };
  if (!m.windowRelative) return centre;
  if (!window || !m.frame || (m.frame.name !== window.title && !(m.soleFrame && window.pid !== undefined))) return undefined;
  const margin = (outer: number, inner: number) => Math.max(0, Math.floor((outer - inner) / 2));
  return {
    x: window.bounds.x + margin(window.bounds.width, m.frame.width) + centre.x,
    y: window.bounds.y + margin(window.bounds.height, m.frame.height) + centre.y,
  };
}

/** Screen coordinates to the screenshot's pixels: a window capture starts at the window. */
function toScreenshotPixels(p: Point, ctx: GroundingContext, scale: number): Point {
  let { x, y } = p;
  const w = ctx.window?.bounds;
  if (w && Math.abs(ctx.screenshot.width - w.width * scale) <= 2 && Math.abs(ctx.screenshot.height - w.height * scale) <= 2) {
    x -= w.x;
    y -= w.y;
  }
  return { x: Math.round(x), y: Math.round(y) };
}
