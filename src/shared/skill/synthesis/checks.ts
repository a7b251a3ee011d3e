import { z } from 'zod';
import type { SymbolicWorld } from './world';

/**
 * One programmatic check of a synthesized task, composed from its steps' postconditions and
 * models: what is on disk, on the clipboard, in a window title, in the registry, or what a step
 * returned. Never a model's judgement.
 */
export const TaskCheckSchema = z.discriminatedUnion('kind', [
  /** A file is (or is not) at `path`. */
  z.strictObject({ kind: z.literal('file'), path: z.string(), present: z.boolean() }),
  /** A folder is (or is not) at `path`. */
  z.strictObject({ kind: z.literal('folder'), path: z.string(), present: z.boolean() }),
  /** The file holds exactly `equals` (line endings aside: a Windows program writes CRLF). */
  z.strictObject({ kind: z.literal('file_text'), path: z.string(), equals: z.string() }),
  /** The clipboard holds `equals` (line endings aside). */
  z.strictObject({ kind: z.literal('clipboard'), equals: z.string() }),
  /** A window of `app` has a title containing `contains`. */
  z.strictObject({ kind: z.literal('window_title'), app: z.string(), contains: z.string() }),
  /** The image at `path` (PNG, BMP, XPM or PPM) is `width` x `height` pixels. */
  z.strictObject({ kind: z.literal('image_size'), path: z.string(), width: z.number().int(), height: z.number().int() }),
  /** A registry value holds `equals`. */
  z.strictObject({ kind: z.literal('registry'), key: z.string(), name: z.string(), equals: z.string() }),
  /** Step `step` (0-based) returned `equals` (numbers within a relative 1e-9). */
  z.strictObject({ kind: z.literal('result'), step: z.number().int().min(0), equals: z.union([z.string(), z.number(), z.boolean()]) }),
]);
export type TaskCheck = z.infer<typeof TaskCheckSchema>;

/**
 * The checks a task's end state allows: for every fact a step set (`touched`, in order), what the
 * world can be asked about it; plus what steps returned, where the model knows it.
 */
export function composeChecks(world: SymbolicWorld, touched: readonly string[], results: ReadonlyMap<number, unknown>): TaskCheck[] {
  const out: TaskCheck[] = [];
  for (const id of touched) {
    const f = world.facts.get(id);
    if (!f) continue;
    const path = f.path === undefined ? undefined : String(f.path);
    switch (f.fact) {
      case 'file_exists':
        out.push({ kind: 'file', path: path!, present: f.holds });
        break;
      case 'folder_exists':
        out.push({ kind: 'folder', path: path!, present: f.holds });
        break;
      case 'file_content':
        if (f.holds && f.value !== undefined) out.push({ kind: 'file_text', path: path!, equals: String(f.value) });
        break;
      case 'clipboard_holds':
        if (f.holds && f.value !== undefined) out.push({ kind: 'clipboard', equals: String(f.value) });
        break;
      case 'window_title':
        if (f.holds && f.app && f.value !== undefined) out.push({ kind: 'window_title', app: f.app, contains: String(f.value) });
        break;
      case 'image_size': {
        const m = f.holds ? /^(\d+)x(\d+)$/.exec(String(f.value ?? '')) : null;
        if (m) out.push({ kind: 'image_size', path: path!, width: Number(m[1]), height: Number(m[2]) });
        break;
      }
      case 'registry_value':
        if (f.holds && f.value !== undefined)
          out.push({ kind: 'registry', key: String(f.key), name: String(f.name), equals: String(f.value) });
        break;
      default:
        break; // app states a task cannot read from outside (a selection, a modified flag)
    }
  }
  for (const [step, value] of results) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      out.push({ kind: 'result', step, equals: value });
  }
  return out;
}
