import {
  contract,
  fail,
  isChannel,
  ok,
  toIpcError,
  type Channel,
  type CoreApi,
  type IpcResult,
  type RequestOf,
  type ResponseOf,
  type RunEventView,
  type RunResultView,
  type ShellMode,
  type StatusView,
} from '../../shared/ipc';
import { describeValue, SkillDeskError } from '../../shared/errors';
import type { EventHub } from './EventHub';
import type { PromptBroker } from './PromptBroker';

type Handlers = { [C in Channel]: (request: RequestOf<C>) => Promise<ResponseOf<C>> };

export interface DispatcherOptions {
  core: CoreApi;
  hub: EventHub;
  mode: ShellMode;
  /** Host mode's in-app prompts; Electron asks through native dialogs and leaves this out. */
  prompts?: PromptBroker;
}

/**
 * Who sends a request. Host mode gives `owner` to the one page that paired first (see
 * HostServer); every other token holder can use the API but not act as the user.
 */
export interface Caller {
  owner: boolean;
}

/**
 * Channels only the owner may call: answering prompts (the user's approval), saving settings
 * (which decide where model API keys are sent), and recording a demonstration (a desktop one
 * hears every key typed while it records) and learning from it.
 */
const OWNER_CHANNELS: ReadonlySet<Channel> = new Set<Channel>([
  'permissions:show',
  'permissions:answer',
  'settings:save',
  'learn:record',
  'learn:stop',
]);

interface Job {
  controller: AbortController;
  skillId: string;
  startedAt: number;
}

/**
 * Transport-neutral request handling: validates every payload against the contract's zod
 * schema, calls the core, and answers with errors as data. Both Electron IPC and host mode's
 * WebSocket call `dispatch`; it also owns the runs in flight (stop, emergency stop, status).
 */
export class Dispatcher {
  private readonly jobs = new Map<string, Job>();
  private readonly handlers: Handlers;

  constructor(private readonly options: DispatcherOptions) {
    const { core } = options;
    this.handlers = {
      'app:info': async () => ({ ...(await core.info()), mode: options.mode }),
      'app:status': async () => this.status(),
      'library:get': () => core.library(),
      'library:reload': async () => {
        const view = await core.reloadLibrary();
        options.hub.emit('library:changed', { reason: 'reload' });
        return view;
      },
      'library:search': (r) => core.searchSkills(r.query, { limit: r.limit, ...(r.app && { app: r.app }) }),
      'library:composition': () => core.composition(),
      'skills:get': (r) => core.getSkill(r.id),
      'skills:save': async (r) => {
        const saved = await core.saveUserSkill(r.doc);
        options.hub.emit('library:changed', { reason: `saved ${saved.skill.id}` });
        return saved;
      },
      'run:start': (r) =>
        this.start(r.skill, (signal, onEvent) =>
          core.runSkill({
            skill: r.skill,
            args: r.args,
            dryRun: r.dryRun,
            screenshotEveryStep: r.screenshots,
            signal,
            onEvent,
            ...(r.app && { app: r.app }),
          }),
        ),
      'run:goal': async (r) => {
        if (!core.runGoal)
          throw Object.assign(new Error('The agent is not available in this build yet: pick a skill and fill its form instead.'), {
            code: 'agent.unavailable',
          });
        const runGoal = core.runGoal.bind(core);
        return this.start(`goal: ${r.goal}`, (signal, onEvent) =>
          runGoal({ goal: r.goal, dryRun: r.dryRun, signal, onEvent, ...(r.app && { app: r.app }) }),
        );
      },
      'run:stop': async (r) => ({ stopped: this.stop(r.runId) }),
      'runs:list': (r) => core.listRuns({ limit: r.limit, ...(r.skill && { skill: r.skill }) }),
      'runs:get': async (r) => {
        const run = await core.getRun(r.id);
        if (!run) throw Object.assign(new Error(`No run \`${r.id}\`; the Runs list shows the recorded ones.`), { code: 'runs.not_found' });
        return run;
      },
      'runs:screenshot': async (r) => ({
        dataUrl: `data:image/png;base64,${Buffer.from(await core.readScreenshot(r.path)).toString('base64')}`,
      }),
      'files:list': (r) => core.listDirectory(r.path, r.showHidden),
      'permissions:pending': async () => options.prompts?.list() ?? [],
      'permissions:show': async (r) => {
        const shown = options.prompts?.show(r.promptId);
        if (!shown)
          throw new SkillDeskError('permissions.expired', 'That request had already been answered or timed out; the step was denied.');
        return shown;
      },
      'permissions:answer': async (r) => ({ accepted: options.prompts?.answer(r.promptId, r.answer, r.nonce) ?? false }),
      'permissions:grants': () => core.listGrants(),
      'permissions:revoke': async (r) => ({ revoked: await core.revokeGrant(r.id) }),
      'permissions:audit': (r) => core.listAudit(r),
      'metrics:get': (r) => core.metrics(r),
      'learn:blueprint': (r) => core.learnBlueprint(r.app),
      'learn:record': (r) => core.learnRecord(r, (e) => options.hub.emit('learn:event', e)),
      'learn:stop': async (r) => {
        const result = await core.learnStop(r.session);
        if (result.status === 'admitted') options.hub.emit('library:changed', { reason: `learned ${result.skillId}` });
        return result;
      },
      'settings:get': () => core.getSettings(),
      'settings:save': (r) => core.saveSettings(r),
      'settings:test': (r) => core.testProvider(r.role),
    };
  }

  /** Validates and handles one request; never throws. */
  async dispatch(channel: unknown, payload: unknown, caller: Caller): Promise<IpcResult<unknown>> {
    if (!isChannel(channel))
      return fail('ipc.unknown_channel', `Expected a contract channel such as \`library:get\`, got ${describeValue(channel)}`);
    if (OWNER_CHANNELS.has(channel) && !caller.owner)
      return fail(
        'ipc.not_owner',
        `Only the SkillDesk page that opened first may call \`${channel}\`: answer prompts and change settings there (or restart SkillDesk).`,
      );
    const parsed = contract[channel].request.safeParse(payload ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
        message: i.message,
      }));
      const first = problems[0]!;
      return fail(
        'ipc.invalid_request',
        `Invalid \`${channel}\` request${first.path.length ? ` at \`${first.path.join('.')}\`` : ''}: ${first.message}`,
        problems,
      );
    }
    try {
      const handler = this.handlers[channel] as (r: unknown) => Promise<unknown>;
      return ok(await handler(parsed.data));
    } catch (err) {
      return { ok: false, error: toIpcError(err) };
    }
  }

  /** Aborts one run or all of them; returns how many were signalled. Pending prompts are denied. */
  stop(runId?: string): number {
    const targets = runId ? [...this.jobs.entries()].filter(([id]) => id === runId) : [...this.jobs.entries()];
    for (const [, job] of targets) job.controller.abort(new Error('stopped by the user'));
    if (!runId) this.options.prompts?.denyAll();
    return targets.length;
  }

  status(): StatusView {
    return {
      running: [...this.jobs.entries()].map(([runId, j]) => ({ runId, skillId: j.skillId, startedAt: j.startedAt })),
      pendingPrompts: this.options.prompts?.list().length ?? 0,
    };
  }

  /** Starts a run and answers as soon as it has an id; its progress streams as `run:event`. */
  private start(
    label: string,
    run: (signal: AbortSignal, onEvent: (e: RunEventView) => void) => Promise<RunResultView>,
  ): Promise<{ runId: string }> {
    const controller = new AbortController();
    const job: Job = { controller, skillId: label, startedAt: Date.now() };
    let runId: string | undefined;
    return new Promise((resolve, reject) => {
      const onEvent = (e: RunEventView): void => {
        if (e.type === 'run_started' && !runId) {
          runId = e.runId;
          job.skillId = e.skillId;
          this.jobs.set(runId, job);
          this.options.hub.emit('app:status', this.status());
          resolve({ runId });
        }
        this.options.hub.emit('run:event', e);
      };
      run(controller.signal, onEvent)
        .then(
          (result) => {
            // Finished without starting: the skill, app or arguments were refused; say why to the caller.
            if (!runId)
              reject(
                Object.assign(new Error(result.error?.message ?? `The run ended ${result.status} before its first step.`), {
                  code: result.error?.code ?? 'run.not_started',
                }),
              );
          },
          (err: unknown) => {
            if (!runId) reject(err);
            else this.options.hub.emit('run:event', { type: 'run_finished', result: failedResult(runId, job, err) });
          },
        )
        .finally(() => {
          if (runId) this.jobs.delete(runId);
          this.options.hub.emit('app:status', this.status());
        });
    });
  }
}

function failedResult(runId: string, job: Job, err: unknown): RunResultView {
  const e = toIpcError(err);
  return {
    runId,
    status: 'failed',
    skillId: job.skillId,
    args: {},
    error: { code: e.code, message: e.message },
    steps: [],
    startedAt: job.startedAt,
    endedAt: Date.now(),
    dryRun: false,
  };
}
