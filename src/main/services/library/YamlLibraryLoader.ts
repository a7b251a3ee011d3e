import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import {
  LibraryDocSchema,
  MAX_SCRIPT_CHARS,
  SkillLibrary,
  type LibraryProblem,
  type SourceRef,
  type SourcedDoc,
} from '../../../shared/skill';

/**
 * What one skill file may hold. A skill folder is hostile input: past these, the file is reported
 * and left out, and loading (which the Stop button's event loop waits on) stays fast.
 */
export const LIBRARY_LIMITS = {
  /** Bytes of one YAML file; checked before it is read. */
  fileBytes: 512 * 1024,
  /** Alias expansions in one file (an alias bomb expands exponentially). */
  aliases: 50,
  /** Characters of one inline script (its analysis is linear, but not cheap). */
  scriptChars: MAX_SCRIPT_CHARS,
} as const;

/** Where the library comes from: the built-in folder, and the user's folder whose files override built-ins by id. */
export interface LibrarySources {
  builtinDir: string;
  userDir?: string;
  /** User files the user reviewed: path -> SHA-256 of the bytes reviewed (a changed file is not reviewed). */
  reviews?: ReadonlyMap<string, string>;
}

export interface LoadedLibrary {
  library: SkillLibrary;
  /** Every problem (parse, schema, cross-document), with file and line. */
  problems: LibraryProblem[];
  files: number;
}

interface ParsedFile {
  source: SourceRef;
  doc?: Document;
  lines: LineCounter;
}

/** Loads every `*.yaml`/`*.yml` under the sources; invalid files are reported and left out. */
export async function loadLibrary(sources: LibrarySources): Promise<LoadedLibrary> {
  const files: ParsedFile[] = [];
  const problems: LibraryProblem[] = [];
  const docs: SourcedDoc[] = [];
  const dirs: [string, SourceRef['origin']][] = [[sources.builtinDir, 'builtin']];
  if (sources.userDir) dirs.push([sources.userDir, 'user']);
  for (const [dir, origin] of dirs) {
    for (const file of await yamlFiles(dir)) {
      const parsed = await parseFile(file, origin, problems, sources.reviews);
      files.push(parsed);
      if (!parsed.doc) continue;
      let value: unknown;
      try {
        value = parsed.doc.toJS({ maxAliasCount: LIBRARY_LIMITS.aliases });
      } catch (err) {
        // yaml throws a ReferenceError past maxAliasCount ("Excessive alias count ...").
        problems.push({ file, path: [], message: `YAML: ${(err as Error).message.split('\n')[0]}`, severity: 'error', line: 1 });
        continue;
      }
      const result = LibraryDocSchema.safeParse(value);
      if (result.success) {
        docs.push({ doc: result.data, source: parsed.source });
        continue;
      }
      for (const issue of result.error.issues) {
        const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
        problems.push({ file, path, message: issue.message, severity: 'error', line: lineOf(parsed, path) });
      }
    }
  }
  const library = new SkillLibrary(docs);
  const byFile = new Map(files.map((f) => [f.source.file, f]));
  for (const p of library.problems) {
    const f = byFile.get(p.file);
    problems.push(f ? { ...p, line: lineOf(f, p.path) } : p);
  }
  return { library, problems, files: files.length };
}

/** `file:line: path: message`, the form editors and terminals link. */
export function formatProblem(p: LibraryProblem, cwd = process.cwd()): string {
  const where = `${relative(cwd, p.file) || p.file}:${p.line ?? 1}`;
  const field = p.path.length ? `${p.path.join('.')}: ` : '';
  return `${where}: ${p.severity}: ${field}${p.message}`;
}

async function yamlFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

async function parseFile(
  file: string,
  origin: SourceRef['origin'],
  problems: LibraryProblem[],
  reviews: ReadonlyMap<string, string> | undefined,
): Promise<ParsedFile> {
  const lines = new LineCounter();
  const size = (await stat(file)).size;
  if (size > LIBRARY_LIMITS.fileBytes) {
    problems.push({
      file,
      path: [],
      message: `the file has ${size} bytes; a skill file may have at most ${LIBRARY_LIMITS.fileBytes} (keep long scripts in script files the skill calls)`,
      severity: 'error',
      line: 1,
    });
    return { source: { file, origin, contentHash: 'sha256:' }, lines };
  }
  const bytes = await readFile(file);
  // The bytes, not the parsed document: any edit, even one YAML reads the same, is a new version
  // (grants are bound to it, and a review no longer covers it).
  const hex = createHash('sha256').update(bytes).digest('hex');
  const reviewed = origin === 'user' && reviews?.get(file) === hex;
  const source: SourceRef = { file, origin, contentHash: `sha256:${hex}`, ...(reviewed && { reviewed }) };
  const text = bytes.toString('utf8');
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    for (const e of doc.errors) {
      problems.push({
        file,
        path: [],
        message: `YAML: ${e.message.split('\n')[0]}`,
        severity: 'error',
        line: lines.linePos(e.pos[0]).line,
      });
    }
    return { source, lines };
  }
  return { source, doc, lines };
}

/** Line of the deepest node that exists along `path` (a missing field points at its parent). */
function lineOf(file: ParsedFile, path: (string | number)[]): number {
  return file.doc ? lineOfPath(file.doc, file.lines, path) : 1;
}

/** Line of the deepest node of `doc` that exists along `path`; 1 when none does. */
export function lineOfPath(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return 1;
}
