import { evaluateConstraints, withImplicitApps } from './constraints';
import { DEFAULT_TRUST_CAPS, lowerTrust, type Effect, type PermissionEntry } from './manifest';
import { describeTarget, sameTarget, type Grant, type PermissionRequest, type PolicyDecision, type PolicyState } from './policy';
import { CAPABILITIES, isCapability, patternMatches, type Capability } from './taxonomy';

/**
 * The pure policy engine: `decide(request, state)` -> allow | confirm | deny, with the reason
 * and the entry or grant that decided. Deny by default; the highest priority wins; at equal
 * priority deny beats confirm beats allow; grants only turn a confirm into an allow, for the exact
 * target and skill content they were given for, so they never widen what the manifest declared.
 */

/** Capabilities that belong to the workspace, not to skills: a workspace allow needs no manifest entry. */
const WORKSPACE_LEVEL = new Set<Capability>(['context.load', 'policy.modify']);

const EFFECT_RANK: Record<Effect, number> = { allow: 0, confirm: 1, deny: 2 };

interface Candidate {
  effect: Effect;
  priority: number;
  source: string;
  entry: PermissionEntry;
  reason: string;
  fromWorkspace: boolean;
  rateKey: string;
}

/** Decides one request against the session state. Never throws. */
export function decide(req: PermissionRequest, state: PolicyState): PolicyDecision {
  if (!isCapability(req.capability)) {
    return { effect: 'deny', reason: `\`${String(req.capability)}\` is not a known capability`, source: 'default' };
  }
  const skill = state.skills[req.skill];
  if (!skill) return { effect: 'deny', reason: `skill \`${req.skill}\` is not loaded in this session`, source: 'default' };
  const target = describeTarget(req.target);
  const on = target ? ` on ${target}` : '';

  const candidates: Candidate[] = [];
  const misses: string[] = [];
  let declared = false;
  const consider = (entry: PermissionEntry, source: string, fromWorkspace: boolean) => {
    if (!patternMatches(entry.capability, req.capability)) return;
    const rateKey = `${req.skill}|${source}`;
    // Implicit app scope: an input entry of a skill covers its own app only.
    const constraints = fromWorkspace ? entry.constraints : withImplicitApps(entry.constraints, req.capability, skill.app);
    const v = evaluateConstraints(constraints, req, { env: state.env, effect: entry.effect, usage: state.usage[rateKey] ?? [] });
    if (v.kind === 'mismatch') {
      misses.push(`${source} (${entry.effect} ${entry.capability}) does not apply: ${v.why}`);
      return;
    }
    if (!fromWorkspace && entry.effect !== 'deny') declared = true;
    const base = { priority: entry.priority ?? 0, source, entry, fromWorkspace, rateKey };
    if (v.kind === 'violation') candidates.push({ ...base, effect: 'deny', reason: `${req.capability}${on}: ${v.why} (${source})` });
    else candidates.push({ ...base, effect: entry.effect, reason: `${entry.effect} ${entry.capability}${on} by ${source}` });
  };
  skill.permissions.forEach((e, i) => consider(e, `manifest:${req.skill}#${i}`, false));
  state.workspace.entries.forEach((e, i) => consider(e, `workspace#${i}`, true));

  if (candidates.length === 0) {
    return {
      effect: 'deny',
      source: 'default',
      reason: `no entry allows ${req.capability}${on} for \`${req.skill}\` (deny by default)${misses.length ? `; ${misses.slice(0, 2).join('; ')}` : ''}`,
    };
  }
  // Highest priority first; among equals the stricter effect; stable otherwise (manifest before workspace).
  const winner = candidates.reduce((best, c) =>
    c.priority > best.priority || (c.priority === best.priority && EFFECT_RANK[c.effect] > EFFECT_RANK[best.effect]) ? c : best,
  );
  const fallback = winner.entry.fallback_msg ? { fallbackMsg: winner.entry.fallback_msg } : {};

  if (winner.effect === 'deny') return { effect: 'deny', reason: winner.reason, source: winner.source, entry: winner.entry, ...fallback };
  if (winner.fromWorkspace && !declared && !WORKSPACE_LEVEL.has(req.capability)) {
    return {
      effect: 'deny',
      source: 'default',
      ...fallback,
      reason: `\`${req.skill}\` does not declare ${req.capability}${on}; the workspace entry ${winner.source} cannot grant what a skill does not declare`,
    };
  }
  let effect: Effect = winner.effect;
  let reason = winner.reason;
  if (effect === 'allow') {
    const trust = req.trust ? lowerTrust(skill.trust, req.trust) : skill.trust;
    const cap = state.workspace.trust[trust] ?? DEFAULT_TRUST_CAPS[trust];
    const level = CAPABILITIES[req.capability].level;
    if (cap === 'all' || (cap === 'dangerous' && level !== 'normal')) {
      effect = 'confirm';
      const via = trust !== skill.trust ? ` (called by a ${trust} skill)` : '';
      reason = `${reason}, capped to confirm for a ${trust} skill${via} (${level})`;
    }
  }
  if (effect === 'confirm') {
    const grant = findGrant(req, state);
    if (grant) {
      return {
        effect: 'allow',
        source: `grant:${grant.id}`,
        grantId: grant.id,
        entry: winner.entry,
        rateKey: winner.rateKey,
        reason: `${req.capability}${on} allowed by ${grant.scope} grant ${grant.id} (answering ${grant.answers ?? winner.source})`,
      };
    }
  }
  return { effect, reason, source: winner.source, entry: winner.entry, rateKey: winner.rateKey, ...fallback };
}

/**
 * A live grant for this request: same skill, same skill content, same capability, the exact
 * target it was given for (when it names one), and its own constraints hold.
 */
export function findGrant(req: PermissionRequest, state: Pick<PolicyState, 'grants' | 'env' | 'usage' | 'skills'>): Grant | undefined {
  const contentHash = state.skills[req.skill]?.contentHash;
  return state.grants.find(
    (g) =>
      g.skill === req.skill &&
      // A replaced skill (other content under the same id) answers no grant given to the old one.
      g.skillHash === contentHash &&
      g.capability === req.capability &&
      g.revokedAt === undefined &&
      g.grantedAt <= req.time &&
      (g.expiresAt === undefined || req.time < g.expiresAt) &&
      (g.target === undefined || sameTarget(g.target, req.target, state.env)) &&
      evaluateConstraints(
        g.constraints,
        { ...req, args: {} },
        { env: state.env, effect: 'allow', usage: state.usage[`grant:${g.id}`] ?? [] },
      ).kind === 'applies',
  );
}
