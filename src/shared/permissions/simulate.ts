import { z } from 'zod';
import { FoldersSchema, formatIssues, ManifestSchema, TrustTierSchema, WorkspacePolicySchema, type ParseResult } from './manifest';
import type { Grant, PermissionRequest, PermissionTarget, PolicyDecision } from './policy';
import { PermissionSession, defaultWorkspacePolicy } from './session';
import { CAPABILITY_NAMES, type Capability } from './taxonomy';

/**
 * Simulation for administrators and tests: a policy document, a list of requests (JSONL) and
 * optional grants in, one decision per request out, through the same engine and session the
 * mediator uses. A request may carry the `answer` a user would give to a confirm.
 */

const TargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string() }).strict(),
  z.object({ kind: z.literal('app'), app: z.string() }).strict(),
  z.object({ kind: z.literal('url'), url: z.string() }).strict(),
  z.object({ kind: z.literal('command'), command: z.string() }).strict(),
  z.object({ kind: z.literal('skill'), skill: z.string() }).strict(),
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('unknown'), hint: z.string().optional() }).strict(),
]);

const CapabilitySchema = z.string().refine((c) => (CAPABILITY_NAMES as string[]).includes(c), {
  message: `expected a capability name (${CAPABILITY_NAMES.slice(0, 4).join(', ')}, ...); patterns are for manifests, requests name one capability`,
});

const TimeSchema = z
  .union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })])
  .transform((t) => (typeof t === 'number' ? t : Date.parse(t)));

/** The `--policy` document: workspace defaults plus the manifests of the skills in play. */
export const SimulationPolicySchema = z
  .object({
    workspace: WorkspacePolicySchema.optional(),
    skills: z.record(
      z.string().min(1),
      z
        .object({
          permissions: ManifestSchema,
          trust: TrustTierSchema.default('builtin'),
          app: z.string().optional(),
          version: z.string().optional(),
          /** Content hash of the skill; grants name the hash they were given for. */
          content_hash: z.string().optional(),
        })
        .strict(),
    ),
    env: z
      .object({
        folders: FoldersSchema.default({}),
        path_style: z.enum(['posix', 'win32']).default('posix'),
        utc_offset_minutes: z.number().int().min(-840).max(840).default(0),
      })
      .strict()
      .default({ folders: {}, path_style: 'posix', utc_offset_minutes: 0 }),
  })
  .strict();
export type SimulationPolicy = z.infer<typeof SimulationPolicySchema>;

/** One line of `--requests`. */
export const SimulationRequestSchema = z
  .object({
    skill: z.string().min(1),
    capability: CapabilitySchema,
    target: TargetSchema.default({ kind: 'none' }),
    args: z.record(z.string(), z.unknown()).optional(),
    app: z.string().optional(),
    time: TimeSchema.optional(),
    /** The user's answer if the decision is confirm. */
    answer: z.enum(['allow_once', 'allow_session', 'deny']).optional(),
  })
  .strict();
export type SimulationRequest = z.input<typeof SimulationRequestSchema>;

/** `--grants`: grants already in force. */
export const SimulationGrantsSchema = z.array(
  z
    .object({
      id: z.string().min(1).optional(),
      skill: z.string().min(1),
      capability: CapabilitySchema,
      constraints: ManifestSchema.element.shape.constraints.unwrap().default({}),
      /** The exact target the grant answers (compared exactly); absent: any the constraints admit. */
      target: TargetSchema.optional(),
      /** The skill content the grant was given for; it applies only while the skill has this `content_hash`. */
      skill_hash: z.string().optional(),
      scope: z.enum(['once', 'session', 'persistent']).default('session'),
      granted_at: TimeSchema.optional(),
      expires_at: TimeSchema.optional(),
      revoked_at: TimeSchema.optional(),
    })
    .strict(),
);

export interface SimulationResult {
  index: number;
  request: PermissionRequest;
  effect: PolicyDecision['effect'];
  /** The effect after the simulated answer (confirm + allow_* -> allow). */
  final: PolicyDecision['effect'];
  reason: string;
  source: string;
  answer?: 'allow_once' | 'allow_session' | 'deny';
  grantCreated?: string;
}

function parse<T extends z.ZodType>(schema: T, raw: unknown, where: string): ParseResult<z.infer<T>> {
  const res = schema.safeParse(raw);
  return res.success ? { ok: true, value: res.data } : { ok: false, errors: formatIssues(res.error, where) };
}

export const parseSimulationPolicy = (raw: unknown) => parse(SimulationPolicySchema, raw, 'policy');
export const parseSimulationRequest = (raw: unknown, line: number) => parse(SimulationRequestSchema, raw, `requests line ${line}`);
export const parseSimulationGrants = (raw: unknown) => parse(SimulationGrantsSchema, raw ?? [], 'grants');

/** Runs requests in order through one session, as the mediator would (grants consumed, answers applied). */
export function simulate(
  policy: SimulationPolicy,
  requests: readonly z.infer<typeof SimulationRequestSchema>[],
  grants: z.infer<typeof SimulationGrantsSchema> = [],
  opts: { now?: number } = {},
): SimulationResult[] {
  const now = opts.now ?? 0;
  const session = new PermissionSession(
    policy.workspace ?? defaultWorkspacePolicy(),
    {
      folders: policy.env.folders,
      pathStyle: policy.env.path_style,
      utcOffsetMinutes: policy.env.utc_offset_minutes,
    },
    {
      skills: Object.fromEntries(
        Object.entries(policy.skills).map(([id, s]) => [
          id,
          {
            permissions: s.permissions,
            trust: s.trust,
            ...(s.app && { app: s.app }),
            ...(s.version && { version: s.version }),
            ...(s.content_hash && { contentHash: s.content_hash }),
          },
        ]),
      ),
      grants: grants.map((g, i): Grant => ({
        id: g.id ?? `g${i + 1}`,
        skill: g.skill,
        capability: g.capability as Capability,
        constraints: g.constraints,
        ...(g.target && { target: g.target as PermissionTarget }),
        ...(g.skill_hash && { skillHash: g.skill_hash }),
        scope: g.scope,
        grantedAt: g.granted_at ?? 0,
        ...(g.expires_at !== undefined && { expiresAt: g.expires_at }),
        ...(g.revoked_at !== undefined && { revokedAt: g.revoked_at }),
      })),
      idPrefix: 'sim',
    },
  );
  return requests.map((r, index) => {
    const request: PermissionRequest = {
      skill: r.skill,
      capability: r.capability as Capability,
      target: r.target as PermissionTarget,
      time: r.time ?? now,
      ...(r.args && { args: r.args }),
      ...(r.app && { app: r.app }),
    };
    const d = session.decide(request);
    const result: SimulationResult = { index, request, effect: d.effect, final: d.effect, reason: d.reason, source: d.source };
    if (d.effect === 'confirm' && r.answer) {
      result.answer = r.answer;
      result.final = r.answer === 'deny' ? 'deny' : 'allow';
      const grant = r.answer === 'allow_session' ? session.grantFor(request, d, 'session') : undefined;
      if (grant) result.grantCreated = grant.id;
    }
    if (result.final === 'allow') session.recordAllowed({ ...d, effect: 'allow' }, request.time);
    return result;
  });
}
