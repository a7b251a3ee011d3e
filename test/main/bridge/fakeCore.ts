import type { CoreApi, LibraryView, RunEventView, RunResultView } from '../../../src/shared/ipc';
import { computeMetrics } from '../../../src/shared/metrics';
import { SkillLibrary } from '../../../src/shared/skill/library';

/** A CoreApi that records calls; `runSkill` emits a start and one step, then waits for its signal or `finish`. */
export function recordingCore() {
  const calls: { method: string; args: unknown[] }[] = [];
  let finish: (() => void) | undefined;
  const rec = (method: string, ...args: unknown[]) => calls.push({ method, args });
  const result = (status: RunResultView['status']): RunResultView => ({
    runId: 'r1',
    status,
    skillId: 's.k',
    args: {},
    steps: [],
    startedAt: 1,
    endedAt: 2,
    dryRun: false,
  });
  const core: CoreApi = {
    info: async () => ({
      version: '0.0.0',
      platform: 'linux',
      sessionId: 'sess',
      dataDir: '/d',
      userSkillsDir: '/d/skills',
      desktop: 'unavailable',
    }),
    library: async () => emptyLibraryView(),
    reloadLibrary: async () => emptyLibraryView(),
    searchSkills: async (q, o) => {
      rec('searchSkills', q, o);
      return [];
    },
    composition: async () => ({ nodes: [], edges: [], mayFollow: [] }),
    getSkill: async (id) => {
      rec('getSkill', id);
      throw Object.assign(new Error(`No skill \`${id}\``), { code: 'skill.not_found' });
    },
    saveUserSkill: async () => {
      throw Object.assign(new Error('invalid'), { code: 'skills.invalid', problems: [{ path: ['graph'], message: 'bad' }] });
    },
    runSkill: async (r) => {
      rec('runSkill', { ...r, signal: undefined, onEvent: undefined });
      if (r.skill === 'refused.skill') return { ...result('failed'), error: { code: 'dispatch.no_app', message: 'needs an app' } };
      const emit = (e: RunEventView) => r.onEvent(e);
      emit({ type: 'run_started', runId: 'r1', skillId: 's.k', args: {} });
      emit({ type: 'step_started', runId: 'r1', seq: 1, depth: 0, skillId: 's.k', nodeId: 'a', primitive: 'key', resolved: {} });
      const status = await new Promise<RunResultView['status']>((resolve) => {
        finish = () => resolve('succeeded');
        r.signal.addEventListener('abort', () => resolve('aborted'));
      });
      const res = result(status);
      emit({ type: 'run_finished', result: res });
      return res;
    },
    listRuns: async (f) => {
      rec('listRuns', f);
      return [];
    },
    getRun: async () => undefined,
    readScreenshot: async () => new Uint8Array([137, 80, 78, 71]),
    listDirectory: async (p) => ({ path: p ?? '/', sep: '/', entries: [] }),
    listGrants: async () => [],
    revokeGrant: async () => true,
    listAudit: async (q) => {
      rec('listAudit', q);
      return { rows: [], nextCursor: null };
    },
    metrics: async (q) => {
      rec('metrics', q);
      return computeMetrics({ topLevel: [], children: [], steps: [] }, new SkillLibrary([]), { since: q.since ?? null, until: 0 });
    },
    learnBlueprint: async (app) => {
      rec('learnBlueprint', app);
      return { apps: [] };
    },
    learnRecord: async (r, onEvent) => {
      rec('learnRecord', r);
      onEvent({ session: 'l1', type: 'recording', app: r.app, method: r.method, where: 'browser' });
      return { session: 'l1', app: r.app, method: r.method, args: r.args, where: 'browser' };
    },
    learnStop: async (session) => {
      rec('learnStop', session);
      throw Object.assign(new Error(`No recording \`${session}\` under way`), { code: 'learn.no_session' });
    },
    getSettings: async () => ({ dataDir: '/d', providers: {}, defaultApps: {}, domains: [] }),
    saveSettings: async () => ({ dataDir: '/d', providers: {}, defaultApps: {}, domains: [] }),
    testProvider: async (role) => ({ role, ok: false, latencyMs: 0, message: 'no server' }),
  };
  return { core, calls, finishRun: () => finish?.() };
}

/** A library view with nothing in it. */
export function emptyLibraryView(): LibraryView {
  const lane = { apps: 0, implementations: 0, composites: 0, tests: 0 };
  return {
    interfaces: [],
    apps: [],
    skills: [],
    problems: [],
    counts: {
      interfaces: 0,
      methods: 0,
      composites: 0,
      implementations: 0,
      apps: 0,
      windows: { apps: 0, implementations: 0, methodsImplemented: 0 },
      liveDesktop: lane,
      liveWindows: lane,
      dryRunOnly: 0,
      byApp: [],
    },
  };
}
