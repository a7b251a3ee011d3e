import type { SymbolicWorld } from '../world';
import { fileText, setFile, type MethodModel, type Pick } from './types';

/** A workbook as a task leaves it: its sheets, the current one, and the cells it knows. */
interface Book extends Record<string, unknown> {
  open: boolean;
  sheets: string[];
  /** Index of the current sheet; -1 when the app chose it (after a deletion). */
  current: number;
  /** Per sheet: cell -> a number or a formula over cells (`=A1+B2`, `=A1*B2`, `=SUM(A1:A3)`). */
  cells: Record<string, Record<string, string>>;
  /** Whether every cell of the sheets is known (false after opening a file the model cannot read). */
  known: boolean;
}

const CELLS = ['A', 'B', 'C', 'D'].flatMap((c) => [1, 2, 3, 4, 5, 6].map((r) => `${c}${r}`));
const book = (w: SymbolicWorld, app: string) =>
  w.model<Book>(`${app}@book`, () => ({ open: false, sheets: [], current: -1, cells: {}, known: false }));
const sheetCells = (b: Book) => (b.current >= 0 ? (b.cells[b.sheets[b.current]!] ??= {}) : undefined);

/** The number a cell shows (formulas computed), or undefined when it is text, empty or unknown. */
function numberAt(cells: Record<string, string>, cell: string, depth = 0): number | undefined {
  const v = cells[cell];
  if (v === undefined || depth > 10) return undefined;
  if (!v.startsWith('=')) return /^-?\d+$/.test(v) ? Number(v) : undefined;
  const sum = /^=SUM\(([A-D])(\d):\1(\d)\)$/.exec(v);
  if (sum) {
    let total = 0;
    for (let r = Number(sum[2]); r <= Number(sum[3]); r++) {
      const n = numberAt(cells, `${sum[1]}${r}`, depth + 1);
      if (n === undefined) return undefined;
      total += n;
    }
    return total;
  }
  const op = /^=([A-D]\d)([+*])([A-D]\d)$/.exec(v);
  if (!op) return undefined;
  const [a, b] = [numberAt(cells, op[1]!, depth + 1), numberAt(cells, op[3]!, depth + 1)];
  if (a === undefined || b === undefined) return undefined;
  return op[2] === '+' ? a + b : a * b;
}

/** What a cell displays: its number (formulas computed) or text, '' when empty; undefined when not known. */
function shown(cells: Record<string, string>, cell: string): string | undefined {
  const v = cells[cell];
  if (v === undefined) return '';
  if (!v.startsWith('=')) return v;
  const n = numberAt(cells, cell);
  return n === undefined ? undefined : String(n);
}

/** Cells of a column holding numbers, in runs of two or more rows: candidates for a sum. */
function numberRuns(cells: Record<string, string>): { col: string; from: number; to: number }[] {
  const runs: { col: string; from: number; to: number }[] = [];
  for (const col of ['A', 'B', 'C', 'D']) {
    for (let from = 1; from <= 5; from++) {
      for (let to = from + 1; to <= 6 && numberAt(cells, `${col}${to}`) !== undefined; to++) {
        if (numberAt(cells, `${col}${from}`) !== undefined) runs.push({ col, from, to });
      }
    }
  }
  return runs;
}

/** Reads a fixture CSV (no quoting) into cells of one sheet. */
function fromCsv(text: string): Record<string, string> {
  const cells: Record<string, string> = {};
  text
    .split('\n')
    .filter(Boolean)
    .forEach((line, r) => line.split(',').forEach((v, c) => v !== '' && (cells[`${'ABCD'[c]}${r + 1}`] = v)));
  return cells;
}

const needsSheet = (b: Book): string | undefined =>
  !b.open ? 'no workbook is open' : !b.known ? 'the workbook is not known' : b.current < 0 ? 'the current sheet is not known' : undefined;
const freshName = (b: Book, pick: Pick) => `${pick(['Data', 'Summary', 'Q1', 'Notes', 'Budget'])} ${b.sheets.length + 1}`;

/** Spreadsheets (Document and Spreadsheet methods): cell values, formulas' results, sheets. */
export const SHEET_MODELS: Record<string, MethodModel> = {
  'Document.new_document': {
    apply: (w, ctx) => void Object.assign(book(w, ctx.app), { open: true, sheets: ['Sheet1'], current: 0, cells: {}, known: true }),
  },
  'Document.open_file': {
    apply: (w, ctx, a) => {
      const path = String(a.path);
      const text = fileText(w, path);
      const name = (path.split('/').pop() ?? path).replace(/\.[^.]*$/, '');
      const known = path.toLowerCase().endsWith('.csv') && typeof text === 'string';
      Object.assign(book(w, ctx.app), {
        open: true,
        sheets: [name],
        current: 0,
        cells: known ? { [name]: fromCsv(String(text)) } : {},
        known,
      });
    },
  },
  'Document.save_as': { apply: (w, _ctx, a) => setFile(w, String(a.path), undefined) },
  'Document.close_document': {
    // Changes are discarded, said so: a close that cancels (the default) would leave the book open
    // while the task reads on as if closed. (Saving needs to know the book has a file: save_as does that.)
    bind: () => ({ unsaved: 'discard' }),
    apply: (w, ctx, a) => {
      if (a.unsaved !== 'cancel') Object.assign(book(w, ctx.app), { open: false, sheets: [], current: -1, cells: {}, known: false });
    },
  },
  'Spreadsheet.set_cell_value': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    // Numbers only: a word could be completed by the app's AutoInput from the column above it.
    bind: (_w, _ctx, pick) => ({ cell: pick(CELLS), value: String(pick([2, 3, 5, 8, 12, 15, 20, 42, 64, 100])) }),
    apply: (w, ctx, a) => void (sheetCells(book(w, ctx.app))![String(a.cell)] = String(a.value)),
  },
  'Spreadsheet.set_cell_formula': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    bind: (w, ctx, pick) => {
      const cells = sheetCells(book(w, ctx.app)) ?? {};
      const numbers = CELLS.filter((c) => numberAt(cells, c) !== undefined);
      if (numbers.length < 2) return undefined;
      const [x, y] = [pick(numbers), pick(numbers)];
      const runs = numberRuns(cells);
      const run = runs.length ? pick(runs) : undefined;
      const formula = run && pick([0, 1]) === 0 ? `=SUM(${run.col}${run.from}:${run.col}${run.to})` : `=${x}${pick(['+', '*'])}${y}`;
      const free = CELLS.filter((c) => cells[c] === undefined);
      return free.length ? { cell: pick(free), formula } : undefined;
    },
    apply: (w, ctx, a) => void (sheetCells(book(w, ctx.app))![String(a.cell)] = String(a.formula)),
  },
  'Spreadsheet.autosum': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    bind: (w, ctx, pick) => {
      const cells = sheetCells(book(w, ctx.app)) ?? {};
      const runs = numberRuns(cells).filter((r) => r.to < 6 && cells[`${r.col}${r.to + 1}`] === undefined);
      if (!runs.length) return undefined;
      const r = pick(runs);
      return { range: `${r.col}${r.from}:${r.col}${r.to}`, result_cell: `${r.col}${r.to + 1}` };
    },
    apply: (w, ctx, a) => void (sheetCells(book(w, ctx.app))![String(a.result_cell)] = `=SUM(${String(a.range)})`),
  },
  'Spreadsheet.get_cell_value': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    bind: (w, ctx, pick) => {
      const cells = sheetCells(book(w, ctx.app)) ?? {};
      const known = CELLS.filter((c) => cells[c] !== undefined && shown(cells, c) !== undefined);
      return { cell: pick(known.length ? known : CELLS) };
    },
    apply: (w, ctx, a) => {
      const value = shown(sheetCells(book(w, ctx.app))!, String(a.cell));
      return value === undefined ? {} : { result: value };
    },
  },
  'Spreadsheet.add_sheet': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    bind: (w, ctx, pick) => ({ name: freshName(book(w, ctx.app), pick) }),
    apply: (w, ctx, a) => {
      const b = book(w, ctx.app);
      b.sheets.push(String(a.name));
      b.current = b.sheets.length - 1;
    },
  },
  'Spreadsheet.go_to_sheet': {
    blocked: (w, ctx, a) =>
      needsSheet(book(w, ctx.app)) ?? (book(w, ctx.app).sheets.includes(String(a.name)) ? undefined : 'no such sheet'),
    bind: (w, ctx, pick) => {
      const b = book(w, ctx.app);
      const others = b.sheets.filter((_, i) => i !== b.current);
      return others.length ? { name: pick(others) } : undefined;
    },
    apply: (w, ctx, a) => {
      const b = book(w, ctx.app);
      b.current = b.sheets.indexOf(String(a.name));
    },
  },
  'Spreadsheet.rename_sheet': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    bind: (w, ctx, pick) => {
      const b = book(w, ctx.app);
      return b.sheets.length ? { old: pick(b.sheets), new: freshName(b, pick) } : undefined;
    },
    apply: (w, ctx, a) => {
      const b = book(w, ctx.app);
      const i = b.sheets.indexOf(String(a.old));
      b.cells[String(a.new)] = b.cells[String(a.old)] ?? {};
      delete b.cells[String(a.old)];
      b.sheets[i] = String(a.new);
    },
  },
  'Spreadsheet.delete_sheet': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)) ?? (book(w, ctx.app).sheets.length < 2 ? 'a workbook keeps one sheet' : undefined),
    bind: (w, ctx, pick) => ({ name: pick(book(w, ctx.app).sheets) }),
    apply: (w, ctx, a) => {
      const b = book(w, ctx.app);
      b.sheets = b.sheets.filter((s) => s !== String(a.name));
      delete b.cells[String(a.name)];
      b.current = -1;
    },
  },
  'Spreadsheet.current_sheet': {
    blocked: (w, ctx) => needsSheet(book(w, ctx.app)),
    apply: (w, ctx) => {
      const b = book(w, ctx.app);
      return { result: b.sheets[b.current] };
    },
  },
};
