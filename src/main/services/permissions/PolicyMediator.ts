import { createHash } from 'node:crypto';
import type { AuditRecord, AuditSink } from '../../../shared/permissions/audit';
import { manifestWithin } from '../../../shared/permissions/coverage';
import { describeTarget, type Grant, type PermissionRequest, type PolicyDecision } from '../../../shared/permissions/policy';
import type { PermissionSession } from '../../../shared/permissions/session';
import { lowerTrust, type TrustTier } from '../../../shared/permissions/manifest';
import { CAPABILITIES, type Capability } from '../../../shared/permissions/taxonomy';
import type { ActionMediator, ActionRequest, EffectRequest, MediationDecision } from '../../../shared/ports/mediation';
import type { PermissionPrompter, PromptResult } from '../../../shared/ports/prompter';
import { primitiveInput, siteOrigin, type AppDoc, type Skill, type SkillLibrary } from '../../../shared/skill';
import { createPathCanonicalizer, type PathCanonicalizer } from './canonicalPaths';
import { canonicalizeStep } from './canonicalStep';
import { defaultScriptInferrer, primitiveNeeds, type CapabilityNeed, type ScriptInferrer } from './primitiveNeeds';
import { skillContentHash } from './skillHash';
import { verifyReferencedFiles, type ReferencedFile } from './inference';

/**
 * Complete mediation: the executor calls `check` before every primitive. Each capability the
 * step needs is decided by the session's policy; `confirm` asks the prompter (no answer or no
 * user means deny); every decision is appended to the audit trail; the first deny stops the step.
 * Input to a window of another app than the step's stops the run (focus changed under it).
 */
export interface PolicyMediatorOptions {
  /** The library, or how to get it (the core loads it asynchronously). */
  library: SkillLibrary | (() => SkillLibrary | Promise<SkillLibrary>);
  session: PermissionSession;
  prompter: PermissionPrompter;
  audit?: AuditSink;
  /** Called when an answer creates a grant (to show it in a UI, or to store it). */
  onGrant?: (grant: Grant) => void;
  now?: () => number;
  /** @default 60000 (or the workspace's `prompt_timeout_ms`) */
  promptTimeoutMs?: number;
  infer?: ScriptInferrer;
  /** Puts request paths in canonical form before any decision. @default this machine's file system */
  canonicalizePath?: PathCanonicalizer;
  /** Where a website's `base_url_env` is read (its origin binds `${site}`). @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

export class PolicyMediator implements ActionMediator {
  private readonly now: () => number;
  private readonly infer: ScriptInferrer;
  private readonly canonicalize: PathCanonicalizer;

  constructor(private readonly opts: PolicyMediatorOptions) {
    this.now = opts.now ?? Date.now;
    this.canonicalize = opts.canonicalizePath ?? createPathCanonicalizer({ style: opts.session.env.pathStyle });
    // Judged afresh at every step, never from a cache keyed on the script's text: the files a
    // script calls may have changed since it last ran.
    this.infer = opts.infer ?? defaultScriptInferrer;
    if (typeof opts.library !== 'function') this.loadPool(opts.library);
  }

  private async library(): Promise<SkillLibrary> {
    const lib = typeof this.opts.library === 'function' ? await this.opts.library() : this.opts.library;
    this.loadPool(lib);
    return lib;
  }

  /** The declared pool is every loaded skill's manifest (reloaded when the library is). */
  private loadPool(lib: SkillLibrary): void {
    if (this.loadedFrom === lib) return;
    for (const s of lib.skills.values()) this.ensureLoaded(s);
    this.loadedFrom = lib;
  }

  private loadedFrom?: SkillLibrary;
  private readonly loadedSkills = new Map<string, Skill>();

  async check(request: ActionRequest, signal?: AbortSignal): Promise<MediationDecision> {
    const library = await this.library();
    const skill = request.skill;
    this.ensureLoaded(skill);
    const p = request.primitive;
    const time = this.now();
    const digest = argsDigest(request);
    const base = { sessionId: request.sessionId, runId: request.runId, skillId: skill.id, nodeId: request.nodeId, argsDigest: digest };

    const input = primitiveInput(p);
    if (input && request.activeWindowIsApp === false) {
      // Fail closed: input goes only to a window known to belong to the step's app.
      const cap: Capability = input === 'keyboard' ? 'input.keyboard' : 'input.mouse';
      const w = request.activeWindow;
      const app = request.app ?? skill.app;
      const reason = !app
        ? `${p.action} has no app to send it to (run the skill with an app, or focus a window of a known app)`
        : w
          ? `focus moved to another app's window (\`${w.title}\`${w.className ? `, ${w.className}` : ''}) before ${p.action}; input goes only to \`${app}\``
          : `no window has the focus (the window manager reports none) before ${p.action}; input goes only to \`${app}\``;
      this.record({
        ...base,
        ts: time,
        capability: cap,
        target: w ? `window:${w.title}` : 'window:(none)',
        decision: 'deny',
        reason,
        policySource: 'mediation:focus',
      });
      return { effect: 'deny', code: 'permission.focus_changed', reason };
    }

    const appId = request.app ?? skill.app;
    const profile = appId ? library.apps.get(appId) : undefined;
    const site = this.siteOf(profile);
    if (typeof site === 'object') {
      this.record({ ...base, ts: time, capability: 'web.navigate', decision: 'deny', reason: site.error, policySource: 'mediation:site' });
      return { effect: 'deny', code: 'permission.bad_site', reason: site.error };
    }
    const { needs, unanalysable, analysis } = primitiveNeeds(skill, p, {
      raw: request.raw,
      ...(request.app && { app: request.app }),
      args: request.args,
      screenshot: request.screenshot,
      infer: this.infer,
      ...(profile && { profile }),
      ...(site !== undefined && { site }),
    });
    if (unanalysable) {
      const reason = `${unanalysable} (fail closed)`;
      this.record({
        ...base,
        ts: time,
        capability: 'script.execute',
        target: describeTarget({ kind: 'command', command: (p as { script?: string }).script ?? '' }),
        decision: 'deny',
        reason,
        policySource: 'inference',
      });
      return { effect: 'deny', code: 'permission.unanalysable', reason };
    }
    // Decisions are made on the files paths really name (symlinks followed, Windows forms normalised).
    const step = canonicalizeStep({
      primitive: p,
      needs,
      inferred: new Set(analysis?.capabilities.map((c) => c.target)),
      args: request.args,
      argSpecs: skill.args,
      canonicalize: this.canonicalize,
      home: this.opts.session.env.folders.home,
    });
    if (!step.ok) {
      const reason = `${step.capability} on ${step.target}: ${step.reason} (fail closed)`;
      this.record({
        ...base,
        ts: time,
        capability: step.capability,
        target: auditTarget(step.capability, step.target),
        decision: 'deny',
        reason,
        policySource: 'mediation:canonical_path',
      });
      return { effect: 'deny', code: 'permission.path_not_canonical', reason };
    }
    const asked = { prompted: false };
    const trust = this.chainTrust(request, library);
    // What one need's audit row hides, no other row of the step may show in clear.
    const sensitive = step.needs.flatMap((n) => (isRedacted(n.capability) ? (describeTarget(n.target) ?? []) : []));
    for (const need of dedupe(step.needs)) {
      const outcome = await this.decideNeed(
        { ...request, args: step.args, trust, sensitive, site },
        skill,
        need,
        time,
        base,
        signal,
        () => {
          asked.prompted = true;
        },
      );
      if (outcome) return outcome;
    }
    if (p.action === 'call') {
      const problem = this.calleeEscapes(request, library);
      if (problem) {
        this.record({
          ...base,
          ts: time,
          capability: 'skill.call',
          target: `skill:${p.skill}`,
          decision: 'deny',
          reason: problem,
          policySource: 'mediation:containment',
        });
        return { effect: 'deny', code: 'permission.callee_exceeds_caller', reason: problem };
      }
    }
    // What was analysed must be what runs: the files a script calls are checked again just before it starts.
    const referenced = analysis?.referencedFiles ?? [];
    return {
      effect: 'allow',
      ...(needs.length === 0 && { reason: 'no capability needed' }),
      ...(asked.prompted ? { prompted: true, reason: 'confirmed by the user' } : {}),
      ...(referenced.length > 0 && { recheck: () => staleFiles(referenced) }),
    };
  }

  /**
   * Decides an effect of the running step when it happens (a request its web page sends), as a
   * step's own needs are decided: the step's skill and trust chain, `${site}` bound to its app's
   * website, a prompt where the policy asks, an audit row either way.
   */
  async checkEffect(request: EffectRequest, signal?: AbortSignal): Promise<MediationDecision> {
    const library = await this.library();
    const skill = request.skill;
    this.ensureLoaded(skill);
    const time = this.now();
    const base = {
      sessionId: request.sessionId,
      runId: request.runId,
      skillId: skill.id,
      nodeId: `${request.nodeId} (request)`,
      argsDigest: argsDigest(request),
    };
    const appId = request.app ?? skill.app;
    const site = this.siteOf(appId ? library.apps.get(appId) : undefined);
    if (typeof site === 'object') return { effect: 'deny', code: 'permission.bad_site', reason: site.error };
    const trust = this.chainTrust(request, library);
    const outcome = await this.decideNeed({ args: request.args, app: request.app, trust, site }, skill, request.need, time, base, signal);
    return outcome ?? { effect: 'allow' };
  }

  /** The origin of the website `profile` is (binds `${site}`); undefined for a desktop app; an error for a bad override. */
  private siteOf(profile: AppDoc | undefined): string | undefined | { error: string } {
    if (!profile?.web) return undefined;
    try {
      return siteOrigin(profile.web, this.opts.env ?? process.env);
    } catch (err) {
      return { error: `${(err as Error).message} (fail closed)` };
    }
  }

  /** Decides `context.load` for putting a skill's text into a model's context (for the agent). */
  async checkContextLoad(skill: Skill, ctx: { sessionId: string; runId?: string }, signal?: AbortSignal): Promise<MediationDecision> {
    await this.library();
    this.ensureLoaded(skill);
    const time = this.now();
    const base = { sessionId: ctx.sessionId, runId: ctx.runId ?? '', skillId: skill.id, nodeId: '(context)', argsDigest: undefined };
    const outcome = await this.decideNeed(
      { args: {} },
      skill,
      { capability: 'context.load', target: { kind: 'skill', skill: skill.id }, detail: 'context.load' },
      time,
      base,
      signal,
    );
    return outcome ?? { effect: 'allow' };
  }

  /** Decides one need; returns the deny that ends the step, or undefined when allowed. */
  private async decideNeed(
    request: Pick<ActionRequest, 'args' | 'app'> & { trust?: TrustTier; sensitive?: readonly string[]; site?: string },
    skill: Skill,
    need: CapabilityNeed,
    time: number,
    base: { sessionId: string; runId: string; skillId: string; nodeId: string; argsDigest: string | undefined },
    signal?: AbortSignal,
    onPrompt?: () => void,
  ): Promise<MediationDecision | undefined> {
    const { session } = this.opts;
    const req: PermissionRequest = {
      skill: skill.id,
      capability: need.capability,
      target: need.target,
      args: request.args,
      time,
      ...(request.app && { app: request.app }),
      ...(request.site !== undefined && { site: request.site }),
      ...(request.trust && request.trust !== skill.trust && { trust: request.trust }),
    };
    const d: PolicyDecision = session.decide(req);
    const rendered = describeTarget(need.target);
    const target = auditTarget(need.capability, rendered, request.sensitive);
    const rec = {
      ...base,
      runId: base.runId || undefined,
      ts: time,
      capability: need.capability,
      ...(target !== undefined && { target }),
      reason: scrub(d.reason, request.sensitive ?? []),
      policySource: d.source,
    };
    if (d.effect === 'allow') {
      session.recordAllowed(d, time);
      this.record({ ...rec, decision: 'allow' });
      return undefined;
    }
    if (d.effect === 'deny') {
      this.record({ ...rec, decision: 'deny' });
      return { effect: 'deny', code: 'permission.denied', reason: d.fallbackMsg ? `${d.fallbackMsg} (${d.reason})` : d.reason };
    }
    onPrompt?.();
    const answer = await this.ask(req.trust ? { ...skill, trust: req.trust } : skill, need, d, signal);
    const auditAnswer: AuditRecord['answer'] = answer.by === 'user' ? answer.answer : answer.by === 'cancelled' ? 'deny' : answer.by;
    if (answer.answer === 'deny') {
      const why =
        answer.by === 'user'
          ? 'denied by the user'
          : answer.by === 'timeout'
            ? 'no answer before the timeout'
            : answer.by === 'no_user'
              ? 'nobody to ask (no interactive user)'
              : 'the prompt was cancelled';
      this.record({ ...rec, decision: 'confirm', answer: auditAnswer, reason: `${d.reason}; ${why}` });
      return {
        effect: 'deny',
        code: 'permission.not_confirmed',
        reason: `${need.capability}${rendered ? ` on ${rendered}` : ''} needs approval: ${why}${d.fallbackMsg ? `. ${d.fallbackMsg}` : ''}`,
      };
    }
    if (answer.answer === 'allow_session') {
      // Bound to what the prompt showed (this canonical target, this skill content); none for an unknown target.
      const grant = session.grantFor(req, d, 'session');
      if (grant) this.opts.onGrant?.(grant);
    }
    session.recordAllowed({ ...d, effect: 'allow' }, time);
    this.record({ ...rec, decision: 'confirm', answer: auditAnswer });
    return undefined;
  }

  private async ask(skill: Skill, need: CapabilityNeed, d: PolicyDecision, signal?: AbortSignal): Promise<PromptResult> {
    // The prompt gets the whole target, not the audit's summary: what the user approves must be all there is.
    const target = describeTarget(need.target, 'full');
    const timeoutMs = this.opts.promptTimeoutMs ?? this.opts.session.workspace.prompt_timeout_ms ?? 60_000;
    try {
      return await this.opts.prompter.ask(
        {
          skill: { id: skill.id, version: skill.version, trust: skill.trust },
          capability: need.capability,
          level: CAPABILITIES[need.capability].level,
          ...(target !== undefined && { target }),
          policySource: d.source,
          ...(d.fallbackMsg && { fallbackMsg: d.fallbackMsg }),
          reason: d.reason,
          timeoutMs,
        },
        signal,
      );
    } catch {
      // A prompter that fails is a prompter that did not say yes.
      return { answer: 'deny', by: 'cancelled' };
    }
  }

  /** For a call: why the callee's manifest reaches beyond the caller's, if it does. */
  private calleeEscapes(request: ActionRequest, library: SkillLibrary): string | undefined {
    const p = request.primitive;
    if (p.action !== 'call') return undefined;
    let callee: Skill;
    try {
      callee = library.resolve(p.skill, request.app);
    } catch (err) {
      return `cannot resolve callee \`${p.skill}\`: ${(err as Error).message}`;
    }
    const app = callee.app ?? request.app;
    // `${site}` is each side's website, never an argument (a bad override binds nothing: not within).
    const siteOf = (id: string | undefined) => {
      const s = this.siteOf(id ? library.apps.get(id) : undefined);
      return typeof s === 'string' ? s : undefined;
    };
    const problems = manifestWithin(
      {
        manifest: callee.permissions,
        values: { ...(p.args ?? {}), ...(app && { app }), site: siteOf(app) },
        ...(callee.app && { app: callee.app }),
      },
      {
        manifest: request.skill.permissions,
        values: { ...request.args, ...(request.app && { app: request.app }), site: siteOf(request.app ?? request.skill.app) },
        ...(request.skill.app && { app: request.skill.app }),
      },
      this.opts.session.env,
    );
    return problems.length
      ? `callee \`${callee.id}\` asks for more than caller \`${request.skill.id}\` holds: ${problems.slice(0, 3).join('; ')}`
      : undefined;
  }

  /**
   * The trust a step runs with: the lowest on its call chain, so a built-in skill called by a
   * community one does nothing the community skill could not do without asking (confused deputy).
   */
  private chainTrust(request: Pick<ActionRequest, 'skill' | 'callChain'>, library: SkillLibrary): TrustTier {
    return lowerTrust(request.skill.trust, ...request.callChain.map((id) => library.skills.get(id)?.trust ?? 'untrusted'));
  }

  private ensureLoaded(skill: Skill): void {
    // A reloaded library may carry a changed manifest: the skill object identifies the version.
    if (this.loadedSkills.get(skill.id) === skill) return;
    this.loadedSkills.set(skill.id, skill);
    this.opts.session.loadSkill(skill.id, {
      permissions: skill.permissions,
      trust: skill.trust,
      version: skill.version,
      contentHash: skillContentHash(skill),
      ...(skill.app && { app: skill.app }),
    });
  }

  private record(r: AuditRecord): void {
    this.opts.audit?.append(r);
  }
}

const isRedacted = (capability: Capability) => CAPABILITIES[capability].level === 'redact';
const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/**
 * The audit's rendering of a target: a digest for capabilities whose targets are sensitive
 * (redact level), and, in any other row of the same step, each sensitive target replaced by its
 * digest (the file.read of `~/.ssh/id_rsa` beside its secrets.read, a command naming it).
 */
function auditTarget(capability: Capability, rendered: string | undefined, sensitive: readonly string[] = []): string | undefined {
  if (rendered === undefined) return rendered;
  return isRedacted(capability) ? digest(rendered) : scrub(rendered, sensitive);
}

/** `text` with each sensitive target replaced by its digest (longest first, so a path hides its prefixes too). */
function scrub(text: string, sensitive: readonly string[]): string {
  let out = text;
  for (const secret of [...sensitive].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3 && out.includes(secret)) out = out.split(secret).join(digest(secret));
  }
  return out;
}

/** Why an analysis no longer describes what would run (its files changed, appeared or vanished), if it does not. */
function staleFiles(files: readonly ReferencedFile[]): string | undefined {
  const changed = verifyReferencedFiles(files);
  return changed.length ? `changed since the script was analysed: ${changed.slice(0, 3).join(', ')}; not run (fail closed)` : undefined;
}

function dedupe(needs: CapabilityNeed[]): CapabilityNeed[] {
  const seen = new Set<string>();
  return needs.filter((n) => {
    const k = `${n.capability}|${JSON.stringify(n.target)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** SHA-256 of the resolved primitive and the step's arguments: identifies them without storing them. */
function argsDigest(r: Pick<ActionRequest, 'primitive' | 'args'>): string {
  return createHash('sha256')
    .update(stableJson({ primitive: r.primitive, args: r.args }))
    .digest('hex');
}

function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}
