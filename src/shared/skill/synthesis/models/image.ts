import type { SymbolicWorld } from '../world';
import type { MethodModel } from './types';

/** A picture as a task leaves it: open or not, its size when known, its file. */
interface Picture extends Record<string, unknown> {
  open: boolean;
  size?: string;
  path?: string;
}

const picture = (w: SymbolicWorld, app: string) => w.model<Picture>(`${app}@picture`, () => ({ open: false }));

/** The size (`WxH`) the world knows of the image at `path`. */
const sizeOf = (w: SymbolicWorld, path: string) => w.valueOf({ fact: 'image_size', path })?.toString();

/** Saved: the file is there, and its size is known when the picture's is. */
function saved(w: SymbolicWorld, p: Picture, path: string): void {
  p.path = path;
  w.apply({ fact: 'file_exists', holds: true, path });
  w.apply({ fact: 'file_content', holds: true, path });
  w.apply({ fact: 'image_size', holds: p.size !== undefined, path, ...(p.size && { value: p.size }) });
}

/** Image editors (Document and ImageEditor methods): the picture's size, read back from the saved file. */
export const IMAGE_MODELS: Record<string, MethodModel> = {
  'Document.new_document': { apply: (w, ctx) => void Object.assign(picture(w, ctx.app), { open: true, size: undefined, path: undefined }) },
  'Document.open_file': {
    apply: (w, ctx, a) => void Object.assign(picture(w, ctx.app), { open: true, size: sizeOf(w, String(a.path)), path: String(a.path) }),
  },
  'Document.save_as': { apply: (w, ctx, a) => saved(w, picture(w, ctx.app), String(a.path)) },
  'Document.save': {
    blocked: (w, ctx) => (picture(w, ctx.app).path ? undefined : 'the picture has no file yet'),
    apply: (w, ctx) => saved(w, picture(w, ctx.app), picture(w, ctx.app).path!),
  },
  'Document.close_document': {
    // As in the sheet model: the changes discarded, said so (a cancelled close keeps the picture open).
    bind: () => ({ unsaved: 'discard' }),
    apply: (w, ctx, a) => {
      if (a.unsaved !== 'cancel') Object.assign(picture(w, ctx.app), { open: false, size: undefined, path: undefined });
    },
  },
  'ImageEditor.resize_canvas': {
    blocked: (w, ctx) => (picture(w, ctx.app).open ? undefined : 'no picture is open'),
    bind: (_w, _ctx, pick) => ({ width: pick([8, 12, 20, 32, 48, 64]), height: pick([6, 10, 16, 24, 40]) }),
    apply: (w, ctx, a) => void (picture(w, ctx.app).size = `${String(a.width)}x${String(a.height)}`),
  },
};
