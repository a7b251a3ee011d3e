import { bindConstraints, withImplicitApps } from './constraints';
import type { Constraints, Manifest, PermissionEntry } from './manifest';
import { hostInDomain, hostPatternWithin, normalizeHost, parseHostPattern, urlUnderPrefix } from './hosts';
import { resolvePathScope, scopeWithin, type ScopeEnv } from './scopes';
import { expandPattern, patternCovers, type Capability } from './taxonomy';

/**
 * Manifest containment for skill-to-skill calls: a callee may only be given what its caller
 * holds. Checked structurally, entry by entry, with both sides' argument slots bound to the
 * values of this call; where containment cannot be shown, the answer is "not within".
 */

export interface BoundManifest {
  manifest: Manifest;
  /** Values for `${slot}`s, including `app`. */
  values: Readonly<Record<string, unknown>>;
  /** The skill's own app (implicit scope of input entries). */
  app?: string;
}

const RANK: Record<string, number> = { allow: 0, confirm: 1, deny: 2 };

/** Why each of `inner`'s allow/confirm entries is not within `outer`; empty when it is. */
export function manifestWithin(inner: BoundManifest, outer: BoundManifest, env: ScopeEnv): string[] {
  const problems: string[] = [];
  inner.manifest.forEach((e, i) => {
    if (e.effect === 'deny') return;
    for (const cap of capsOf(e.capability)) {
      const ic = bindConstraints(withImplicitApps(e.constraints, cap, inner.app), inner.values);
      const cover = outer.manifest.find(
        (o) =>
          o.effect !== 'deny' &&
          patternCovers(o.capability, cap) &&
          RANK[o.effect]! <= RANK[e.effect]! &&
          constraintsWithin(ic, bindConstraints(withImplicitApps(o.constraints, cap, outer.app), outer.values), env),
      );
      if (!cover) {
        problems.push(
          `entry #${i} (${e.effect} ${cap}${describe(ic)}) is not within any ${e.effect === 'allow' ? 'allow' : 'allow or confirm'} entry of the caller`,
        );
        return;
      }
      const blocking = outer.manifest.find(
        (o) =>
          o.effect === 'deny' &&
          patternCovers(o.capability, cap) &&
          (o.priority ?? 0) >= (cover.priority ?? 0) &&
          !inner.manifest.some(
            (x) =>
              x.effect === 'deny' &&
              patternCovers(x.capability, cap) &&
              JSON.stringify(x.constraints ?? {}) === JSON.stringify(o.constraints ?? {}),
          ),
      );
      if (blocking)
        problems.push(
          `entry #${i} (${e.effect} ${cap}) would escape the caller's deny ${blocking.capability}${describe(blocking.constraints)}`,
        );
    }
  });
  return problems;
}

/** The capabilities an entry pattern stands for, or the pattern itself for `*`-style entries (checked as one). */
function capsOf(pattern: string): Capability[] {
  return expandPattern(pattern);
}

function describe(c: Constraints | undefined): string {
  if (!c || Object.keys(c).length === 0) return '';
  return ` ${JSON.stringify(c)}`;
}

/** Whether every request `inner` admits is admitted by `outer` (conservative). */
export function constraintsWithin(inner: Constraints, outer: Constraints, env: ScopeEnv): boolean {
  if (outer.paths) {
    if (!inner.paths) return false;
    const outs = outer.paths.map((p) => resolvePathScope(p, {}, env));
    for (const p of inner.paths) {
      const r = resolvePathScope(p, {}, env);
      if (!r || !outs.some((o) => o !== undefined && scopeWithin(r, o, env))) return false;
    }
  }
  if (outer.workspace_only && !inner.workspace_only) {
    const ws = env.folders.workspace && resolvePathScope(env.folders.workspace, {}, env);
    if (
      !ws ||
      !inner.paths ||
      !inner.paths.every((p) => {
        const r = resolvePathScope(p, {}, env);
        return r && scopeWithin(r, ws, env);
      })
    )
      return false;
  }
  if (outer.apps && (!inner.apps || !inner.apps.every((a) => outer.apps!.includes(a)))) return false;
  if (outer.domains || outer.urls) {
    if (!inner.domains && !inner.urls) return false;
    const domainOk = (inner.domains ?? []).every((d) => {
      const bare = d.replace(/^\*?\./, '');
      const wild = d !== bare;
      const host = normalizeHost(bare);
      return (
        host !== undefined &&
        (outer.domains ?? []).some((o) =>
          wild ? (o.startsWith('*.') || o.startsWith('.')) && hostInDomain(host, o) : hostInDomain(host, o),
        )
      );
    });
    const urlOk = (inner.urls ?? []).every((u) => (outer.urls ?? []).some((o) => urlUnderPrefix(u, o)));
    if (!domainOk || !urlOk) return false;
  }
  if (outer.hosts && !hostsWithin(inner.hosts, outer.hosts)) return false;
  if (outer.denied_command_patterns && !outer.denied_command_patterns.every((p) => inner.denied_command_patterns?.includes(p)))
    return false;
  if (outer.rate_limit) {
    const i = inner.rate_limit;
    if (!i || i.count / i.per_seconds > outer.rate_limit.count / outer.rate_limit.per_seconds || i.count > outer.rate_limit.count)
      return false;
  }
  if (outer.time_window && JSON.stringify(inner.time_window) !== JSON.stringify(outer.time_window)) return false;
  return true;
}

/** Whether every host pattern of `inner` lies within one of `outer`'s (no `hosts` at all is wider than any list). */
function hostsWithin(inner: readonly string[] | undefined, outer: readonly string[]): boolean {
  if (!inner) return false;
  const outs = outer.map(parseHostPattern);
  return inner.every((h) => {
    const p = parseHostPattern(h);
    return typeof p !== 'string' && outs.some((o) => typeof o !== 'string' && hostPatternWithin(p, o));
  });
}

/** Entries of `manifest` that cover `cap` with a non-deny effect (for manifest checking). */
export function coveringEntries(manifest: Manifest, cap: Capability): PermissionEntry[] {
  return manifest.filter((e) => e.effect !== 'deny' && patternCovers(e.capability, cap));
}
