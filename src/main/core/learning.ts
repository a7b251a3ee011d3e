import { tmpdir } from 'node:os';
import { SkillDeskError } from '../../shared/errors';
import type { LearnBlueprintView, LearnMethodView } from '../../shared/ipc';
import { missingMethods } from '../../shared/learning/blueprint';
import type { Trajectory } from '../../shared/learning/trajectory';
import type { BrowserPage } from '../../shared/ports/browser';
import {
  appRunsOn,
  checkArgs,
  isWebApp,
  sampleArg,
  seededRandom,
  siteOrigin,
  type ArgSpec,
  type ArgSpecs,
  type ArgValue,
  type ArgValues,
  type SkillLibrary,
} from '../../shared/skill';
import { desktopAvailability, hostPlatform } from '../services/desktop';
import { windowBelongsToApp } from '../services/executor/appWindows';
import { accessibleAt } from '../services/grounding';
import { loadInputHook, recordDesktopDemonstration, recordWebDemonstration } from '../services/learning';
import type { Core } from './Core';

/**
 * Learning from demonstrations, as every shell starts it: `skilldesk record` / `induce` (which wait
 * for Enter) and the Learn screen (which waits for its Stop button, see demonstrationSessions.ts)
 * record through `recordDemonstration`; `learnBlueprint` is what the screen offers to learn.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** What to demonstrate, and where. */
export interface DemonstrationRequest {
  app: string;
  /** `Interface.method`; its arguments are checked when the interface declares it (else it is added, signature first). */
  method?: string;
  args: Record<string, unknown>;
  /** A website only: a path of the site opened before recording (the state the method starts from). */
  start?: string;
}

export interface DemonstrationOptions {
  /** @default process.env */
  env?: Env;
  /**
   * A website with no `start`: open its home page as the demonstration's first step, as a person
   * typing its address would (the Learn screen); the CLI leaves the page as it is.
   * @default false
   */
  openSite?: boolean;
}

/** A person demonstrates in a browser they can see (on a display), unless SKILLDESK_BROWSER_HEADED already says otherwise. */
export function showBrowserForDemonstration(env: Record<string, string | undefined> = process.env): void {
  env.SKILLDESK_BROWSER_HEADED ??= env.DISPLAY ? '1' : '0';
}

/** The app, or an error naming the apps with a name like it (else the first few there are). */
function appOf(library: SkillLibrary, id: string) {
  const app = library.apps.get(id);
  if (app) return app;
  const known = [...library.apps.keys()].sort();
  const stem = id.toLowerCase().slice(0, 3);
  const like = known.filter((k) => k.startsWith(stem) || k.includes(id.toLowerCase()));
  throw new SkillDeskError(
    'learn.unknown_app',
    like.length
      ? `\`${id}\` is not an app; did you mean ${like.map((k) => `\`${k}\``).join(', ')}?`
      : `\`${id}\` is not an app; known apps: ${known.slice(0, 12).join(', ')}${known.length > 12 ? `, … (${known.length} in all)` : ''}`,
  );
}

/**
 * Checks a demonstration request against the library before anyone demonstrates: the app, the
 * method's interface (one the app implements) and the argument values (converted to their types:
 * `"2"` for a number becomes 2). Returns the values to record with.
 */
export function checkDemonstration(library: SkillLibrary, r: DemonstrationRequest): ArgValues {
  const app = appOf(library, r.app);
  if (r.start !== undefined && !app.web)
    throw new SkillDeskError(
      'learn.bad_start',
      `\`${r.app}\` is a desktop app: a start page is for websites (bring the app where the method starts instead)`,
    );
  if (!r.method) return r.args as ArgValues;
  const dot = r.method.indexOf('.');
  const iface = r.method.slice(0, dot);
  if (dot <= 0 || !library.interfaces.has(iface))
    throw new SkillDeskError(
      'learn.unknown_method',
      `Expected \`Interface.method\` of an interface \`${r.app}\` implements, got \`${r.method}\``,
    );
  if (!library.appImplements(r.app, iface))
    throw new SkillDeskError(
      'learn.unknown_method',
      `\`${r.app}\` does not implement \`${iface}\`; it implements ${app.implements.join(', ') || 'nothing'}`,
    );
  const owner = library.methodOwner(iface, r.method.slice(dot + 1));
  const specs = owner ? library.interfaces.get(owner)?.methods[r.method.slice(dot + 1)]?.args : undefined;
  // A method the interface lacks gets its signature from these values: nothing to check them against.
  if (!specs) return r.args as ArgValues;
  const checked = checkArgs(specs, r.args);
  if (!checked.ok) throw new SkillDeskError('learn.bad_arg', checked.errors.join('; '));
  // The values given, typed; defaults the person did not give stay out (they need not be shown).
  return Object.fromEntries(Object.keys(r.args).map((k) => [k, checked.values[k]!]));
}

/**
 * Records a demonstration on a website (SkillDesk's browser shows the site) or a desktop app (a
 * global input hook, the window in front). `perform` is the person demonstrating: the recording
 * ends when it resolves (the CLI: Enter pressed; the Learn screen: Stop).
 */
export async function recordDemonstration(
  core: Core,
  request: DemonstrationRequest,
  perform: () => Promise<void>,
  o: DemonstrationOptions = {},
): Promise<Trajectory> {
  const { library } = await core.loadLibrary();
  const args = checkDemonstration(library, request);
  const app = appOf(library, request.app);
  const method = request.method ? { method: request.method } : {};
  if (!app.web) {
    // A desktop app: every key and click goes through the global input hook, with the window in front.
    const profile = app.windows;
    if (!profile) throw new SkillDeskError('record.unsupported', `\`${request.app}\` has no window profile to tell its windows by`);
    const windows = (await core.desktop()).windows;
    return recordDesktopDemonstration(
      { hook: loadInputHook(), windows, elementAt: async (point, w) => (w.pid ? accessibleAt(point, w.pid) : undefined) },
      { app: request.app, belongs: (w) => windowBelongsToApp(w, profile), ...method, args, perform },
    );
  }
  const env = o.env ?? process.env;
  // A person must see the page they demonstrate in: a browser a web skill opened hidden is shown.
  const session = env.SKILLDESK_BROWSER_HEADED === '1' ? await core.shownBrowser() : await core.browser();
  if (!session) throw new SkillDeskError('browser.unavailable', 'No browser is configured for web skills');
  const origin = siteOrigin(app.web, env);
  const start = request.start;
  return recordWebDemonstration(session, {
    app: request.app,
    origin,
    ...(start && { startUrl: `${origin}${start.startsWith('/') ? '' : '/'}${start}` }),
    ...method,
    args,
    perform: async (page: BrowserPage) => {
      if (!start && o.openSite) await page.navigate(`${origin}/`);
      await perform();
    },
  });
}

/** Values to demonstrate with: an example, else the default, else one drawn from the domain; optional arguments left out. */
export function exampleArgs(specs: ArgSpecs, o: { tempDir: string; pathStyle: 'posix' | 'win32' }): ArgValues {
  const rand = seededRandom(14);
  const one = (spec: ArgSpec): ArgValue | undefined => {
    if (spec.type !== 'list' && spec.examples?.length) return spec.examples[0]!;
    if (spec.default !== undefined) return spec.default;
    if (spec.optional) return undefined;
    return sampleArg(spec.type === 'list' ? { ...spec, examples: undefined } : spec, rand, o);
  };
  const out: ArgValues = {};
  for (const [name, spec] of Object.entries(specs)) {
    const v = one(spec);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Every app that implements an interface, with its missing count; with `app`, its blueprint (the methods to demonstrate). */
export function learnBlueprint(library: SkillLibrary, app: string | undefined, o: { env?: Env } = {}): LearnBlueprintView {
  const env = o.env ?? process.env;
  const platform = hostPlatform();
  const desktop = desktopAvailability(platform, env);
  const apps = [...library.apps.values()]
    .filter((a) => a.implements.length > 0)
    .map((a) => {
      const web = isWebApp(a);
      const unavailable = web
        ? undefined
        : !appRunsOn(a, platform)
          ? `a ${a.platforms.join('/')} app: demonstrate it where it runs`
          : desktop === 'unavailable'
            ? 'no desktop to record on (no DISPLAY)'
            : !a.windows
              ? 'no window profile to tell its windows by'
              : undefined;
      return {
        id: a.id,
        name: a.name,
        kind: web ? ('site' as const) : ('desktop' as const),
        implements: a.implements,
        missing: missingMethods(library, a.id).length,
        ...(unavailable && { unavailable }),
      };
    })
    .sort((x, y) => x.id.localeCompare(y.id));
  if (app === undefined) return { apps };
  const profile = appOf(library, app);
  const pathStyle = profile.platforms.includes('win32') && !isWebApp(profile) ? 'win32' : 'posix';
  const tempDir = pathStyle === 'win32' ? 'C:\\Users\\Public' : tmpdir();
  const methods = missingMethods(library, app).map((m): LearnMethodView => {
    const args = library.interfaces.get(m.interface)?.methods[m.method]?.args ?? {};
    return {
      ref: `${m.interface}.${m.method}`,
      interface: m.interface,
      method: m.method,
      description: m.description,
      intents: m.intents,
      args,
      example: exampleArgs(args, { tempDir, pathStyle }),
    };
  });
  return {
    apps,
    blueprint: {
      app,
      kind: isWebApp(profile) ? 'site' : 'desktop',
      ...(profile.web && { origin: siteOrigin(profile.web, env) }),
      methods,
    },
  };
}
