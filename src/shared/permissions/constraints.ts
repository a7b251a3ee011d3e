import type { Constraints, Effect } from './manifest';
import type { PermissionRequest, PermissionTarget } from './policy';
import { lexicalCanonicalPath } from './canonical';
import { bindUrlScopes, hostsAllow, urlAllowed } from './hosts';
import { bindSlots, bindSlotsEach, pathInScope, resolvePathScope, resolvePathScopes, scopeText, type ScopeEnv } from './scopes';
import { CAPABILITIES, type Capability } from './taxonomy';

/**
 * Whether an entry's constraints hold for a request. A constraint field scopes targets of one
 * kind (paths: paths, apps: apps, domains/urls: URLs). For an allow or confirm entry a target
 * of another or unknown kind does not satisfy it (fail closed); a deny entry still applies to
 * an unknown target, so what analysis could not pin down is denied rather than let through.
 */
export type ConstraintVerdict =
  | { kind: 'applies' }
  | { kind: 'mismatch'; why: string }
  /** The entry applies but is violated (denied command pattern, rate limit): it decides deny. */
  | { kind: 'violation'; why: string };

export interface ConstraintContext {
  env: ScopeEnv;
  effect: Effect;
  /** Timestamps of earlier allows under this entry. */
  usage: readonly number[];
}

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Capabilities scoped by app; their entries default to the skill's own app. */
export function isAppScoped(cap: Capability): boolean {
  return CAPABILITIES[cap].scope === 'app';
}

/** Makes the implicit app scope of input/launch entries explicit (`apps: [skill app or ${app}]`). */
export function withImplicitApps(c: Constraints | undefined, cap: Capability, skillApp: string | undefined): Constraints {
  const base = c ?? {};
  if (!isAppScoped(cap) || base.apps) return base;
  return { ...base, apps: [skillApp ?? '${app}'] };
}

/**
 * Binds every `${slot}` in path, app and URL scopes; unbound slots become a scope that matches nothing.
 * Bound path values stay literal (their glob and folder characters are not read as such).
 */
export function bindConstraints(c: Constraints, values: Readonly<Record<string, unknown>>): Constraints {
  // A slot naming a list argument binds once per item.
  const bind = (list: string[], literal: boolean) => list.flatMap((s) => bindSlotsEach(s, values, literal) ?? ['\u0000unbound']);
  return {
    ...c,
    ...(c.paths && { paths: bind(c.paths, true) }),
    ...(c.apps && { apps: bind(c.apps, false) }),
    ...(c.urls && { urls: bind(c.urls, false) }),
  };
}

/**
 * The target as constraints judge it: a path in its lexical canonical form (Windows forms
 * normalised, dot segments resolved, never a folder token expanded), or unknown when the path
 * cannot be judged (relative, a stream, a device): deny entries then still apply to it.
 */
function judgedTarget(target: PermissionTarget, env: ScopeEnv): PermissionTarget {
  if (target.kind !== 'path') return target;
  const c = lexicalCanonicalPath(target.path, env.pathStyle);
  return c.ok ? { kind: 'path', path: c.path } : { kind: 'unknown', hint: c.reason };
}

function scopeOf(target: PermissionTarget): 'path' | 'app' | 'url' | 'other' | 'unknown' {
  if (target.kind === 'unknown') return 'unknown';
  return target.kind === 'path' || target.kind === 'app' || target.kind === 'url' ? target.kind : 'other';
}

/** Evaluates one entry's constraints against a request. */
export function evaluateConstraints(c: Constraints | undefined, req: PermissionRequest, ctx: ConstraintContext): ConstraintVerdict {
  if (!c) return { kind: 'applies' };
  // `${site}` is the app's website, whatever argument a skill may have named so (see `PermissionRequest.site`).
  const values = { ...(req.args ?? {}), ...(req.app !== undefined && { app: req.app }), site: req.site };
  const target = judgedTarget(req.target, ctx.env);
  const kind = scopeOf(target);
  const isDeny = ctx.effect === 'deny';
  const needs = (field: 'path' | 'app' | 'url', test: () => ConstraintVerdict): ConstraintVerdict => {
    if (kind === field) return test();
    if (kind === 'unknown')
      return isDeny
        ? { kind: 'applies' }
        : { kind: 'mismatch', why: `the ${field} is unknown${target.kind === 'unknown' && target.hint ? ` (${target.hint})` : ''}` };
    return {
      kind: 'mismatch',
      why: `the entry is scoped to ${field}s, the request targets ${target.kind === 'none' ? 'nothing' : `a ${target.kind}`}`,
    };
  };
  const checks: (() => ConstraintVerdict)[] = [];
  if (c.paths) {
    checks.push(() =>
      needs('path', () => {
        const p = (target as { path: string }).path;
        const scopes = c.paths!.map((s) => resolvePathScopes(s, values, ctx.env));
        return scopes.some((each) => each.some((s) => pathInScope(p, s, ctx.env)))
          ? { kind: 'applies' }
          : {
              kind: 'mismatch',
              why: `${p} is outside ${c
                .paths!.map((s, i) =>
                  scopes[i]!.length && (scopes[i]!.length > 1 || scopes[i]![0] !== s) ? `${s}=${scopes[i]!.map(scopeText).join('|')}` : s,
                )
                .join(', ')}`,
            };
      }),
    );
  }
  if (c.workspace_only) {
    checks.push(() =>
      needs('path', () => {
        const ws = ctx.env.folders.workspace;
        const p = (target as { path: string }).path;
        const scope = ws && resolvePathScope(ws, {}, ctx.env);
        return scope && pathInScope(p, scope, ctx.env)
          ? { kind: 'applies' }
          : { kind: 'mismatch', why: `${p} is outside the workspace${ws ? ` ${ws}` : ' (none configured)'}` };
      }),
    );
  }
  if (c.apps) {
    checks.push(() =>
      needs('app', () => {
        const app = (target as { app: string }).app;
        const apps = c.apps!.map((a) => bindSlots(a, values));
        return apps.includes(app) ? { kind: 'applies' } : { kind: 'mismatch', why: `app \`${app}\` is not among ${c.apps!.join(', ')}` };
      }),
    );
  }
  if (c.domains || c.urls) {
    checks.push(() =>
      needs('url', () => {
        const url = (target as { url: string }).url;
        // `urls: ['${url}']` scopes an entry to the URL the skill was given (each item of a list).
        const urls = c.urls?.flatMap((u) => bindUrlScopes(u, values));
        return urlAllowed(url, c.domains, urls)
          ? { kind: 'applies' }
          : { kind: 'mismatch', why: `${url} is not in the allowlist ${[...(c.domains ?? []), ...(c.urls ?? [])].join(', ')}` };
      }),
    );
  }
  if (c.hosts) {
    checks.push(() =>
      needs('url', () => {
        const url = (target as { url: string }).url;
        return hostsAllow(url, c.hosts!)
          ? { kind: 'applies' }
          : { kind: 'mismatch', why: `${url} does not go to an allowed host (${c.hosts!.join(', ')})` };
      }),
    );
  }
  if (c.time_window) checks.push(() => inTimeWindow(c.time_window!, req.time, ctx.env.utcOffsetMinutes));
  for (const check of checks) {
    const v = check();
    if (v.kind !== 'applies') return v;
  }
  if (c.denied_command_patterns) {
    const command = target.kind === 'command' ? target.command : undefined;
    const hit = command === undefined ? undefined : c.denied_command_patterns.find((p) => safeRegex(p)?.test(command) ?? true);
    if (isDeny) {
      // On a deny entry the patterns say which commands it denies; an unknown command is denied.
      if (kind === 'unknown' || hit) return { kind: 'applies' };
      return { kind: 'mismatch', why: 'no denied command pattern matches' };
    }
    if (hit) return { kind: 'violation', why: `the command matches denied pattern /${hit}/` };
    if (kind === 'unknown') return { kind: 'violation', why: 'the command is unknown and the entry denies some commands' };
  }
  if (c.rate_limit && !isDeny) {
    const since = req.time - c.rate_limit.per_seconds * 1000;
    const used = ctx.usage.filter((t) => t > since && t <= req.time).length;
    if (used >= c.rate_limit.count)
      return { kind: 'violation', why: `rate limit of ${c.rate_limit.count} per ${c.rate_limit.per_seconds} s reached` };
  }
  return { kind: 'applies' };
}

function safeRegex(p: string): RegExp | undefined {
  try {
    return new RegExp(p, 'i');
  } catch {
    return undefined; // an invalid pattern counts as a match: fail closed
  }
}

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** Whether `time` (epoch ms) falls in the local window; an end before the start wraps past midnight. */
export function inTimeWindow(w: NonNullable<Constraints['time_window']>, time: number, utcOffsetMinutes: number): ConstraintVerdict {
  const local = new Date(time + utcOffsetMinutes * 60_000);
  const now = local.getUTCHours() * 60 + local.getUTCMinutes();
  const start = minutes(w.start);
  const end = minutes(w.end);
  const inside = start <= end ? now >= start && now < end : now >= start || now < end;
  // For a window past midnight, the hours after midnight belong to the day it started.
  const dayIndex = start > end && now < end ? (local.getUTCDay() + 6) % 7 : local.getUTCDay();
  const dayOk = !w.days || w.days.includes(DAYS[dayIndex]!);
  return inside && dayOk
    ? { kind: 'applies' }
    : { kind: 'mismatch', why: `outside the time window ${w.start}-${w.end}${w.days ? ` on ${w.days.join(',')}` : ''}` };
}
