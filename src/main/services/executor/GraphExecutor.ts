import { randomUUID } from 'node:crypto';
import { SkillDeskError } from '../../../shared/errors';
import { abortableSleep } from '../../../shared/sleep';
import {
  bringUpGraph,
  bringsUpItsApp,
  appRunsOn,
  checkArgs,
  guardConditions,
  isWebApp,
  outEdges,
  primitiveInput,
  primitiveInto,
  renderDeep,
  splitRef,
  type AppDoc,
  type ArgValues,
  type Guard,
  type Primitive,
  type Skill,
  type SkillGraph,
} from '../../../shared/skill';
import { appOwningWindow, windowBelongsToApp } from './appWindows';
import { boundedArgs } from './boundedArgs';
import { PermissionDenied, RunAborted, StepFailure, isFatal } from './errors';
import { answerSteps, InterruptionShown, interruptionCandidates, windowShows } from './interruptions';
import { PrimitiveRunner, type FrameApp, type RunWorld } from './PrimitiveRunner';
import { WebPrimitives, isWebPrimitive } from './WebPrimitives';
import type { WindowInfo } from '../../../shared/ports/desktop';
import type { Clock, ExecutorDeps, RunError, RunEvent, RunRequest, RunResult, StepRecord } from './types';

const MAX_CALL_DEPTH = 8;
/**
 * How long a focus handoff (no window focused) may take before input is refused: a popup closing
 * or opening can leave no window focused for over a second on a busy machine (seen at Chromium's
 * bookmark bubble).
 */
const FOCUS_HANDOFF_MS = 3000;

/** Interruptions answered before one step at most (a dialog that comes back every time is a failure). */
const MAX_INTERRUPTIONS = 8;

/** A skill being walked: its arguments, variables and app. */
interface Frame {
  skill: Skill;
  app?: FrameApp;
  scope: Record<string, unknown>;
  depth: number;
  callChain: string[];
}

interface RunCtx {
  runId: string;
  world: RunWorld;
  steps: StepRecord[];
  request: RunRequest;
  emit: (e: RunEvent) => void;
  /** An interruption is being answered: its own steps do not look for interruptions. */
  answering?: boolean;
  /** The last step number given: a step's number is taken when it starts (answers to an interruption it meets come after it). */
  seq: number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => abortableSleep(ms, signal, () => new RunAborted()),
};

/**
 * Walks execution graphs: alternatives by guard then weight, backtracking to the next
 * alternative when a path fails; mediation before every primitive; every step journaled.
 */
export class GraphExecutor {
  private readonly clock: Clock;
  private readonly primitives: PrimitiveRunner;

  constructor(private readonly deps: ExecutorDeps) {
    this.clock = deps.clock ?? systemClock;
    this.primitives = new PrimitiveRunner(deps, this.clock);
  }

  /**
   * Resolves the app (explicit, the focused window's, the configured default for the domain, or the
   * only app of this platform implementing it), validates args, runs, records.
   */
  async run(request: RunRequest): Promise<RunResult> {
    const runId = randomUUID();
    const startedAt = this.clock.now();
    const dryRun = request.dryRun ?? false;
    const steps: StepRecord[] = [];
    const emit = (e: RunEvent) => request.onEvent?.(e);
    let skillId = request.skill;
    let appId = request.app;
    const args = request.args ?? {};
    const finish = (status: RunResult['status'], extra: { error?: RunError; result?: unknown }): RunResult => {
      // The failing node is the last step that failed or was denied.
      const failed = extra.error && steps.findLast((s) => s.outcome === 'failed' || s.outcome === 'denied' || s.outcome === 'skipped');
      if (extra.error && failed) extra.error = { ...extra.error, skillId: failed.skillId, nodeId: failed.nodeId };
      const result: RunResult = {
        runId,
        status,
        skillId,
        ...(appId && { app: appId }),
        args,
        steps,
        startedAt,
        endedAt: this.clock.now(),
        dryRun,
        ...extra,
      };
      this.deps.journal?.finishRun(runId, { status, endedAt: result.endedAt, ...extra });
      emit({ type: 'run_finished', result });
      return result;
    };
    const journalStart = (kept: Record<string, unknown>) =>
      this.deps.journal?.startRun({
        id: runId,
        skillId,
        ...(appId && { app: appId }),
        args: kept,
        dryRun,
        startedAt,
        ...parentOf(request),
      });
    let skill: Skill;
    let values: ArgValues;
    try {
      appId = appId ?? (await this.inferApp(request.skill, dryRun));
      skill = this.deps.library.resolve(request.skill, appId);
      skillId = skill.id;
      appId = skill.app ?? appId;
      values = this.checkArgs(skill, args, appId);
    } catch (err) {
      // Arguments that were refused are kept only in part: they may be anything, of any size.
      journalStart(boundedArgs(args));
      return finish('failed', { error: toRunError(err) });
    }
    journalStart(values);
    emit({ type: 'run_started', runId, skillId, ...(appId && { app: appId }), args: values });
    const web = new WebPrimitives({
      ...(this.deps.browser && { browser: this.deps.browser }),
      mediator: this.deps.mediator,
      sessionId: this.deps.sessionId ?? 'default',
      runId,
      dryRun,
      ...(request.signal && { signal: request.signal }),
      env: this.deps.env ?? process.env,
      now: () => this.clock.now(),
    });
    // A website has no windows: its runs never look at the desktop.
    const website = appId !== undefined && isWebApp(this.deps.library.apps.get(appId) ?? { platforms: [] });
    const world: RunWorld = {
      dryRun,
      currentWindow: new Map(),
      initialWindowIds: new Set(dryRun || website ? [] : (await this.deps.desktop.windows.list()).map((w) => w.id)),
      seenWindowIds: new Set(),
      lookedAtWindowIds: new Set(),
      workWindow: new Map(),
      ...(request.signal && { signal: request.signal }),
      web,
    };
    const ctx: RunCtx = { runId, world, steps, request, emit, seq: 0 };
    try {
      const result = await this.runSkill(ctx, skill, appId, values, 0, []);
      return finish('succeeded', result === undefined ? {} : { result });
    } catch (err) {
      return finish(err instanceof RunAborted ? 'aborted' : 'failed', { error: toRunError(err) });
    } finally {
      web.finish();
    }
  }

  private async inferApp(ref: string, dryRun: boolean): Promise<string | undefined> {
    const { library, desktop, defaultApps } = this.deps;
    const { head } = splitRef(ref);
    if (!library.interfaces.has(head)) return undefined; // a concrete skill names its app
    const implementers = library.implementers(head);
    // Websites have no windows: the focused one says nothing about which site is meant.
    const websitesOnly = implementers.length > 0 && implementers.every((id) => isWebApp(library.apps.get(id) ?? { platforms: [] }));
    if (!dryRun && !websitesOnly) {
      const active = await desktop.windows.active();
      const owner = active && appOwningWindow(library, active, desktop.platform);
      if (owner && library.appImplements(owner, head)) return owner;
    }
    const configured = defaultApps?.[head];
    if (configured) return configured;
    // A universal interface acts on whatever window has the focus: no app is picked for it.
    if (library.interfaces.get(head)?.universal) return undefined;
    // With no choice to make, make none: the only app of this platform that implements the domain.
    const here = implementers.filter((id) => appRunsOn(library.apps.get(id) ?? { platforms: [] }, desktop.platform));
    return here.length === 1 ? here[0] : undefined;
  }

  private checkArgs(skill: Skill, raw: Record<string, unknown>, appId: string | undefined): ArgValues {
    const platform = appId ? this.deps.library.apps.get(appId)?.platforms[0] : this.deps.desktop.platform;
    const res = checkArgs(skill.args, raw, { pathStyle: platform === 'win32' ? 'win32' : 'posix' });
    if (!res.ok) throw new SkillDeskError('args.invalid', `Arguments of \`${skill.id}\` are invalid:\n  ${res.errors.join('\n  ')}`);
    return res.values;
  }

  private async runSkill(
    ctx: RunCtx,
    skill: Skill,
    appId: string | undefined,
    args: ArgValues,
    depth: number,
    chain: string[],
  ): Promise<unknown> {
    const profile = appId ? this.deps.library.apps.get(appId) : undefined;
    const frame: Frame = {
      skill,
      scope: { ...args },
      depth,
      callChain: [...chain, skill.id],
      ...(profile && { app: { id: profile.id, profile } }),
    };
    const launch = frame.app?.profile.launch;
    if (frame.app && launch && !ctx.world.dryRun && bringsUpItsApp(skill) && !(await this.appIsOpen(frame.app.profile))) {
      const bringUp = bringUpGraph(launch.startupMs);
      await this.walk(ctx, frame, bringUp, bringUp.start);
    }
    await this.walk(ctx, frame, skill.graph, skill.graph.start);
    if (skill.verify && !ctx.world.dryRun) await this.verify(ctx, frame);
    return coerceResult(frame.scope.result, skill);
  }

  /** Whether any window of the app is open on the desktop. */
  private async appIsOpen(profile: AppDoc): Promise<boolean> {
    return (await this.deps.desktop.windows.list()).some((w) => windowBelongsToApp(w, profile.windows));
  }

  /** Depth-first walk; on a failing path, the next eligible alternative is tried. */
  private async walk(ctx: RunCtx, frame: Frame, graph: SkillGraph, nodeId: string): Promise<void> {
    const node = graph.nodes.find((n) => n.id === nodeId);
    if (!node) throw new StepFailure('graph.bad_node', `Node \`${nodeId}\` does not exist in \`${frame.skill.id}\``);
    if (node.kind === 'terminal') {
      if (node.outcome === 'failure')
        throw new StepFailure('graph.failure_terminal', node.message ?? `\`${frame.skill.id}\` reached failure node \`${node.id}\``);
      return;
    }
    await this.step(ctx, frame, node.id, node.primitive, node.screenshot ?? false);
    const edges = outEdges(graph, nodeId);
    if (edges.length === 0) return;
    const eligible = [];
    for (const e of edges) {
      if (!e.when) {
        eligible.push(e);
        continue;
      }
      const guard = renderDeep(e.when, frame.scope);
      await this.mediateGuard(ctx, frame, `${nodeId}->${e.to}`, e.when, guard);
      if (await this.primitives.guardHolds(guard, frame.scope, frame.app, ctx.world)) eligible.push(e);
    }
    if (eligible.length === 0)
      throw new StepFailure('graph.no_branch', `No guard matched after node \`${nodeId}\` of \`${frame.skill.id}\``);
    let lastError: unknown;
    for (const [i, e] of eligible.entries()) {
      try {
        return await this.walk(ctx, frame, graph, e.to);
      } catch (err) {
        if (isFatal(err)) throw err;
        lastError = err;
        const next = eligible[i + 1];
        if (next)
          ctx.emit({
            type: 'backtrack',
            runId: ctx.runId,
            skillId: frame.skill.id,
            fromNode: e.to,
            toNode: next.to,
            reason: (err as Error).message,
          });
      }
    }
    throw lastError;
  }

  /** One primitive: abort check, template resolution, mediation, execution, journal. */
  private async step(ctx: RunCtx, frame: Frame, nodeId: string, raw: Primitive, screenshot: boolean): Promise<void> {
    if (ctx.world.signal?.aborted) throw new RunAborted();
    if (frame.app && !ctx.world.dryRun && !ctx.answering) {
      if (primitiveInput(raw) || raw.action === 'focus_window') await this.answerInterruptions(ctx, frame, frame.app);
      else if (raw.action === 'wait_for_window' && raw.title === undefined)
        await this.answerStartupInterruption(ctx, frame, frame.app, raw.timeoutMs ?? 10_000);
    }
    const seq = ++ctx.seq;
    const startedAt = this.clock.now();
    let resolved: Primitive = raw;
    const base = {
      runId: ctx.runId,
      seq,
      depth: frame.depth,
      skillId: frame.skill.id,
      ...(frame.app && { app: frame.app.id }),
      nodeId,
      primitive: raw.action,
    };
    const record = (outcome: StepRecord['outcome'], error?: string, screenshotPath?: string): StepRecord => {
      const rec: StepRecord = {
        ...base,
        resolved: resolved as unknown as Record<string, unknown>,
        startedAt,
        endedAt: this.clock.now(),
        outcome,
        ...(error && { error }),
        ...(screenshotPath && { screenshotPath }),
      };
      ctx.steps.push(rec);
      this.deps.journal?.recordStep(rec);
      ctx.emit({ type: 'step_finished', step: rec });
      return rec;
    };
    try {
      // A call hands typed arguments on; every other primitive's fields are text (a number typed is its digits).
      resolved = renderDeep(raw, frame.scope, { asText: raw.action !== 'call' });
    } catch (err) {
      record('failed', (err as Error).message);
      throw new StepFailure('template.failed', (err as Error).message);
    }
    // Journaled before mediation and the effect: a crash from here on leaves the step as 'started'.
    this.deps.journal?.startStep({ ...base, resolved: resolved as unknown as Record<string, unknown>, startedAt });
    ctx.emit({ type: 'step_started', ...base, resolved: resolved as unknown as Record<string, unknown> });
    if (resolved.action === 'call') {
      // A method the app does not implement fails as such, before anything is asked for or run.
      try {
        this.deps.library.resolve(resolved.skill, frame.app?.id);
      } catch (err) {
        record('failed', (err as Error).message);
        throw err;
      }
    }
    const decision = await this.mediate(ctx, frame, nodeId, resolved, raw, screenshot);
    if (decision.effect === 'deny') {
      record('denied', decision.reason);
      throw new PermissionDenied(decision.code, decision.reason);
    }
    if (decision.prompted && primitiveInput(resolved) && frame.app && !ctx.world.dryRun) {
      // The approval dialog took focus; give it back to the app's window before typing or clicking.
      const win = ctx.world.currentWindow.get(frame.app.id);
      if (win) await this.deps.desktop.windows.focus(win.id);
    }
    const stale = decision.recheck?.();
    if (stale) {
      record('denied', stale);
      throw new PermissionDenied('permission.changed_since_check', stale);
    }
    if (resolved.action === 'call') {
      record('ok'); // the call itself; the callee's steps follow at depth + 1
      const value = await this.call(ctx, frame, resolved);
      if (resolved.into) frame.scope[resolved.into] = value;
      return;
    }
    const onPage = isWebPrimitive(resolved);
    if (onPage)
      ctx.world.web.enter({
        skill: frame.skill,
        nodeId,
        args: frame.scope as ArgValues,
        ...(frame.app && { app: frame.app.id }),
        callChain: frame.callChain,
        primitive: resolved,
      });
    try {
      const value = await this.runAnswering(ctx, frame, resolved);
      const into = primitiveInto(resolved);
      if (into) frame.scope[into] = value;
      const shot = screenshot || ctx.request.screenshotEveryStep ? await this.screenshot(ctx, seq, onPage) : undefined;
      record('ok', undefined, shot);
    } catch (err) {
      const shot =
        !ctx.world.dryRun && !(err instanceof RunAborted) ? await this.screenshot(ctx, seq, onPage).catch(() => undefined) : undefined;
      // A request the step's page sent was denied (WebPrimitives): the step is a denial, not a failure.
      record(err instanceof RunAborted ? 'skipped' : err instanceof PermissionDenied ? 'denied' : 'failed', (err as Error).message, shot);
      throw err instanceof SkillDeskError ? err : new StepFailure('step.failed', (err as Error).message);
    }
  }

  /**
   * Runs a primitive; when a wait of it meets one of the app's known interruptions (a crash
   * question that holds the app back), answers it and runs the primitive again, within bounds.
   */
  private async runAnswering(ctx: RunCtx, frame: Frame, p: Exclude<Primitive, { action: 'call' }>): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.primitives.run(p, frame.app, ctx.world);
      } catch (err) {
        if (!(err instanceof InterruptionShown) || !frame.app || ctx.answering || attempt >= MAX_INTERRUPTIONS) throw err;
        await this.answerInterruptions(ctx, frame, frame.app);
      }
    }
  }

  /**
   * Answers the app's known interruptions that are open (a crash-recovery question...) before a
   * step sends it input, as the app profile says a careful user would: each answer is a
   * mediated, journaled step `(interruption: id)`. One that stays open fails the run.
   */
  private async answerInterruptions(ctx: RunCtx, frame: Frame, app: FrameApp): Promise<void> {
    let closed = false;
    for (let answered = 0; ; answered++) {
      const open = await this.openInterruption(ctx, frame, app);
      if (!open) {
        // An interruption at start-up stood in for the main window, which comes once it is answered.
        if (closed) await this.primitives.waitForMainWindow(app, ctx.world);
        return;
      }
      if (answered >= MAX_INTERRUPTIONS)
        throw new StepFailure(
          'interruption.unanswered',
          `\`${app.id}\` keeps showing "${open.window.title}" (${open.interruption.id}) after ${answered} answers`,
        );
      ctx.answering = true;
      try {
        for (const step of answerSteps(open.interruption))
          await this.step(ctx, frame, `(interruption: ${open.interruption.id})`, step, false);
      } catch (err) {
        // A dialog the interruption brought up meanwhile holds the focus (a recovery's error box):
        // it is looked for and answered first, within the same bound.
        if (!(err instanceof SkillDeskError && err.code === 'window.focus_failed') || answered + 1 >= MAX_INTERRUPTIONS) throw err;
        continue;
      } finally {
        ctx.answering = false;
      }
      // The window the run had in hand may have been the interruption itself.
      ctx.world.currentWindow.delete(app.id);
      const gone = await this.primitives.waitUntilGone(open.window.id, ctx.world);
      // A dialog of several pages (a recovery wizard's Start, then Finish) is answered again, within bounds.
      if (!gone && answered + 1 >= MAX_INTERRUPTIONS)
        throw new StepFailure(
          'interruption.unanswered',
          `"${open.window.title}" (${open.interruption.id}) of \`${app.id}\` stayed open after its answer, ${answered + 1} times`,
        );
      // Gone: another may still be open (the one a dialog it brought up depended on).
      closed ||= gone;
    }
  }

  /**
   * While a skill waits for its app's main window (bringing it up), a known interruption can come
   * first and hold it back (LibreOffice's Document Recovery after a crash): whichever shows first,
   * the main window ends the wait, the interruption is answered.
   */
  private async answerStartupInterruption(ctx: RunCtx, frame: Frame, app: FrameApp, timeoutMs: number): Promise<void> {
    if (app.profile.interruptions.length === 0) return;
    const deadline = this.clock.now() + timeoutMs;
    while (this.clock.now() < deadline) {
      if ((await this.deps.desktop.windows.list()).some((w) => windowBelongsToApp(w, app.profile.windows, true))) return;
      if ((await interruptionCandidates(this.deps.desktop, app)).length > 0) return this.answerInterruptions(ctx, frame, app);
      await this.clock.sleep(200, ctx.world.signal);
    }
  }

  /** The first known interruption that is open: its title matches, and its text, when it has one, reads in that window. */
  private async openInterruption(ctx: RunCtx, frame: Frame, app: FrameApp) {
    for (const candidate of await interruptionCandidates(this.deps.desktop, app)) {
      const text = candidate.interruption.text;
      if (text === undefined) return candidate;
      // Which of the app's known questions this is, read in its own dialog by the executor, as the
      // stray-dialog watch reads it: what is read goes to no skill (it only picks one of the
      // profile's answers), and each answer is a mediated, journaled step of its own. The text
      // looked for is the profile's: one SkillDesk ships is trusted with it, but one a user
      // installed could ask about anything on screen and learn the answer from which keys get
      // pressed, so its look is the running skill's own reading of the screen, mediated as such.
      if (this.deps.library.apps.get(app.id)?.source.origin !== 'builtin') {
        const read: Primitive = { action: 'wait_until', condition: { kind: 'text_visible', text } };
        const decision = await this.mediate(ctx, frame, `(interruption: ${candidate.interruption.id})`, read, read, false);
        if (decision.effect === 'deny') throw new PermissionDenied(decision.code, decision.reason);
      }
      if (await windowShows(this.deps.grounder, this.deps.desktop, candidate.window, text)) return candidate;
    }
    return undefined;
  }

  /**
   * A guard that reads the desktop (a window title, a file's existence) is an observation like a
   * `wait_until`: each condition it reads is mediated before it is evaluated; a deny ends the run.
   */
  private async mediateGuard(ctx: RunCtx, frame: Frame, edge: string, raw: Guard, guard: Guard): Promise<void> {
    const rawConditions = guardConditions(raw);
    for (const [i, condition] of guardConditions(guard).entries()) {
      const read: Primitive = { action: 'wait_until', condition };
      const template: Primitive = { action: 'wait_until', condition: rawConditions[i] ?? condition };
      const decision = await this.mediate(ctx, frame, `${edge} (guard)`, read, template, false);
      if (decision.effect === 'deny') throw new PermissionDenied(decision.code, decision.reason);
    }
  }

  private async mediate(ctx: RunCtx, frame: Frame, nodeId: string, primitive: Primitive, raw: Primitive, screenshot: boolean) {
    // Live input: who has the focus right now (unknown or another program's window is a deny).
    const live = primitiveInput(primitive) !== undefined && !ctx.world.dryRun;
    const active = live ? await this.focusedWindow(ctx) : undefined;
    return this.deps.mediator.check(
      {
        sessionId: this.deps.sessionId ?? 'default',
        runId: ctx.runId,
        skill: frame.skill,
        nodeId,
        primitive,
        raw,
        screenshot,
        args: frame.scope as ArgValues,
        callChain: frame.callChain,
        ...(frame.app && { app: frame.app.id }),
        ...(active && { activeWindow: active }),
        ...(live && {
          activeWindowIsApp: active !== undefined && frame.app !== undefined && windowBelongsToApp(active, frame.app.profile.windows),
        }),
      },
      ctx.world.signal,
    );
  }

  /**
   * The focused window. Between a dialog closing and its owner taking the focus back, no window
   * has it for a moment (seen on Windows and X11): a missing answer is asked again for up to a
   * second. Another program's window is answered at once (the mediator denies input to it).
   */
  private async focusedWindow(ctx: RunCtx): Promise<WindowInfo | undefined> {
    const until = this.clock.now() + FOCUS_HANDOFF_MS;
    for (;;) {
      const active = await this.deps.desktop.windows.active();
      if (active || this.clock.now() >= until) return active;
      await this.clock.sleep(50, ctx.world.signal);
    }
  }

  private async call(ctx: RunCtx, frame: Frame, p: Extract<Primitive, { action: 'call' }>): Promise<unknown> {
    if (frame.depth + 1 > MAX_CALL_DEPTH)
      throw new StepFailure('call.too_deep', `Calls nest deeper than ${MAX_CALL_DEPTH} at \`${p.skill}\``);
    const callee = this.deps.library.resolve(p.skill, frame.app?.id);
    const appId = callee.app ?? frame.app?.id;
    const args = this.checkArgs(callee, p.args ?? {}, appId);
    return this.runSkill(ctx, callee, appId, args, frame.depth + 1, frame.callChain);
  }

  private async verify(ctx: RunCtx, frame: Frame): Promise<void> {
    const v = frame.skill.verify!;
    await this.step(ctx, frame, '(verify)', { action: 'wait_until', condition: v.condition, timeoutMs: v.timeoutMs ?? 5000 }, false);
  }

  /** A screenshot after step `seq`: of the desktop, or of the web page for a web step. */
  private async screenshot(ctx: RunCtx, seq: number, ofPage = false): Promise<string | undefined> {
    const { screenshotDir, saveScreenshot, desktop } = this.deps;
    if (!screenshotDir || !saveScreenshot || ctx.world.dryRun) return undefined;
    const png = ofPage ? await ctx.world.web.screenshot() : (await desktop.screen.capture()).png;
    if (!png) return undefined;
    const path = `${screenshotDir}/${ctx.runId}-${String(seq).padStart(4, '0')}.png`;
    await saveScreenshot(path, png);
    return path;
  }
}

function parentOf(r: RunRequest) {
  return { ...(r.parentRunId && { parentRunId: r.parentRunId }), ...(r.goal && { goal: r.goal }) };
}

function toRunError(err: unknown): RunError {
  if (err instanceof SkillDeskError) return { code: err.code, message: err.message };
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** Types the skill's result by its `returns`; numbers tolerate display formatting (U+2212 minus, separators). */
function coerceResult(value: unknown, skill: Skill): unknown {
  if (value === undefined || skill.returns?.type !== 'number') return value;
  const text = String(value)
    .replace(/\u2212/g, '-')
    .replace(/[,\s\u2009\u202f]/g, '');
  const n = Number(text);
  if (!Number.isFinite(n))
    throw new StepFailure('result.not_number', `\`${skill.id}\` should return a number, got ${JSON.stringify(value)}`);
  return n;
}
