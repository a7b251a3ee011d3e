import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  IpcError,
  LearnAppView,
  LearnBlueprintView,
  LearnEventView,
  LearnMethodView,
  LearnRecordingView,
  LearnResultView,
  SkillDeskBridge,
} from '../../../../shared/ipc';
import { assertNever } from '../../../../shared/errors';
import type { ArgValues } from '../../../../shared/skill';
import { fieldError, formArgs } from '../run/runStore';

export type LearnBridge = Pick<SkillDeskBridge, 'learnBlueprint' | 'learnRecord' | 'learnStop'>;

/**
 * Where a demonstration is: the form being filled (`idle`), the recording asked for (`starting`),
 * the person demonstrating (`recording`), induction and its re-executions (`learning`), the result
 * shown (`done`).
 */
export type LearnPhase = 'idle' | 'starting' | 'recording' | 'learning' | 'done';

export interface LearnState {
  apps: LearnAppView[];
  app?: string;
  blueprint?: LearnBlueprintView['blueprint'];
  /** The method "Show me how" picked: what the form and the recording are for. */
  method?: LearnMethodView;
  /** Raw form values, as typed. */
  values: Record<string, string | boolean>;
  fieldErrors: Record<string, string>;
  /** A site's start page (a path); empty: its home page, opened as the first step. */
  start: string;
  phase: LearnPhase;
  recording?: LearnRecordingView;
  /** What induction is doing, one line per event. */
  progress: string[];
  result?: LearnResultView;
  loading: boolean;
  error?: IpcError;
  /** Reads every app's missing count and the chosen app's blueprint (the first site left to learn when none is chosen). */
  load(): Promise<void>;
  selectApp(app: string): Promise<void>;
  /** Guided mode: picks a method to demonstrate and fills the form with values to demonstrate it with. */
  showMeHow(ref: string): void;
  setValue(name: string, raw: string | boolean): void;
  setStart(path: string): void;
  record(): Promise<void>;
  stop(): Promise<void>;
  /** Back to the blueprint, for the next method. */
  reset(): void;
  /** Applies a `learn:event` from main. */
  handleEvent(e: LearnEventView): void;
}

/** An example value as the form holds it: booleans as checkboxes, lists one item per line. */
function formValue(v: ArgValues[string] | undefined): string | boolean {
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.join('\n');
  return v === undefined ? '' : String(v);
}

/** The form's raw values for a method, from its example values. */
export function exampleValues(method: LearnMethodView): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const [name, spec] of Object.entries(method.args))
    out[name] = spec.type === 'boolean' ? method.example[name] === true : formValue(method.example[name]);
  return out;
}

/** An intent with the form's values in its slots: `search the shop for ${query}` -> `search the shop for mug`. */
export function phrase(intent: string, values: Record<string, string | boolean>): string {
  return intent.replace(/\$\{(\w+)\}/g, (slot, name: string) => {
    const v = values[name];
    return v === undefined || v === '' ? slot : String(v);
  });
}

/** The first site with methods left to learn that can be recorded here, else the first such app. */
function firstToLearn(apps: LearnAppView[]): string | undefined {
  const open = apps.filter((a) => a.missing > 0 && !a.unavailable);
  return (open.find((a) => a.kind === 'site') ?? open[0])?.id;
}

/** The Learn screen: what apps lack, a demonstration recorded for one method, and what induction made of it. */
export function createLearnStore(bridge: LearnBridge): StoreApi<LearnState> {
  return createStore<LearnState>((set, get) => {
    // Bumped by every load: the blueprint of an app the user has since left is dropped.
    let generation = 0;
    const fetch = async (app: string | undefined) => {
      const mine = ++generation;
      set({ loading: true });
      const r = await bridge.learnBlueprint(app === undefined ? {} : { app });
      if (mine !== generation) return undefined;
      if (!r.ok) {
        set({ loading: false, error: r.error });
        return undefined;
      }
      set({ loading: false, apps: r.value.apps, blueprint: r.value.blueprint });
      return r.value;
    };
    return {
      apps: [],
      values: {},
      fieldErrors: {},
      start: '',
      phase: 'idle',
      progress: [],
      loading: false,
      async load() {
        const app = get().app;
        const view = await fetch(app);
        if (!view) return;
        // A demonstration main is recording that this screen does not know (the window reloaded): take it up, to stop it.
        const under = view.recording;
        if (under && get().recording?.session !== under.session && get().phase !== 'learning') {
          if (under.app !== app) await get().selectApp(under.app);
          const method = get().blueprint?.methods.find((m) => m.ref === under.method);
          const values: Record<string, string | boolean> = {};
          for (const [name, v] of Object.entries(under.args)) values[name] = formValue(v);
          return set({ recording: under, phase: 'recording', values, progress: [], ...(method && { method }) });
        }
        if (app !== undefined) return;
        const first = firstToLearn(view.apps);
        if (first !== undefined && get().app === undefined) await get().selectApp(first);
      },
      async selectApp(app) {
        if (get().phase === 'recording' || get().phase === 'learning') return;
        set({
          app,
          blueprint: undefined,
          method: undefined,
          values: {},
          fieldErrors: {},
          start: '',
          result: undefined,
          error: undefined,
          phase: 'idle',
        });
        await fetch(app);
      },
      showMeHow(ref) {
        if (get().phase === 'recording' || get().phase === 'learning') return;
        const method = get().blueprint?.methods.find((m) => m.ref === ref);
        if (!method) return;
        set({ method, values: exampleValues(method), fieldErrors: {}, result: undefined, error: undefined, progress: [], phase: 'idle' });
      },
      setValue(name, raw) {
        const { method, values, fieldErrors, app } = get();
        const errors = { ...fieldErrors };
        const err = method ? fieldError({ args: method.args, ...(app && { app }) }, name, raw) : undefined;
        if (err) errors[name] = err;
        else delete errors[name];
        set({ values: { ...values, [name]: raw }, fieldErrors: errors });
      },
      setStart: (start) => set({ start }),
      async record() {
        const { method, values, app, start, blueprint, phase } = get();
        if (phase === 'starting' || phase === 'recording' || phase === 'learning') return;
        if (!method || !app) return set({ error: { code: 'ui.no_method', message: 'Pick a method to show, with "Show me how".' } });
        const errors: Record<string, string> = {};
        for (const name of Object.keys(method.args)) {
          const e = fieldError({ args: method.args, app }, name, values[name]);
          if (e) errors[name] = e;
        }
        set({ fieldErrors: errors });
        if (Object.keys(errors).length)
          return set({ error: { code: 'ui.invalid_args', message: 'Fix the highlighted values, then record again.' } });
        set({ phase: 'starting', error: undefined, result: undefined, progress: [] });
        const path = start.trim();
        const r = await bridge.learnRecord({
          app,
          method: method.ref,
          args: formArgs({ args: method.args }, values),
          ...(blueprint?.kind === 'site' && path && { start: path.startsWith('/') ? path : `/${path}` }),
        });
        set(r.ok ? { phase: 'recording', recording: r.value } : { phase: 'idle', error: r.error });
      },
      async stop() {
        const { recording, phase } = get();
        if (!recording || phase !== 'recording') return;
        set({ phase: 'learning', progress: ['Recording stopped.'] });
        const r = await bridge.learnStop({ session: recording.session });
        if (!r.ok) return set({ phase: 'idle', recording: undefined, error: r.error });
        set({ phase: 'done', result: r.value, recording: undefined });
        // A learned method leaves the blueprint; the counts change.
        if (r.value.status === 'admitted') await fetch(get().app);
      },
      reset() {
        if (get().phase === 'recording' || get().phase === 'learning') return;
        set({
          method: undefined,
          values: {},
          fieldErrors: {},
          start: '',
          result: undefined,
          error: undefined,
          progress: [],
          phase: 'idle',
        });
      },
      handleEvent(e) {
        const { recording, progress, phase } = get();
        if (!recording || e.session !== recording.session) return;
        switch (e.type) {
          case 'recording':
            return;
          case 'inducing':
            return set({ progress: [...progress, `Learning from ${e.steps} recorded step${e.steps === 1 ? '' : 's'}…`] });
          case 'verifying':
            return set({ progress: [...progress, `Re-executing on ${JSON.stringify(e.args)} to verify…`] });
          case 'finished':
            return set({ progress: [...progress, e.result.status === 'admitted' ? 'Verified.' : 'Not verified.'] });
          case 'failed':
            // A recording that broke while the person demonstrated; a failed Stop answers with its own error.
            if (phase === 'recording') set({ phase: 'idle', recording: undefined, error: e.error });
            return;
          default:
            return assertNever(e, 'learn event');
        }
      },
    };
  });
}
