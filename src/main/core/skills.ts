import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Document, LineCounter, parseDocument } from 'yaml';
import { SkillDeskError } from '../../shared/errors';
import type { TrustTier } from '../../shared/permissions/manifest';
import { MethodDocSchema, SkillDocSchema, type MethodDoc } from '../../shared/skill';
import { lineOfPath, loadLibrary, type LibrarySources, type LoadedLibrary } from '../services/library/YamlLibraryLoader';
import { enforceManifests } from '../services/permissions';

/** Loads the library and leaves out skills whose graph needs more than their manifest declares (SkillGuard). */
export async function loadCheckedLibrary(sources: LibrarySources): Promise<LoadedLibrary> {
  const loaded = await loadLibrary(sources);
  return { ...loaded, problems: [...loaded.problems, ...enforceManifests(loaded.library)] };
}

/** A problem of a skill that was not saved: the field (`path`), what is wrong, and the line when known. */
export interface SkillSaveProblem {
  path: (string | number)[];
  message: string;
  line?: number;
}

/** A skill that would not load, so was not saved; `problems` are what the editor shows inline. */
export class SkillSaveError extends SkillDeskError {
  constructor(
    message: string,
    readonly problems: SkillSaveProblem[],
  ) {
    super('skills.invalid', message);
  }
}

/** What is saved: a document (the graph editor's) or a YAML file's text (`skilldesk skills add`, kept with its comments). */
export type SkillSaveInput = { doc: Record<string, unknown> } | { text: string; file: string };

/**
 * The trust a saved user file carries: never more than `community`. Trust comes from where a skill
 * was installed, not from its own words, and a file saved from the editor or the command line was
 * installed by nobody who reviewed it; `untrusted` stays as it is.
 */
function userTrust(claimed: unknown): TrustTier {
  return claimed === 'untrusted' ? 'untrusted' : 'community';
}

/** `path: message`, the form a person can find the field by. */
const describe = (p: SkillSaveProblem): string =>
  `${p.path.length ? `${p.path.join('.')}: ` : ''}${p.message}${p.line ? ` (line ${p.line})` : ''}`;

function refuse(what: string, problems: SkillSaveProblem[]): never {
  throw new SkillSaveError(`${what}: ${problems.map(describe).join('; ')}`, problems);
}

/**
 * The input as YAML text with its trust capped, the skill's id, and where a field is in the input
 * (a file's own lines, not the saved copy's, which has a header and may be laid out anew).
 * Refuses text that is not a skill document.
 */
function prepare(input: SkillSaveInput, header: string): { text: string; id: string; lineOf: (path: (string | number)[]) => number } {
  const lines = new LineCounter();
  const yaml =
    'text' in input ? parseDocument(input.text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }) : new Document(input.doc);
  const where = 'text' in input ? input.file : 'The skill';
  if (yaml.errors.length) {
    refuse(
      `${where} is not valid YAML`,
      yaml.errors.map((e) => ({ path: [], message: e.message.split('\n')[0]!, line: lines.linePos(e.pos[0]).line })),
    );
  }
  const parsed = SkillDocSchema.safeParse(yaml.toJS());
  if (!parsed.success) {
    refuse(
      `${where} is not a valid skill`,
      parsed.error.issues.map((i) => {
        const path = i.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
        return { path, message: i.message, ...('text' in input && { line: lineOfPath(yaml, lines, path) }) };
      }),
    );
  }
  yaml.set('trust', userTrust(yaml.get('trust')));
  yaml.commentBefore = [header, yaml.commentBefore].filter(Boolean).join('\n');
  const text = yaml.toString({ lineWidth: 0 });
  const lineOf = (path: (string | number)[]): number => {
    // A parsed file's nodes keep their ranges in the original text through the edits above.
    if ('text' in input) return lineOfPath(yaml, lines, path);
    const savedLines = new LineCounter();
    return lineOfPath(parseDocument(text, { lineCounter: savedLines }), savedLines, path);
  };
  return { text, id: parsed.data.id, lineOf };
}

/**
 * Saves a skill to the user folder after the same checked load as startup (`loadCheckedLibrary`:
 * schema, library links, and manifests that cover what the graph does): the whole library, with
 * this file replacing any earlier user file of the same id, is loaded from a staging copy, and
 * nothing is written unless the skill loads without errors. Every way of adding a skill (the graph
 * editor, `skilldesk skills add`, induction) goes through here, so a saved skill is never dropped
 * at the next start. The saved file's trust is capped at `community`.
 */
export async function saveUserSkill(
  sources: { builtinDir: string; userDir: string },
  input: SkillSaveInput,
  o: { savedBy?: string } = {},
): Promise<{ path: string; id: string }> {
  const { text, id, lineOf } = prepare(input, ` Saved by ${o.savedBy ?? 'SkillDesk'}.`);
  const path = await writeChecked(sources, `${id}.yaml`, text, (loaded, file) => {
    const problems = loaded.problems.filter((p) => p.file === file && p.severity === 'error');
    if (problems.length || !loaded.library.skills.has(id)) {
      const list = problems.map((p) => ({ path: p.path, message: p.message, line: lineOf(p.path) }));
      refuse(`\`${id}\` would not load`, list.length ? list : [{ path: [], message: 'it was left out of the library' }]);
    }
  });
  return { path, id };
}

/**
 * Adds a method signature to an interface from the user folder (`methods/<Interface>.<name>.yaml`),
 * through the same checked load: nothing is written unless the library loads it.
 */
export async function saveUserMethod(
  sources: { builtinDir: string; userDir: string },
  doc: MethodDoc,
  o: { savedBy?: string } = {},
): Promise<{ path: string; ref: string }> {
  const parsed = MethodDocSchema.safeParse(doc);
  if (!parsed.success)
    refuse(
      'The method is not valid',
      parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message })),
    );
  const ref = `${doc.interface}.${doc.name}`;
  const yaml = new Document(parsed.data);
  yaml.commentBefore = ` Saved by ${o.savedBy ?? 'SkillDesk'}.`;
  const path = await writeChecked(sources, join('methods', `${ref}.yaml`), yaml.toString({ lineWidth: 0 }), (loaded, file) => {
    const problems = loaded.problems.filter((p) => p.file === file && p.severity === 'error');
    if (problems.length || !loaded.library.interfaces.get(doc.interface)?.methods[doc.name])
      refuse(
        `\`${ref}\` would not load`,
        problems.length ? problems.map((p) => ({ path: p.path, message: p.message })) : [{ path: [], message: 'it was left out' }],
      );
  });
  return { path, ref };
}

/**
 * Writes `text` as `relFile` of the user folder only if the whole library, with it, loads as
 * `accept` wants: checked on a staging copy of the user folder first; then written and renamed
 * into place, so a crash never leaves a half-written file the loader would reject.
 */
async function writeChecked(
  sources: { builtinDir: string; userDir: string },
  relFile: string,
  text: string,
  accept: (loaded: LoadedLibrary, stagedFile: string) => void,
): Promise<string> {
  const staging = await mkdtemp(join(tmpdir(), 'skilldesk-save-'));
  try {
    const stagedUser = join(staging, 'user');
    await mkdir(stagedUser, { recursive: true });
    const existing = await readdir(sources.userDir).catch(() => [] as string[]);
    if (existing.length) await cp(sources.userDir, stagedUser, { recursive: true });
    const stagedFile = join(stagedUser, relFile);
    await mkdir(dirname(stagedFile), { recursive: true });
    await writeFile(stagedFile, text, 'utf8');
    accept(await loadCheckedLibrary({ builtinDir: sources.builtinDir, userDir: stagedUser }), stagedFile);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const file = join(sources.userDir, relFile);
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, file);
  return file;
}
