import type { ArgValues } from '../../domains';
import type { ConcreteFact, SymbolicWorld } from '../world';
import { ARCHIVE_MEMBERS, ARCHIVE_TEXTS, knownArchive, taskDir } from '../fixtures';
import { setClipboard, type MethodModel, type Pick } from './types';

const dirname = (p: string) => p.replace(/\/[^/]*$/, '') || '/';
const basename = (p: string) => p.split('/').pop() ?? p;
const lines = (v: unknown) =>
  String(v ?? '')
    .split('\n')
    .filter(Boolean);

/** A file or a folder at `path`, as the world knows it. */
function kindOf(w: SymbolicWorld, path: string): 'file' | 'folder' | undefined {
  if (w.holds({ fact: 'folder_exists', holds: true, path })) return 'folder';
  if (w.holds({ fact: 'file_exists', holds: true, path })) return 'file';
  return undefined;
}

/** The file and folder facts at `path` and under it. */
function tree(w: SymbolicWorld, path: string): ConcreteFact[] {
  return [...w.facts.values()].filter(
    (f) =>
      f.holds &&
      (f.fact === 'file_exists' || f.fact === 'folder_exists' || f.fact === 'file_content') &&
      (f.path === path || String(f.path).startsWith(`${path}/`)),
  );
}

/** Copies (or moves) the item at `from` to `to`, with everything under it and what the files hold. */
function transfer(w: SymbolicWorld, from: string, to: string, move: boolean): void {
  const facts = tree(w, from);
  if (move) for (const f of facts) if (f.fact !== 'file_content') remove(w, String(f.path), f.fact === 'folder_exists' ? 'folder' : 'file');
  for (const f of facts) w.apply({ ...f, path: to + String(f.path).slice(from.length) });
}

function remove(w: SymbolicWorld, path: string, kind: 'file' | 'folder'): void {
  w.apply({ fact: kind === 'folder' ? 'folder_exists' : 'file_exists', holds: false, path });
}

/** Items a task made or was given, in its own folder (never the folder itself). */
function items(w: SymbolicWorld): string[] {
  const dir = taskDir(w);
  return [...w.facts.values()]
    .filter((f) => f.holds && (f.fact === 'file_exists' || f.fact === 'folder_exists') && String(f.path).startsWith(`${dir}/`))
    .map((f) => String(f.path))
    .sort();
}

/** Folders to paste into: existing, not inside any of the items, holding none of their names. */
function destinations(w: SymbolicWorld, sources: readonly string[]): string[] {
  return [...w.facts.values()]
    .filter((f) => f.holds && f.fact === 'folder_exists')
    .map((f) => String(f.path))
    .filter((d) => sources.every((s) => d !== s && !d.startsWith(`${s}/`) && dirname(s) !== d && !kindOf(w, `${d}/${basename(s)}`)))
    .sort();
}

/** What the file manager's clipboard holds (a copy or a cut of items), world-wide. */
const fmClipboard = (w: SymbolicWorld) => w.model<{ op?: 'copy' | 'cut'; items?: string[] }>('@fm-clipboard', () => ({}));

const pasteBlocked = (w: SymbolicWorld, a: ArgValues): string | undefined => {
  const clip = fmClipboard(w);
  if (!clip.items?.length) return 'no items were copied or cut';
  if (a.destination === undefined) return 'the current folder is not known';
  if (!destinations(w, clip.items).includes(String(a.destination))) return 'the items cannot be pasted there';
  return clip.items.some((p) => !kindOf(w, p)) ? 'an item is gone' : undefined;
};

/** One or two items (one per line, as `items` takes them). */
const someItems = (w: SymbolicWorld, pick: Pick): string[] | undefined => {
  const all = items(w);
  if (!all.length) return undefined;
  const first = pick(all);
  const other = all.filter((p) => p !== first && !p.startsWith(`${first}/`) && !first.startsWith(`${p}/`));
  return other.length && pick([1, 2]) === 2 ? [first, pick(other)].sort() : [first];
};

/** FileManager and Archiver: files and folders in the task's folder, moved, copied, renamed, deleted, extracted. */
export const FILE_MODELS: Record<string, MethodModel> = {
  'FileManager.create_folder': {
    blocked: (w, _ctx, a) =>
      kindOf(w, String(a.path))
        ? 'something is there already'
        : kindOf(w, dirname(String(a.path))) !== 'folder'
          ? 'its parent is not known'
          : undefined,
    apply: (w, _ctx, a) => void w.apply({ fact: 'folder_exists', holds: true, path: String(a.path) }),
  },
  'FileManager.copy': {
    bind: (w, _ctx, pick) => {
      const chosen = someItems(w, pick);
      return chosen && { items: chosen.join('\n') };
    },
    apply: (w, _ctx, a) => {
      Object.assign(fmClipboard(w), { op: 'copy', items: lines(a.items) });
      setClipboard(w, undefined);
    },
  },
  'FileManager.cut': {
    bind: (w, _ctx, pick) => {
      const chosen = someItems(w, pick);
      return chosen && { items: chosen.join('\n') };
    },
    apply: (w, _ctx, a) => {
      Object.assign(fmClipboard(w), { op: 'cut', items: lines(a.items) });
      setClipboard(w, undefined);
    },
  },
  'FileManager.paste': {
    bind: (w, _ctx, pick) => {
      const options = destinations(w, fmClipboard(w).items ?? []);
      return options.length ? { destination: pick(options) } : undefined;
    },
    blocked: (w, _ctx, a) => pasteBlocked(w, a),
    apply: (w, _ctx, a) => {
      const clip = fmClipboard(w);
      for (const p of clip.items!) transfer(w, p, `${String(a.destination)}/${basename(p)}`, clip.op === 'cut');
      if (clip.op === 'cut') Object.assign(clip, { op: undefined, items: undefined });
    },
  },
  'FileManager.rename_item': {
    bind: (w, _ctx, pick) => {
      const all = items(w);
      if (!all.length) return undefined;
      const path = pick(all);
      const dot = basename(path).lastIndexOf('.');
      const ext = kindOf(w, path) === 'file' && dot > 0 ? basename(path).slice(dot) : '';
      return { path, new_name: `${pick(['renamed', 'final', 'old', 'backup', 'v2'])}-${all.length}${ext}` };
    },
    blocked: (w, _ctx, a) => (kindOf(w, `${dirname(String(a.path))}/${String(a.new_name)}`) ? 'the new name is taken' : undefined),
    apply: (w, _ctx, a) => transfer(w, String(a.path), `${dirname(String(a.path))}/${String(a.new_name)}`, true),
  },
  'FileManager.delete_items': {
    bind: (w, _ctx, pick) => {
      const chosen = someItems(w, pick);
      // For good: whether an app has a trash depends on the desktop (Thunar has none without GVfs).
      return chosen && { items: chosen.join('\n'), permanent: true };
    },
    blocked: (w, _ctx, a) => (lines(a.items).every((p) => kindOf(w, p)) ? undefined : 'an item is not there'),
    apply: (w, _ctx, a) => {
      for (const p of lines(a.items))
        for (const f of tree(w, p))
          if (f.fact !== 'file_content') remove(w, String(f.path), f.fact === 'folder_exists' ? 'folder' : 'file');
    },
  },
  'FileManager.copy_items': {
    bind: (w, _ctx, pick) => {
      const chosen = someItems(w, pick);
      const options = chosen && destinations(w, chosen);
      return chosen && options?.length ? { sources: chosen.join('\n'), destination: pick(options) } : undefined;
    },
  },
  'FileManager.move_items': {
    bind: (w, _ctx, pick) => {
      const chosen = someItems(w, pick);
      const options = chosen && destinations(w, chosen);
      return chosen && options?.length ? { sources: chosen.join('\n'), destination: pick(options) } : undefined;
    },
  },
  'Archiver.extract': {
    blocked: (w, _ctx, a) => (knownArchive(w, String(a.archive)) ? undefined : 'the archive members are not known'),
    apply: (w, _ctx, a) => {
      const archive = String(a.archive);
      const into =
        a.destination !== undefined
          ? String(a.destination)
          : `${dirname(archive)}/${basename(archive).replace(/(\.tar)?\.(zip|gz|tgz|7z|rar|tar)$/i, '')}`;
      w.apply({ fact: 'folder_exists', holds: true, path: into });
      ARCHIVE_MEMBERS.forEach((m, i) => {
        const parts = m.split('/');
        for (let k = 1; k < parts.length; k++)
          w.apply({ fact: 'folder_exists', holds: true, path: `${into}/${parts.slice(0, k).join('/')}` });
        w.apply({ fact: 'file_exists', holds: true, path: `${into}/${m}` });
        w.apply({ fact: 'file_content', holds: true, path: `${into}/${m}`, value: ARCHIVE_TEXTS[i]! });
      });
    },
  },
};
