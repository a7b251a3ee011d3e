import { execFile } from 'node:child_process';
import type { Point } from '../../../shared/ports/desktop';

/** The deepest accessible under a screen point in the windows of `pid` (AT-SPI's get_accessible_at_point, descended). */
const SCRIPT = String.raw`
import gi, json, sys
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi
req = json.loads(sys.argv[1])
x, y, best = req['x'], req['y'], None
desk = Atspi.get_desktop(0)
for i in range(desk.get_child_count()):
    app = desk.get_child_at_index(i)
    if app is None or app.get_process_id() != req['pid']: continue
    for j in range(app.get_child_count()):
        try:
            node = app.get_child_at_index(j)
            if node is None or not node.get_state_set().contains(Atspi.StateType.SHOWING): continue
            e = node.get_extents(Atspi.CoordType.SCREEN)
            if not (e.x <= x < e.x + e.width and e.y <= y < e.y + e.height): continue
            for _ in range(60):
                comp = node.get_component_iface()
                child = comp.get_accessible_at_point(x, y, Atspi.CoordType.SCREEN) if comp else None
                if child is None or child == node: break
                node = child
            name = (node.get_name() or '').strip()
            if name: best = {'name': name, 'role': node.get_role_name()}
        except Exception:
            continue
print(json.dumps(best))
`;

/**
 * The accessible element (name and role) under a screen point in the process `pid`, as AT-SPI
 * sees it; undefined when the app publishes no tree there (Wine) or the element has no name.
 */
export function accessibleAt(
  point: Point,
  pid: number,
  o: { python?: string; timeoutMs?: number } = {},
): Promise<{ name: string; role: string } | undefined> {
  return new Promise((resolve) => {
    execFile(
      o.python ?? '/usr/bin/python3',
      ['-c', SCRIPT, JSON.stringify({ x: Math.round(point.x), y: Math.round(point.y), pid })],
      { timeout: o.timeoutMs ?? 5000, maxBuffer: 1 << 16 },
      (err, stdout) => {
        if (err) return resolve(undefined);
        try {
          resolve((JSON.parse(stdout) as { name: string; role: string } | null) ?? undefined);
        } catch {
          resolve(undefined);
        }
      },
    );
  });
}
