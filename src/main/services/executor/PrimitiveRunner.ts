import type { Point, WindowInfo } from '../../../shared/ports/desktop';
import type { InspectResult } from '../../../shared/ports/grounding';
import {
  argGuardHolds,
  guardConditions,
  type AppDoc,
  type Guard,
  type Primitive,
  type Target,
  type WaitCondition,
} from '../../../shared/skill';
import { hasState, jsonEquals, jsonPointer } from './conditionChecks';
import { assertNever } from '../../../shared/errors';
import { repeatCount } from '../../../shared/skill/primitives';
import { firstUntypable } from '../../../shared/text';
import { windowBelongsToApp } from './appWindows';
import { RunAborted, StepFailure } from './errors';
import { StrayDialogWatch } from './strayDialogs';
import type { Clock, ExecutorDeps } from './types';
import { isWebPrimitive, type WebPrimitives } from './WebPrimitives';

/** Per-run state shared by every frame: which window each app is working in. */
export interface RunWorld {
  dryRun: boolean;
  signal?: AbortSignal;
  /** The window a skill last waited for or focused, per app. */
  currentWindow: Map<string, WindowInfo>;
  /** The last of those that is no dialog, per app: the window the skill works in (`current` conditions). */
  workWindow: Map<string, WindowInfo>;
  /** Window ids present when the run began: new windows are preferred when waiting. */
  initialWindowIds: Set<string>;
  /** Window ids the run has focused or waited for so far: `fresh` waits look past them. */
  seenWindowIds: Set<string>;
  /** Window ids a condition or guard of the run found by title: the skill knows of them (StrayDialogWatch). */
  lookedAtWindowIds: Set<string>;
  /** The run's web steps (its page in SkillDesk's browser). */
  web: WebPrimitives;
}

/** The app a frame drives, with its profile. */
export interface FrameApp {
  id: string;
  profile: AppDoc;
}

const DEFAULT_WAIT_MS = 10_000;

/** Executes single primitives against the desktop ports. Template resolution and mediation happen before. */
export class PrimitiveRunner {
  private readonly clock: Clock;
  private readonly pollMs: number;

  constructor(
    private readonly deps: ExecutorDeps,
    clock: Clock,
  ) {
    this.clock = clock;
    this.pollMs = deps.pollMs ?? 100;
  }

  /** Runs `p` (already resolved). Returns a value for primitives that produce one (`read`, `run_script`). */
  async run(p: Exclude<Primitive, { action: 'call' }>, app: FrameApp | undefined, world: RunWorld): Promise<unknown> {
    const { desktop } = this.deps;
    switch (p.action) {
      case 'launch': {
        const { id, profile } = requireApp(app, p.action);
        const launch = profile.launch;
        if (!launch)
          throw new StepFailure('launch.none', `\`${id}\` is a website: nothing is launched, its skills open pages (\`web_navigate\`)`);
        await desktop.processes.launch({
          command: launch.command,
          args: [...launch.args, ...(p.args ?? [])],
          ...(launch.env && { env: launch.env }),
        });
        return undefined;
      }
      case 'focus_window': {
        const a = requireApp(app, p.action);
        const win = world.dryRun ? dryWindow(a, p.title) : await this.findWindow(a, p.title, world);
        if (!win)
          throw new StepFailure(
            'window.not_found',
            `No window of \`${a.id}\`${p.title ? ` titled /${p.title}/` : ''} to focus; is the app running?`,
          );
        await desktop.windows.focus(win.id);
        holdWindow(world, a.id, win);
        world.seenWindowIds.add(win.id);
        return undefined;
      }
      case 'wait_for_window': {
        const a = requireApp(app, p.action);
        const timeout = p.timeoutMs ?? DEFAULT_WAIT_MS;
        // A fresh window is one neither there when the run began nor dealt with since.
        const known = p.fresh ? new Set([...world.initialWindowIds, ...world.seenWindowIds]) : undefined;
        const titled = p.title === undefined ? undefined : new RegExp(p.title, 'u');
        const strays = this.strayWatch(a, world, (w) => (titled ? titled.test(w.title) : windowBelongsToApp(w, a.profile.windows, true)), {
          what: `a window${p.title ? ` titled /${p.title}/` : ''}`,
        });
        const win = world.dryRun
          ? dryWindow(a, p.title)
          : await this.poll(timeout, world.signal, async () => {
              const hit = await this.findWindow(a, p.title, world, true, known);
              if (!hit) await strays?.check();
              return hit;
            });
        if (!win)
          throw new StepFailure(
            'window.timeout',
            `No window of \`${a.id}\`${p.title ? ` titled /${p.title}/` : ''} appeared within ${timeout} ms; ${await this.shownWindows(a)}`,
          );
        await desktop.windows.focus(win.id);
        holdWindow(world, a.id, win);
        world.seenWindowIds.add(win.id);
        return undefined;
      }
      case 'key':
        for (let i = repeats(p.repeat); i > 0; i--) await desktop.input.pressKey(p.key);
        return undefined;
      case 'hotkey':
        for (let i = repeats(p.repeat); i > 0; i--) await desktop.input.hotkey(p.keys);
        return undefined;
      case 'type_text':
        typable(p.text);
        await desktop.input.typeText(p.text);
        return undefined;
      case 'paste_text':
        typable(p.text);
        await desktop.clipboard.writeText(p.text);
        await desktop.input.hotkey(p.keys ?? ['Control', 'v']);
        return undefined;
      case 'click':
      case 'double_click':
      case 'right_click': {
        const at = await this.locate(p.target, app, world);
        await desktop.input.click(at, p.action === 'right_click' ? 'right' : 'left', p.action === 'double_click' ? 2 : 1);
        await this.expectEffect(p, at, app, world);
        return undefined;
      }
      case 'drag': {
        const at = await this.locate(p.from, app, world);
        await desktop.input.drag(at, await this.locate(p.to, app, world));
        await this.expectEffect(p, at, app, world);
        return undefined;
      }
      case 'scroll':
        await desktop.input.scroll(p.target ? await this.locate(p.target, app, world) : undefined, p.dx ?? 0, p.dy ?? 0);
        return undefined;
      case 'wait':
        if (!world.dryRun) await this.clock.sleep(p.ms, world.signal);
        return undefined;
      case 'wait_until': {
        const timeout = p.timeoutMs ?? DEFAULT_WAIT_MS;
        if (world.dryRun) return undefined;
        const { ok, unknown } = await this.pollCondition(p.condition, timeout, app, world);
        if (!ok) {
          const windows = app && (p.condition.kind === 'window_title' || p.condition.kind === 'window_gone');
          throw new StepFailure(
            'wait.timeout',
            `${describeCondition(p.condition)} did not hold within ${timeout} ms${unknown ? ` (last check: ${unknown})` : ''}${
              windows ? `; ${await this.shownWindows(app)}` : ''
            }`,
          );
        }
        return undefined;
      }
      case 'run_script': {
        if (world.dryRun) return `<output of ${p.interpreter} script>`;
        const res = await desktop.processes.runScript({
          interpreter: p.interpreter,
          script: p.script,
          args: p.args ?? [],
          timeoutMs: p.timeoutMs ?? 30_000,
          ...(world.signal && { signal: world.signal }),
        });
        if (res.exitCode !== 0) {
          throw new StepFailure('script.failed', `${p.interpreter} script exited with ${res.exitCode}: ${res.stderr.trim().slice(0, 300)}`);
        }
        return res.stdout.trim();
      }
      case 'read': {
        let value: string;
        if (p.source === 'clipboard') value = await desktop.clipboard.readText();
        else if (p.source === 'window_title') value = (await this.currentOrMain(requireApp(app, p.action), world))?.title ?? '';
        else {
          if (!p.path) throw new StepFailure('read.no_path', '`read` from a file needs `path`');
          value = world.dryRun ? '' : await desktop.files.readText(p.path);
        }
        if (p.extract) {
          const m = new RegExp(p.extract, 'u').exec(value);
          if (!m)
            throw new StepFailure(
              'read.no_match',
              `Read ${JSON.stringify(value.slice(0, 80))} from the ${p.source}, which does not match /${p.extract}/`,
            );
          value = m[1] ?? m[0];
        }
        return value;
      }
      default:
        // Steps on a web page: WebPrimitives.ts.
        return isWebPrimitive(p) ? world.web.run(p, app) : assertNever(p, 'primitive');
    }
  }

  /** Evaluates an edge guard. UI-state guards are false in dry runs (the default path is shown). */
  async guardHolds(guard: Guard, scope: Record<string, unknown>, app: FrameApp | undefined, world: RunWorld): Promise<boolean> {
    if ('all' in guard) {
      for (const g of guard.all) if (!(await this.guardHolds(g, scope, app, world))) return false;
      return true;
    }
    if ('any' in guard) {
      for (const g of guard.any) if (await this.guardHolds(g, scope, app, world)) return true;
      return false;
    }
    if ('not' in guard) return !(await this.guardHolds(guard.not, scope, app, world));
    if ('platform' in guard) return this.deps.desktop.platform === guard.platform;
    if ('arg' in guard) return argGuardHolds(guard, scope);
    if (world.dryRun) return false;
    if ('file_exists' in guard) return this.deps.desktop.files.exists(guard.file_exists);
    if ('registry_value' in guard) return this.holds(guardConditions(guard)[0]!, app, world);
    return this.holds({ kind: 'window_title', pattern: guard.window_title }, app, world);
  }

  /** After a pointer action with `expect`: waits (bounded) for its effect, or fails the step saying where it clicked. */
  private async expectEffect(
    p: Extract<Primitive, { action: 'click' | 'double_click' | 'right_click' | 'drag' }>,
    at: Point,
    app: FrameApp | undefined,
    world: RunWorld,
  ): Promise<void> {
    if (!p.expect || world.dryRun) return;
    const timeout = p.expect.timeoutMs ?? 5000;
    const { ok } = await this.pollCondition(p.expect.condition, timeout, app, world);
    if (!ok) {
      const what = p.action === 'drag' ? 'drag' : `${p.action.replace('_', ' ')} on ${describeTarget(p.target)}`;
      throw new StepFailure(
        'effect.missing',
        `The ${what} at (${Math.round(at.x)}, ${Math.round(at.y)}) had no effect: ${describeCondition(p.expect.condition)} did not hold within ${timeout} ms`,
      );
    }
  }

  /**
   * Polls a condition until it holds or the time is up. A check that could not be made this time
   * (ConditionUnknown) is asked again; when the time runs out on one, `unknown` says why.
   */
  private async pollCondition(
    c: WaitCondition,
    timeoutMs: number,
    app: FrameApp | undefined,
    world: RunWorld,
  ): Promise<{ ok: boolean; unknown?: string }> {
    let unknown: string | undefined;
    let absent = false;
    const titled = c.kind === 'window_title' || c.kind === 'window_gone' ? new RegExp(c.pattern, 'u') : undefined;
    const strays = app && this.strayWatch(app, world, (w) => titled?.test(w.title) ?? false, { what: describeCondition(c) });
    const check = async (): Promise<true | undefined> => {
      unknown = undefined;
      absent = false;
      try {
        if (await this.holds(c, app, world)) return true;
      } catch (err) {
        if (!(err instanceof ConditionUnknown)) throw err;
        unknown = err.message;
        absent = err instanceof ElementAbsent;
      }
      await strays?.check();
      return undefined;
    };
    let ok = await this.poll(timeoutMs, world.signal, check);
    // The element whose state is asked may come later than its state would change (a dialog's box
    // before its tree is published): while it is not there the wait goes on, within
    // ELEMENT_APPEAR_MS, and once it is, its state is judged within the step's own timeout.
    if (!ok && absent) {
      let held = false;
      await this.poll(ELEMENT_APPEAR_MS, world.signal, async () => {
        held = (await check()) === true;
        return held || !absent ? true : undefined;
      });
      ok = held ? true : absent ? undefined : await this.poll(timeoutMs, world.signal, check);
    }
    // A check that could not be made may have used up the time: one more decides.
    if (!ok && unknown !== undefined) ok = await check();
    return { ok: ok === true, ...(unknown !== undefined && { unknown }) };
  }

  private async holds(c: WaitCondition, app: FrameApp | undefined, world: RunWorld): Promise<boolean> {
    switch (c.kind) {
      case 'file_exists':
        return (await this.deps.desktop.files.exists(c.path)) === (c.present ?? true);
      case 'window_title':
      case 'window_gone': {
        const re = new RegExp(c.pattern, 'u');
        const current = c.current && app ? world.workWindow.get(app.id)?.id : undefined;
        if (c.current && !current)
          throw new StepFailure(
            'window.not_found',
            `${describeCondition(c)}: the skill has no window in hand; focus or wait for one first`,
          );
        const wins = await this.deps.desktop.windows.list();
        const matching = wins.filter(
          (w) => (!app || windowBelongsToApp(w, app.profile.windows)) && (!current || w.id === current) && re.test(w.title),
        );
        // The skill knows these windows: a dialog it checked for is not one it does not expect.
        for (const w of matching) world.lookedAtWindowIds.add(w.id);
        return c.kind === 'window_title' ? matching.length > 0 : matching.length === 0;
      }
      case 'text_visible':
      case 'text_gone': {
        const grounder = this.deps.grounder;
        if (!grounder)
          throw new StepFailure('grounding.unavailable', 'Checking visible text needs a grounding provider (OCR); none is configured');
        const window = app ? await this.currentOrMain(app, world) : undefined;
        const recapture = () => this.deps.desktop.screen.capture(window?.bounds);
        const r = await grounder.locate(
          { kind: 'text', text: c.text },
          { screenshot: await recapture(), recapture, ...(window && { window }), ...(world.signal && { signal: world.signal }) },
        );
        return c.kind === 'text_visible' ? r.found : !r.found;
      }
      case 'file_contains': {
        const text = await this.readIfExists(c.path);
        if (text === undefined) return false;
        const holds = c.text !== undefined ? text.includes(c.text) : new RegExp(c.pattern!, 'u').test(text);
        return holds === (c.present ?? true);
      }
      case 'json_value': {
        const text = await this.readIfExists(c.path);
        if (text === undefined) return false;
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch {
          return false; // not (yet) valid JSON: an app may be halfway through writing it
        }
        return jsonEquals(jsonPointer(doc, c.pointer), c.equals);
      }
      case 'registry_value': {
        const registry = this.deps.desktop.registry;
        if (!registry)
          throw new StepFailure(
            'condition.unsupported',
            `${describeCondition(c)} cannot be checked here: this desktop (${this.deps.desktop.platform}) has no Windows registry`,
          );
        const value = await registry.readValue(c.key, c.name);
        if (c.present === false) return value === undefined;
        return value !== undefined && (c.equals === undefined || value.data === String(c.equals));
      }
      case 'ui_element': {
        const inspect = this.deps.grounder?.inspect?.bind(this.deps.grounder);
        const window = app ? await this.currentOrMain(app, world) : undefined;
        const r: InspectResult = inspect
          ? await inspect(
              { name: c.name, ...(c.role && { role: c.role }) },
              { ...(window && { window }), ...(world.signal && { signal: world.signal }) },
            )
          : { supported: false, reason: 'no accessibility grounder is configured' };
        // A passing failure (a slow walk, an app not yet on the bus) leaves the condition unknown: a wait asks again.
        if (!r.supported && r.retry) throw new ConditionUnknown(r.reason);
        // Pixels cannot tell whether a box is checked: without a tree the condition cannot be judged.
        if (!r.supported) throw new StepFailure('condition.unsupported', `${describeCondition(c)} cannot be checked here: ${r.reason}`);
        // A state of an element not shown yet (a dialog's box before its tree is published) cannot be told.
        if (c.state && r.elements.length === 0 && (c.present ?? true))
          throw new ElementAbsent(`no element named \`${c.name}\`${c.role ? ` (${c.role})` : ''} is there yet`);
        const verdicts = r.elements.map((e) => hasState(e, c.state));
        if (verdicts.length > 0 && verdicts.every((v) => v === undefined))
          throw new StepFailure(
            'condition.unsupported',
            `${describeCondition(c)} cannot be checked: the element reports no ${c.state} state (${r.elements[0]!.role})`,
          );
        return (c.present ?? true) === verdicts.some((v) => v === true);
      }
      default:
        return assertNever(c, 'wait condition');
    }
  }

  /** A file's text, or undefined while it does not exist. */
  private async readIfExists(path: string): Promise<string | undefined> {
    if (!(await this.deps.desktop.files.exists(path))) return undefined;
    return this.deps.desktop.files.readText(path);
  }

  /** Turns a target into a screen point: window-relative arithmetic, or a grounder for labels. */
  private async locate(target: Target, app: FrameApp | undefined, world: RunWorld): Promise<Point> {
    const window = app ? await this.currentOrMain(app, world) : undefined;
    if (target.kind === 'point') {
      if ((target.relativeTo ?? 'window') === 'screen') return { x: target.x, y: target.y };
      if (!window) throw new StepFailure('window.not_found', 'A window-relative point needs the app window; focus or wait for it first');
      return { x: window.bounds.x + target.x, y: window.bounds.y + target.y };
    }
    if (world.dryRun) return { x: 0, y: 0 };
    const grounder = this.deps.grounder;
    if (!grounder)
      throw new StepFailure(
        'grounding.unavailable',
        `Clicking ${target.kind} target \`${'text' in target ? target.text : target.name}\` needs a grounding provider; none is configured`,
      );
    const recapture = () => this.deps.desktop.screen.capture(window?.bounds);
    const r = await grounder.locate(target, {
      screenshot: await recapture(),
      recapture,
      ...(window && { window }),
      ...(world.signal && { signal: world.signal }),
    });
    if (!r.found)
      throw new StepFailure('grounding.not_found', `Could not find ${JSON.stringify(target)} on screen (${r.source}: ${r.reason})`);
    // Grounders answer in screenshot pixels; the capture was of the window.
    return window ? { x: window.bounds.x + r.point.x, y: window.bounds.y + r.point.y } : r.point;
  }

  private async currentOrMain(app: FrameApp, world: RunWorld): Promise<WindowInfo | undefined> {
    if (world.dryRun) return world.currentWindow.get(app.id) ?? dryWindow(app, undefined);
    return this.findWindow(app, undefined, world);
  }

  /**
   * The app window to act on: with a title regex, the newest matching window (new ones first);
   * without, the current window if it still exists, else the newest main window.
   */
  private async findWindow(
    app: FrameApp,
    title: string | undefined,
    world: RunWorld,
    preferNew = false,
    notAmong?: ReadonlySet<string>,
  ): Promise<WindowInfo | undefined> {
    const wins = (await this.deps.desktop.windows.list()).filter((w) => windowBelongsToApp(w, app.profile.windows) && !notAmong?.has(w.id));
    if (title !== undefined) {
      const re = new RegExp(title, 'u');
      const hits = wins.filter((w) => re.test(w.title));
      const fresh = hits.filter((w) => !world.initialWindowIds.has(w.id));
      return (preferNew && fresh.length ? fresh : hits).at(-1);
    }
    const current = world.currentWindow.get(app.id);
    const still = current && wins.find((w) => w.id === current.id);
    if (still) return still;
    return wins.filter((w) => windowBelongsToApp(w, app.profile.windows, true)).at(-1);
  }

  /** A watch for the app's dialogs a wait does not expect (real runs only). */
  private strayWatch(app: FrameApp, world: RunWorld, expected: (w: WindowInfo) => boolean, wait: { what: string }) {
    if (world.dryRun) return undefined;
    return new StrayDialogWatch(
      { desktop: this.deps.desktop, grounder: this.deps.grounder, clock: this.clock },
      app,
      world,
      expected,
      wait.what,
    );
  }

  /** What the app shows, for a failed wait: an unexpected dialog is named. */
  private async shownWindows(app: FrameApp): Promise<string> {
    const shown = (await this.deps.desktop.windows.list())
      .filter((w) => windowBelongsToApp(w, app.profile.windows))
      .map((w) => `"${w.title}"`);
    return shown.length ? `its windows: ${[...new Set(shown)].join(', ')}` : 'it has no window open';
  }

  /** Waits (bounded) for a main window of the app (its profile's title), as after starting it. */
  async waitForMainWindow(app: FrameApp, world: RunWorld, timeoutMs = 10_000): Promise<boolean> {
    const main = await this.poll(timeoutMs, world.signal, async () =>
      (await this.deps.desktop.windows.list()).find((w) => windowBelongsToApp(w, app.profile.windows, true)),
    );
    return main !== undefined;
  }

  /** Waits (bounded) until a window is gone; false when it is still there. */
  async waitUntilGone(windowId: string, world: RunWorld, timeoutMs = 5000): Promise<boolean> {
    const gone = await this.poll(timeoutMs, world.signal, async () =>
      (await this.deps.desktop.windows.list()).some((w) => w.id === windowId) ? undefined : true,
    );
    return gone === true;
  }

  private async poll<T>(timeoutMs: number, signal: AbortSignal | undefined, probe: () => Promise<T | undefined>): Promise<T | undefined> {
    const deadline = this.clock.now() + timeoutMs;
    for (;;) {
      if (signal?.aborted) throw new RunAborted();
      const hit = await probe();
      if (hit !== undefined) return hit;
      if (this.clock.now() >= deadline) return undefined;
      await this.clock.sleep(this.pollMs, signal);
    }
  }
}

/** The window a step focused or waited for is the one in hand; a main window is also the one the skill works in. */
function holdWindow(world: RunWorld, app: string, win: WindowInfo): void {
  world.currentWindow.set(app, win);
  if (!win.dialog) world.workWindow.set(app, win);
}

/** A condition that could not be checked this time, though it may be the next (see `InspectResult.retry`). */
class ConditionUnknown extends Error {}

/** The element whose state a condition asks about is not in the tree (yet). */
class ElementAbsent extends ConditionUnknown {}

/** How long a wait on an element's state waits for the element itself to appear. */
const ELEMENT_APPEAR_MS = 10_000;

function requireApp(app: FrameApp | undefined, action: string): FrameApp {
  if (!app) throw new StepFailure('dispatch.no_app', `\`${action}\` needs an app; run the skill with --app or from an app implementation`);
  return app;
}

/** A stand-in window for dry runs, titled to satisfy the requested pattern's intent. */
function dryWindow(app: FrameApp, title: string | undefined): WindowInfo {
  return {
    id: `dry:${app.id}:${title ?? 'main'}`,
    title: title ?? app.profile.name,
    processName: app.id,
    bounds: { x: 0, y: 0, width: 800, height: 600 },
  };
}

function describeCondition(c: WaitCondition): string {
  switch (c.kind) {
    case 'file_exists':
      return `File \`${c.path}\` ${c.present === false ? 'is gone' : 'exists'}`;
    case 'window_title':
      return c.current ? `The window in hand titled /${c.pattern}/` : `A window titled /${c.pattern}/`;
    case 'window_gone':
      return c.current ? `The window in hand no longer titled /${c.pattern}/` : `No window titled /${c.pattern}/ left`;
    case 'text_visible':
      return `Text \`${c.text}\` visible`;
    case 'text_gone':
      return `Text \`${c.text}\` gone`;
    case 'file_contains':
      return `File \`${c.path}\` ${c.present === false ? 'lacks' : 'contains'} ${c.text !== undefined ? `\`${c.text}\`` : `/${c.pattern}/`}`;
    case 'json_value':
      return `JSON \`${c.path}\` has ${c.pointer || '(the document)'} = ${JSON.stringify(c.equals)}`;
    case 'registry_value':
      return `Registry \`${c.key}\` ${c.present === false ? 'lacks' : 'has'} ${c.name ? `\`${c.name}\`` : '(Default)'}${c.equals !== undefined ? ` = ${JSON.stringify(String(c.equals))}` : ''}`;
    case 'ui_element':
      return `${c.present === false ? 'No element' : 'An element'} named \`${c.name}\`${c.role ? ` (${c.role})` : ''}${c.state ? ` ${c.state}` : ''}`;
    default:
      return assertNever(c, 'wait condition');
  }
}

function describeTarget(t: Target): string {
  switch (t.kind) {
    case 'point':
      return `point (${t.x}, ${t.y})`;
    case 'text':
      return `\`${t.text}\``;
    case 'accessibility':
      return `${t.role ?? 'element'} \`${t.name}\``;
    default:
      return assertNever(t, 'target');
  }
}

/** Refuses text that cannot be entered, before its first character (a dry run refuses it too). */
function typable(text: string): void {
  const bad = firstUntypable(text);
  if (bad)
    throw new StepFailure('input.untypable', `The text has ${bad.name} at position ${bad.index}, which cannot be typed; nothing was typed`);
}

/** A step's press count, or a failure naming the value when its argument is not a whole number 0-100. */
function repeats(repeat: number | string | undefined): number {
  const n = repeatCount(repeat);
  if (n === undefined)
    throw new StepFailure('primitive.bad_repeat', `Expected \`repeat\` to be a whole number from 0 to 100, got \`${String(repeat)}\``);
  return n;
}
