import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArgValues } from '../../shared/skill';
import { Inducer, type InductionReport } from '../services/learning';
import type { Core } from './Core';
import { saveUserMethod } from './skills';

/**
 * The inducer of a core: skills saved through its checked save path (user folder, `community`
 * trust), runs through its executor and mediator, titles read from its browser (sites) or desktop
 * (apps), and each report kept in `<data-dir>/induction/<id>.json`, admitted or rejected.
 */
export function coreInducer(
  core: Core,
  o: {
    /** Hears each re-execution as it starts (the report says how it went). */
    onRun?: (args: ArgValues) => void;
  } = {},
): Inducer & { keep(report: InductionReport): Promise<string> } {
  const sources = { builtinDir: core.builtinSkillsDir, userDir: core.userSkillsDir };
  const inducer = new Inducer({
    library: async () => (await core.loadLibrary()).library,
    saveSkill: (doc) => core.saveUserSkill({ doc }, { savedBy: 'induction' }),
    saveMethod: async (doc) => {
      const saved = await saveUserMethod(sources, doc, { savedBy: 'induction' });
      await core.reloadLibrary();
      return saved;
    },
    remove: async (path) => {
      await rm(path, { force: true });
      await core.reloadLibrary();
    },
    runSkill: (request) => {
      o.onRun?.((request.args ?? {}) as ArgValues);
      return core.runSkill(request);
    },
    exists: async (path) => {
      const st = await stat(path).catch(() => undefined);
      return st ? (st.isDirectory() ? 'folder' : 'file') : undefined;
    },
    title: async (app) => {
      const { library } = await core.loadLibrary();
      if (library.apps.get(app)?.platforms.includes('web')) return (await (await core.browser())?.page())?.read({ source: 'title' });
      return (await (await core.desktop()).windows.active())?.title;
    },
  });
  return Object.assign(inducer, {
    keep: async (report: InductionReport) => {
      const dir = join(core.options.dataDir, 'induction');
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${report.id}.json`);
      await writeFile(file, JSON.stringify(report, null, 2));
      return file;
    },
  });
}
