import { createStore, type StoreApi } from 'zustand/vanilla';
import type { IpcError, RunEventView, RunResultView, RunStatusView, SkillDeskBridge, SkillDetail, StepView } from '../../../../shared/ipc';
import { checkArg, type ArgValue } from '../../../../shared/skill';

/** A step of the live trajectory: what `step_started` said, running until its `step_finished` arrives. */
export interface LiveStep extends Omit<Extract<RunEventView, { type: 'step_started' }>, 'type' | 'runId'> {
  startedAt: number;
  endedAt?: number;
  outcome: StepView['outcome'] | 'running';
  error?: string;
  screenshotPath?: string;
}

export interface LiveRun {
  runId: string;
  skillId: string;
  app?: string;
  status: RunStatusView;
  steps: LiveStep[];
  /** The node executing now (highlighted in the graph), by skill. */
  current?: { skillId: string; nodeId: string };
  notes: string[];
  startedAt: number;
  endedAt?: number;
  result?: unknown;
  error?: RunResultView['error'];
}

export type RunBridge = Pick<SkillDeskBridge, 'skillsGet' | 'runStart' | 'runGoal' | 'runStop' | 'runsScreenshot'>;

export interface RunState {
  skill?: SkillDetail;
  app?: string;
  /** Raw form values, as typed. */
  values: Record<string, string | boolean>;
  /** Per-argument problem, checked as the user types. */
  fieldErrors: Record<string, string>;
  goal: string;
  dryRun: boolean;
  screenshots: boolean;
  starting: boolean;
  error?: IpcError;
  run?: LiveRun;
  thumbnails: Record<string, string>;
  selectSkill(id: string): Promise<void>;
  setApp(app: string): void;
  setValue(name: string, raw: string | boolean): void;
  setGoal(goal: string): void;
  setOptions(o: Partial<Pick<RunState, 'dryRun' | 'screenshots'>>): void;
  start(): Promise<void>;
  startGoal(): Promise<void>;
  stop(): Promise<void>;
  /** Applies a `run:event` from main. */
  handleEvent(e: RunEventView): void;
}

/** Checks one raw form value against its domain; empty optional fields are fine. */
export function fieldError(skill: Pick<SkillDetail, 'args' | 'app'>, name: string, raw: string | boolean | undefined): string | undefined {
  const spec = skill.args[name];
  if (!spec) return `Unknown argument \`${name}\``;
  if (raw === undefined || raw === '') {
    return spec.optional || spec.default !== undefined ? undefined : `\`${name}\` is required`;
  }
  const pathStyle = skill.app === 'notepad' || skill.app === 'calculator' || /^[A-Za-z]:\\/.test(String(raw)) ? 'win32' : 'posix';
  const check = checkArg(name, spec, raw, { pathStyle });
  return check.ok ? undefined : check.message;
}

/** The form's values converted to the argument types, leaving out empty optional fields. */
export function formArgs(skill: Pick<SkillDetail, 'args'>, values: Record<string, string | boolean>): Record<string, ArgValue> {
  const out: Record<string, ArgValue> = {};
  for (const [name, spec] of Object.entries(skill.args)) {
    const raw = values[name];
    if (raw === undefined || raw === '') continue;
    const c = checkArg(name, spec, raw);
    out[name] = c.ok ? c.value : raw;
  }
  return out;
}

function initialValues(skill: SkillDetail): Record<string, string | boolean> {
  const v: Record<string, string | boolean> = {};
  for (const [name, spec] of Object.entries(skill.args)) {
    if (spec.type === 'boolean') v[name] = spec.default ?? false;
    else if (spec.default !== undefined) v[name] = String(spec.default);
    else if (spec.type === 'enum') v[name] = String(spec.values[0]);
    else v[name] = '';
  }
  return v;
}

/** Run feature state: the argument form, the goal box and the live trajectory. */
export function createRunStore(bridge: RunBridge): StoreApi<RunState> {
  return createStore<RunState>((set, get) => {
    const begin = async (call: () => ReturnType<RunBridge['runStart']>, label: string): Promise<void> => {
      set({ starting: true, error: undefined, run: undefined });
      const r = await call();
      if (!r.ok) {
        set({ starting: false, error: r.error });
        return;
      }
      const existing = get().run;
      // Events may arrive before the reply; keep what they built.
      if (!existing || existing.runId !== r.value.runId) {
        set({ run: { runId: r.value.runId, skillId: label, status: 'running', steps: [], notes: [], startedAt: Date.now() } });
      }
      set({ starting: false });
    };
    return {
      values: {},
      fieldErrors: {},
      goal: '',
      dryRun: false,
      screenshots: true,
      starting: false,
      thumbnails: {},
      async selectSkill(id) {
        const r = await bridge.skillsGet({ id });
        if (!r.ok) return set({ error: r.error });
        const skill = r.value;
        set({ skill, app: skill.app ?? skill.apps[0], values: initialValues(skill), fieldErrors: {}, error: undefined });
      },
      setApp: (app) => set({ app }),
      setValue(name, raw) {
        const { skill, values, fieldErrors } = get();
        const next = { ...values, [name]: raw };
        const err = skill ? fieldError(skill, name, raw) : undefined;
        const errors = { ...fieldErrors };
        if (err) errors[name] = err;
        else delete errors[name];
        set({ values: next, fieldErrors: errors });
      },
      setGoal: (goal) => set({ goal }),
      setOptions: (o) => set(o),
      async start() {
        const { skill, values, app, dryRun, screenshots } = get();
        if (!skill) return set({ error: { code: 'ui.no_skill', message: 'Pick a skill first.' } });
        const errors: Record<string, string> = {};
        for (const name of Object.keys(skill.args)) {
          const e = fieldError(skill, name, values[name]);
          if (e) errors[name] = e;
        }
        set({ fieldErrors: errors });
        if (Object.keys(errors).length)
          return set({ error: { code: 'ui.invalid_args', message: 'Fix the highlighted arguments, then run again.' } });
        await begin(
          () => bridge.runStart({ skill: skill.id, args: formArgs(skill, values), dryRun, screenshots, ...(app && { app }) }),
          skill.id,
        );
      },
      async startGoal() {
        const { goal, app, dryRun } = get();
        if (!goal.trim())
          return set({
            error: { code: 'ui.no_goal', message: 'Type what you want done, e.g. "write hello into /tmp/a.txt with mousepad".' },
          });
        await begin(() => bridge.runGoal({ goal, dryRun, ...(app && { app }) }), `goal: ${goal}`);
      },
      async stop() {
        const run = get().run;
        await bridge.runStop(run ? { runId: run.runId } : {});
      },
      handleEvent(e) {
        const run = get().run;
        switch (e.type) {
          case 'run_started':
            // A nested skill's start (depth > 0) belongs to the current run; a new top-level run replaces it.
            if (run && run.runId === e.runId) return;
            if (run && run.status === 'running' && !get().starting) return;
            set({
              run: {
                runId: e.runId,
                skillId: e.skillId,
                ...(e.app && { app: e.app }),
                status: 'running',
                steps: [],
                notes: [],
                startedAt: Date.now(),
              },
            });
            return;
          case 'step_started': {
            if (!run || run.runId !== e.runId) return;
            const step: LiveStep = {
              seq: e.seq,
              depth: e.depth,
              skillId: e.skillId,
              nodeId: e.nodeId,
              primitive: e.primitive,
              resolved: e.resolved,
              startedAt: Date.now(),
              outcome: 'running',
            };
            set({
              run: {
                ...run,
                steps: [...run.steps.filter((s) => s.seq !== e.seq), step],
                current: { skillId: e.skillId, nodeId: e.nodeId },
              },
            });
            return;
          }
          case 'step_finished': {
            const s = e.step;
            if (!run || run.runId !== s.runId) return;
            const done: LiveStep = { ...s, outcome: s.outcome };
            const steps = run.steps.some((x) => x.seq === s.seq)
              ? run.steps.map((x) => (x.seq === s.seq ? done : x))
              : [...run.steps, done];
            set({ run: { ...run, steps } });
            if (s.screenshotPath) void loadThumbnail(s.screenshotPath);
            return;
          }
          case 'backtrack':
            if (!run || run.runId !== e.runId) return;
            set({ run: { ...run, notes: [...run.notes, `${e.skillId}: trying ${e.toNode} after ${e.reason}`] } });
            return;
          case 'note':
            if (!run || run.runId !== e.runId) return;
            set({ run: { ...run, notes: [...run.notes, e.message] } });
            return;
          case 'run_finished': {
            const r = e.result;
            if (!run || run.runId !== r.runId) return;
            set({
              run: {
                ...run,
                status: r.status,
                endedAt: r.endedAt,
                result: r.result,
                ...(r.error && { error: r.error }),
                current: r.status === 'succeeded' ? undefined : run.current,
                steps: run.steps.map((x) =>
                  x.outcome === 'running' ? { ...x, outcome: r.status === 'aborted' ? 'skipped' : 'failed' } : x,
                ),
              },
            });
            return;
          }
        }
      },
    };

    async function loadThumbnail(path: string): Promise<void> {
      if (get().thumbnails[path]) return;
      const r = await bridge.runsScreenshot({ path });
      if (r.ok) set({ thumbnails: { ...get().thumbnails, [path]: r.value.dataUrl } });
    }
  });
}
