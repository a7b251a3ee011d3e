import { join } from 'node:path';
import { libraryView, skillDetail } from '../../../src/main/core/libraryViews';
import { loadCheckedLibrary, saveUserSkill } from '../../../src/main/core/skills';
import { fail, ok, toIpcError, type IpcResult, type SkillDeskBridge } from '../../../src/shared/ipc';

export const BUILTIN_SKILLS = join(__dirname, '..', '..', '..', 'skills');

type Call = { method: string; request: unknown };

/**
 * A partial bridge backed by the real skill library and the real user-skill writer (in a temp
 * folder): what the stores get from main, without a transport. Records every call.
 */
export function libraryBridge(userDir: string, overrides: Partial<SkillDeskBridge> = {}) {
  const calls: Call[] = [];
  const record = <T>(method: string, request: unknown, run: () => Promise<T>): Promise<IpcResult<T>> => {
    calls.push({ method, request });
    return run().then(ok, (err: unknown) => ({ ok: false as const, error: toIpcError(err) }));
  };
  const bridge = {
    skillsGet: (r: { id: string }) =>
      record('skillsGet', r, async () => {
        const { library } = await loadCheckedLibrary({ builtinDir: BUILTIN_SKILLS, userDir });
        const s = library.skills.get(r.id);
        if (!s) throw Object.assign(new Error(`No skill ${r.id}`), { code: 'skill.not_found' });
        return skillDetail(library, s);
      }),
    skillsSave: (r: { doc: Record<string, unknown> }) =>
      record('skillsSave', r, async () => {
        const saved = await saveUserSkill({ builtinDir: BUILTIN_SKILLS, userDir }, { doc: r.doc });
        const { library } = await loadCheckedLibrary({ builtinDir: BUILTIN_SKILLS, userDir });
        return { path: saved.path, skill: skillDetail(library, library.skills.get(saved.id)!) };
      }),
    libraryGet: (r: object) =>
      record('libraryGet', r, async () => {
        const { library, problems } = await loadCheckedLibrary({ builtinDir: BUILTIN_SKILLS, userDir });
        return libraryView(library, problems);
      }),
    runStart: (r: unknown) => record('runStart', r, async () => ({ runId: 'run-1' })),
    runGoal: (r: unknown) => record('runGoal', r, async () => ({ runId: 'run-goal' })),
    runStop: (r: unknown) => record('runStop', r, async () => ({ stopped: 1 })),
    runsScreenshot: (r: { path: string }) =>
      record('runsScreenshot', r, async () => ({ dataUrl: `data:image/png;base64,${Buffer.from(r.path).toString('base64')}` })),
    ...overrides,
  } as unknown as SkillDeskBridge;
  return { bridge, calls };
}

export const refused = (code: string, message: string) => async () => fail(code, message);
