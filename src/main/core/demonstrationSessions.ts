import { randomUUID } from 'node:crypto';
import { SkillDeskError } from '../../shared/errors';
import { toIpcError, type LearnEventView, type LearnRecordingView, type LearnResultView } from '../../shared/ipc';
import type { Trajectory } from '../../shared/learning/trajectory';
import { siteOrigin } from '../../shared/skill';
import type { Core } from './Core';
import { coreInducer } from './induction';
import { checkDemonstration, recordDemonstration, showBrowserForDemonstration, type DemonstrationRequest } from './learning';

interface Session {
  view: LearnRecordingView;
  onEvent: (e: LearnEventView) => void;
  /** Ends the demonstration (the person pressed Stop). */
  finish: () => void;
  trajectory: Promise<Trajectory>;
  stopping: boolean;
}

export interface DemonstrationSessionsOptions {
  /** Where the site origins and SKILLDESK_BROWSER_HEADED are read (and the latter defaulted to show the browser). @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * The Learn screen's recordings: `start` answers once a demonstration records (the browser on the
 * site, or the input hook on), `stop` ends it and induces a skill from it. One at a time: a site's
 * recording owns the browser's page and request guard, an app's the global input hook.
 */
export class DemonstrationSessions {
  private readonly sessions = new Map<string, Session>();
  /** A start between its check for another recording and registering its own. */
  private starting = false;

  constructor(
    private readonly core: Core,
    private readonly o: DemonstrationSessionsOptions = {},
  ) {}

  /** The demonstration being recorded (not yet stopped), if any. */
  current(): LearnRecordingView | undefined {
    return [...this.sessions.values()].find((s) => !s.stopping)?.view;
  }

  async start(request: DemonstrationRequest & { method: string }, onEvent: (e: LearnEventView) => void): Promise<LearnRecordingView> {
    const busy = [...this.sessions.values()][0];
    if (busy)
      throw new SkillDeskError(
        'learn.busy',
        busy.stopping
          ? `A demonstration of \`${busy.view.method}\` on \`${busy.view.app}\` is being learned: wait for its result`
          : `A demonstration of \`${busy.view.method}\` on \`${busy.view.app}\` is being recorded: stop it on the Learn screen first`,
      );
    if (this.starting) throw new SkillDeskError('learn.busy', 'Another demonstration is starting: stop it on the Learn screen first');
    this.starting = true;
    try {
      return await this.open(request, onEvent);
    } finally {
      this.starting = false;
    }
  }

  private async open(
    request: DemonstrationRequest & { method: string },
    onEvent: (e: LearnEventView) => void,
  ): Promise<LearnRecordingView> {
    const env = this.o.env ?? process.env;
    const { library } = await this.core.loadLibrary();
    const args = checkDemonstration(library, request);
    const app = library.apps.get(request.app)!;
    const id = randomUUID();
    const where = app.web ? ('browser' as const) : ('desktop' as const);
    if (where === 'browser') showBrowserForDemonstration(env);
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let recording!: () => void;
    const live = new Promise<void>((resolve) => (recording = resolve));
    const trajectory = recordDemonstration(
      this.core,
      request,
      async () => {
        recording();
        await finished;
      },
      { env, openSite: true },
    );
    const origin = app.web ? siteOrigin(app.web, env) : undefined;
    const view: LearnRecordingView = {
      session: id,
      app: request.app,
      method: request.method,
      args,
      where,
      ...(origin && { url: `${origin}${request.start ?? '/'}` }),
    };
    const session: Session = { view, onEvent, finish, trajectory, stopping: false };
    this.sessions.set(id, session);
    let started = false;
    // A recording that fails once it is under way (the browser closed, the hook died) says so at once.
    trajectory.catch((err: unknown) => {
      if (started && this.sessions.get(id) === session && !session.stopping) {
        this.sessions.delete(id);
        onEvent({ session: id, type: 'failed', error: errorOf(err) });
      }
    });
    try {
      await Promise.race([
        live,
        trajectory.then(() => {
          throw new SkillDeskError('learn.ended', 'The recording ended before it began');
        }),
      ]);
    } catch (err) {
      this.sessions.delete(id);
      throw err;
    }
    started = true;
    onEvent({ session: id, type: 'recording', app: view.app, method: view.method, where });
    return view;
  }

  /** Ends the recording and induces a skill from it; the report is kept in `<data-dir>/induction/`. */
  async stop(id: string): Promise<LearnResultView> {
    const s = this.sessions.get(id);
    if (!s) throw new SkillDeskError('learn.no_session', `No recording \`${id}\` under way: it has ended already (or SkillDesk restarted)`);
    if (s.stopping)
      throw new SkillDeskError('learn.stopping', 'This recording is being learned already: its result comes with the first Stop');
    s.stopping = true;
    const emit = (e: LearnEventView) => s.onEvent(e);
    try {
      s.finish();
      const trajectory = await s.trajectory;
      emit({ session: id, type: 'inducing', steps: trajectory.steps.length });
      const inducer = coreInducer(this.core, { onRun: (args) => emit({ session: id, type: 'verifying', args }) });
      const report = await inducer.induce({ trajectory, method: s.view.method });
      const result: LearnResultView = { ...report, reportFile: await inducer.keep(report) };
      emit({ session: id, type: 'finished', result });
      return result;
    } catch (err) {
      emit({ session: id, type: 'failed', error: errorOf(err) });
      throw err;
    } finally {
      this.sessions.delete(id);
    }
  }
}

function errorOf(err: unknown): { code: string; message: string } {
  const { code, message } = toIpcError(err);
  return { code, message };
}
