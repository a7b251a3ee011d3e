import { clipboardText, fileText, setClipboard, setFile, type MethodModel, type ModelContext } from './types';
import type { SymbolicWorld } from '../world';

/** A plain-text document as a task leaves it: its text (unknown once it cannot be told), cursor and selection. */
interface Doc extends Record<string, unknown> {
  open: boolean;
  text?: string;
  cursor: 'start' | 'end' | 'unknown';
  /** The whole document is selected (select_all is the only way a task selects). */
  selected: boolean;
  path?: string;
  /** Changed since it was opened or saved. */
  modified?: boolean;
}

/** What the file holds once the document is saved: the app may end it with a line break of its own. */
function saveText(w: SymbolicWorld, ctx: ModelContext, path: string, text: string | undefined): string | undefined {
  const add = ctx.profile?.text_files?.final_newline && text !== undefined && !text.endsWith('\n');
  const saved = add ? `${text}\n` : text;
  setFile(w, path, saved);
  const d = doc(w, ctx.app);
  d.modified = false;
  // The line break goes in after the cursor: at the end of an empty document it is now at the start.
  if (add && d.cursor === 'end') d.cursor = text === '' ? 'start' : 'unknown';
  return saved;
}

const doc = (w: SymbolicWorld, app: string) => w.model<Doc>(app, () => ({ open: false, cursor: 'unknown', selected: false }));

/** Text typed (or pasted) at the cursor: what the document then holds, when that can be told. */
function insert(d: Doc, text: string | undefined): void {
  d.modified = true;
  if (d.selected) {
    d.text = text;
    d.cursor = 'end';
  } else if (d.text === undefined || text === undefined || d.cursor === 'unknown') {
    d.text = undefined;
    d.cursor = 'unknown';
  } else if (d.cursor === 'end') d.text += text;
  else {
    const empty = d.text === '';
    d.text = text + d.text;
    d.cursor = empty ? 'end' : 'unknown';
  }
  d.selected = false;
}

/**
 * The current document stays open in a tab of its own when another comes up; the task no longer
 * follows it, and a later "save all" may write its changes: its file's content is no longer known.
 */
function leave(w: SymbolicWorld, d: Doc): void {
  if (d.open && d.modified && d.path) setFile(w, d.path, undefined);
}

/** Copying an empty selection leaves the clipboard as it was: a task copies text only. */
const nothingToCopy = (d: Doc): string | undefined =>
  !d.selected ? 'nothing is selected' : d.text === '' ? 'the document is empty' : undefined;

/** On an open document whose text is known and whose cursor is at one end. */
const needsTypingPlace = (w: SymbolicWorld, ctx: ModelContext): string | undefined => {
  const d = doc(w, ctx.app);
  if (!d.open) return 'no document is open';
  if (d.text === undefined) return 'the document text is not known';
  return d.cursor === 'unknown' && !d.selected ? 'the cursor is not at either end of the document' : undefined;
};

/** The text document's methods (Document, TextEditor): their text effects apply only in plain-text editors. */
export const TEXT_MODELS: Record<string, MethodModel> = {
  'Document.new_document': {
    apply: (w, ctx) => {
      leave(w, doc(w, ctx.app));
      Object.assign(doc(w, ctx.app), { open: true, text: '', cursor: 'end', selected: false, path: undefined, modified: false });
    },
  },
  'Document.open_file': {
    // A text editor opens text: a file whose text the task does not know (a binary one) is not for it.
    blocked: (w, _ctx, a) => (fileText(w, String(a.path)) === undefined ? 'the file holds no text the task knows' : undefined),
    apply: (w, ctx, a) => {
      const path = String(a.path);
      leave(w, doc(w, ctx.app));
      Object.assign(doc(w, ctx.app), { open: true, text: fileText(w, path), cursor: 'start', selected: false, path, modified: false });
    },
  },
  'Document.save': {
    blocked: (w, ctx) => (doc(w, ctx.app).path ? undefined : 'the document has no file yet'),
    apply: (w, ctx) => {
      const d = doc(w, ctx.app);
      d.text = saveText(w, ctx, d.path!, d.text);
    },
  },
  'Document.save_all': {
    blocked: (w, ctx) => (doc(w, ctx.app).open && doc(w, ctx.app).path ? undefined : 'no document with a file is open'),
    // Only documents with changes are written (an unchanged file stays as it is, byte for byte).
    apply: (w, ctx) => {
      const d = doc(w, ctx.app);
      if (d.modified) d.text = saveText(w, ctx, d.path!, d.text);
    },
  },
  'Document.save_as': {
    apply: (w, ctx, a) => {
      const d = doc(w, ctx.app);
      d.path = String(a.path);
      d.text = saveText(w, ctx, d.path, d.text);
    },
  },
  'Document.close_document': {
    // Saved when the document has a file, else discarded; never the default cancel, which keeps the
    // document open while the task reads on as if it were closed.
    bind: (w, ctx, pick) => ({ unsaved: doc(w, ctx.app).path ? pick(['save', 'discard']) : 'discard' }),
    apply: (w, ctx, a) => {
      const d = doc(w, ctx.app);
      if (a.unsaved === 'save' && d.path) saveText(w, ctx, d.path, d.text);
      if (a.unsaved !== 'cancel') Object.assign(d, { open: false, text: undefined, cursor: 'unknown', selected: false, path: undefined });
    },
  },
  'TextEditor.type_text': {
    blocked: needsTypingPlace,
    apply: (w, ctx, a) => insert(doc(w, ctx.app), String(a.text)),
  },
  'TextEditor.paste': {
    blocked: (w, ctx) => needsTypingPlace(w, ctx) ?? (clipboardText(w) === undefined ? 'the clipboard text is not known' : undefined),
    apply: (w, ctx) => insert(doc(w, ctx.app), clipboardText(w)?.toString()),
  },
  'TextEditor.select_all': { apply: (w, ctx) => void (doc(w, ctx.app).selected = true) },
  'TextEditor.copy': {
    blocked: (w, ctx) => nothingToCopy(doc(w, ctx.app)),
    apply: (w, ctx) => setClipboard(w, doc(w, ctx.app).text),
  },
  'TextEditor.cut': {
    blocked: (w, ctx) => nothingToCopy(doc(w, ctx.app)),
    apply: (w, ctx) => {
      const d = doc(w, ctx.app);
      setClipboard(w, d.text);
      Object.assign(d, { text: '', cursor: 'end', selected: false, modified: true });
    },
  },
  'TextEditor.move_cursor': {
    apply: (w, ctx, a) => {
      const d = doc(w, ctx.app);
      const oneLine = d.text !== undefined && !d.text.includes('\n');
      d.cursor =
        a.to === 'document_start' || (a.to === 'line_start' && oneLine)
          ? 'start'
          : a.to === 'document_end' || (a.to === 'line_end' && oneLine)
            ? 'end'
            : 'unknown';
      d.selected = false;
    },
  },
  'TextEditor.go_to_line': {
    blocked: (w, ctx, a) => {
      const text = doc(w, ctx.app).text;
      return text !== undefined && Number(a.line) > text.split('\n').length ? 'the document has fewer lines' : undefined;
    },
    bind: (w, ctx, pick) => {
      const text = doc(w, ctx.app).text;
      return text === undefined ? undefined : { line: pick(text.split('\n').map((_, i) => i + 1)) };
    },
    apply: (w, ctx, a) => {
      const d = doc(w, ctx.app);
      d.cursor = Number(a.line) === 1 ? 'start' : 'unknown';
      d.selected = false;
    },
  },
  'TextEditor.replace_all': {
    blocked: (w, ctx, a) => {
      const text = doc(w, ctx.app).text;
      if (text === undefined) return 'the document text is not known';
      return occurrences(text, String(a.find), a.match_case === true) === 0 ? 'the text to replace is not in the document' : undefined;
    },
    bind: (w, ctx, pick) => {
      const words = (doc(w, ctx.app).text ?? '').match(/[A-Za-z]{3,}/g);
      return words?.length ? { find: pick(words) } : undefined;
    },
    apply: (w, ctx, a) => {
      const d = doc(w, ctx.app);
      if (d.text !== undefined) d.text = replaceAll(d.text, String(a.find), String(a.replace), a.match_case === true);
      d.modified = true;
      d.cursor = 'unknown';
      d.selected = false;
    },
  },
  'TextEditor.replace_in_file': {
    blocked: (w, _ctx, a) => {
      const text = fileText(w, String(a.path));
      if (text === undefined) return 'the file content is not known';
      return occurrences(String(text), String(a.find), true) === 0 ? 'the text to replace is not in the file' : undefined;
    },
    bind: (w, _ctx, pick) => {
      const files = w.holding('file_content').filter((f) => typeof f.value === 'string' && /[A-Za-z]{3,}/.test(f.value));
      if (!files.length) return undefined;
      const f = pick(files);
      return { path: String(f.path), find: pick(String(f.value).match(/[A-Za-z]{3,}/g)!) };
    },
  },
};

function occurrences(text: string, find: string, matchCase: boolean): number {
  if (!find) return 0;
  const [t, f] = matchCase ? [text, find] : [text.toLowerCase(), find.toLowerCase()];
  return t.split(f).length - 1;
}

function replaceAll(text: string, find: string, replace: string, matchCase: boolean): string {
  if (matchCase) return text.split(find).join(replace);
  return text.replace(new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu'), () => replace);
}
