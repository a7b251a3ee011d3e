import { execFile } from 'node:child_process';
import type { Grounder, GroundingContext, GroundingResult } from '../../../shared/ports/grounding';
import type { Target } from '../../../shared/skill';

/**
 * Accessibility grounding on Linux through AT-SPI (python3 + gir1.2-atspi-2.0): finds a showing
 * element by name (and role) in the accessibility tree of the window's process (or of every
 * app) and answers with the centre of its extents. GTK/Qt apps expose a tree; Wine apps do not,
 * so this sits before OCR in the chain and falls through quickly.
 */

/** Walks the tree in Python: GObject introspection is the supported way to read AT-SPI. */
const SCRIPT = String.raw`
import gi, json, sys
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
req = json.loads(sys.argv[1])
def norm(s): return ''.join(ch for ch in (s or '').lower() if ch.isalnum())
want, role = norm(req['name']), norm(req.get('role') or '')
found, seen = [], 0
desk = Atspi.get_desktop(0)
for i in range(desk.get_child_count()):
    app = desk.get_child_at_index(i)
    if app is None or (req.get('pid') and app.get_process_id() != req['pid']): continue
    stack = [(app, 0)]
    while stack and seen < req['maxNodes']:
        node, depth = stack.pop()
        seen += 1
        try:
            states = node.get_state_set()
            if depth > 0 and not states.contains(Atspi.StateType.SHOWING): continue
            if norm(node.get_name()) == want and (not role or norm(node.get_role_name()) == role):
                e = node.get_extents(Atspi.CoordType.SCREEN)
                if e.width > 0 and e.height > 0:
                    found.append({'x': e.x, 'y': e.y, 'width': e.width, 'height': e.height, 'role': node.get_role_name()})
            n = node.get_child_count()
            for k in range(min(n, 500) - 1, -1, -1):
                c = node.get_child_at_index(k)
                if c is not None: stack.append((c, depth + 1))
        except Exception:
            continue
print(json.dumps({'matches': found, 'visited': seen}))
`;

export interface AtspiOptions {
  /** @default '/usr/bin/python3' (the system Python, which has the GObject bindings) */
  python?: string;
  /** Give up after this long; the chain moves on. @default 5000 */
  timeoutMs?: number;
  /** @default 20000 */
  maxNodes?: number;
  /** Physical pixels per logical pixel. @default 1 */
  displayScale?: number;
}

interface AtspiAnswer {
  matches: { x: number; y: number; width: number; height: number; role: string }[];
  visited: number;
}

export class AtspiGrounder implements Grounder {
  constructor(private readonly o: AtspiOptions = {}) {}

  async locate(target: Exclude<Target, { kind: 'point' }>, ctx: GroundingContext): Promise<GroundingResult> {
    const name = target.kind === 'text' ? target.text : target.name;
    const nth = target.kind === 'text' ? (target.nth ?? 0) : 0;
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
    // Reading order, like OCR matches.
    const m = answer.matches.sort((a, b) => a.y - b.y || a.x - b.x)[nth];
    if (!m)
      return {
        found: false,
        source: 'accessibility',
        reason: `no showing element named "${name}"${req.role ? ` with role ${req.role}` : ''} among ${answer.visited} accessible(s)${req.pid ? ` of pid ${req.pid}` : ''}`,
      };
    const s = this.o.displayScale ?? 1;
    let x = m.x + m.width / 2,
      y = m.y + m.height / 2;
    // Extents are screen coordinates; the executor wants screenshot pixels, and a window capture starts at the window.
    const w = ctx.window?.bounds;
    if (w && Math.abs(ctx.screenshot.width - w.width * s) <= 2 && Math.abs(ctx.screenshot.height - w.height * s) <= 2) {
      x -= w.x;
      y -= w.y;
    }
    return { found: true, source: 'accessibility', confidence: 0.9, point: { x: Math.round(x), y: Math.round(y) } };
  }

  private run(arg: string, signal?: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        this.o.python ?? '/usr/bin/python3',
        ['-c', SCRIPT, arg],
        { timeout: this.o.timeoutMs ?? 5000, ...(signal && { signal }), maxBuffer: 1 << 20 },
        (err, stdout, stderr) => {
          if (err) reject(new Error(stderr || err.message));
          else resolve(stdout);
        },
      );
    });
  }
}
