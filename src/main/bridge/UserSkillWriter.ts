import { cp, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SkillDeskError } from '../../shared/errors';
import { SkillDocSchema } from '../../shared/skill';
import { loadLibrary, type LoadedLibrary } from '../services/library/YamlLibraryLoader';

/** A validation failure with the problems the editor shows inline. */
export class SkillSaveError extends SkillDeskError {
  constructor(
    message: string,
    readonly problems: { path: (string | number)[]; message: string; line?: number }[],
  ) {
    super('skills.invalid', message);
  }
}

/** The file a user skill is saved to: one file per skill id, in the user skill folder. */
export function userSkillFile(userDir: string, id: string): string {
  return join(userDir, `${id}.yaml`);
}

/**
 * Saves a skill document from the editor to the user folder, after validating it exactly as
 * the loader will: schema first, then the whole library (built-ins plus user files, with this
 * one replacing any earlier user file of the same id) loaded from a staging copy. Nothing is
 * written to the user folder unless the skill loads without errors.
 */
export async function saveUserSkill(opts: {
  builtinDir: string;
  userDir: string;
  doc: Record<string, unknown>;
}): Promise<{ path: string; id: string }> {
  const parsed = SkillDocSchema.safeParse(opts.doc);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
    }));
    throw new SkillSaveError(`The skill is not valid: ${problems[0]!.path.join('.')}: ${problems[0]!.message}`, problems);
  }
  const id = parsed.data.id;
  const text = `# Saved by the SkillDesk graph editor.\n${stringify(opts.doc, { lineWidth: 0 })}`;
  const staging = await mkdtemp(join(tmpdir(), 'skilldesk-save-'));
  try {
    const stagedUser = join(staging, 'user');
    await mkdir(stagedUser, { recursive: true });
    const existing = await readdir(opts.userDir).catch(() => [] as string[]);
    if (existing.length) await cp(opts.userDir, stagedUser, { recursive: true });
    const stagedFile = userSkillFile(stagedUser, id);
    await writeFile(stagedFile, text, 'utf8');
    const loaded: LoadedLibrary = await loadLibrary({ builtinDir: opts.builtinDir, userDir: stagedUser });
    const problems = loaded.problems.filter((p) => p.file === stagedFile && p.severity === 'error');
    if (problems.length || !loaded.library.skills.has(id)) {
      const list = problems.map((p) => ({ path: p.path, message: p.message, ...(p.line && { line: p.line }) }));
      throw new SkillSaveError(`\`${id}\` would not load: ${list[0]?.message ?? 'it was left out of the library'}`, list);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  await mkdir(opts.userDir, { recursive: true });
  const file = userSkillFile(opts.userDir, id);
  // Write then rename, so a crash never leaves a half-written skill the loader would reject.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, file);
  return { path: file, id };
}
