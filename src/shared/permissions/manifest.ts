import { z } from 'zod';
import { describeValue } from '../errors';
import { parseHostPattern } from './hosts';
import { isKnownPattern, suggestCapabilities } from './taxonomy';

/**
 * Permission manifests (SkillGuard): what a skill may do, as a list of entries matched by
 * capability pattern and constraints. The workspace policy document holds defaults every
 * skill is subject to. Semantics: `PolicyEngine.ts`; the DSL is documented in docs/permissions.md.
 */

/** `group.name`, `group.*` or `*`, naming at least one capability of the taxonomy. */
export const CapabilityPatternSchema = z
  .string()
  .regex(/^(\*|[a-z_]+\.(\*|[a-z_]+))$/, 'expected `group.name`, `group.*` or `*`')
  .superRefine((p, ctx) => {
    if (isKnownPattern(p)) return;
    const near = suggestCapabilities(p);
    ctx.addIssue({
      code: 'custom',
      message: `unknown capability \`${p}\`${near.length ? `; did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?` : ''} (see docs/permissions.md)`,
    });
  });

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a 24-hour time `HH:MM`');

const RegexSchema = z
  .string()
  .min(1)
  .superRefine((p, ctx) => {
    try {
      new RegExp(p, 'i');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `invalid regular expression ${describeValue(p)}: ${(err as Error).message}` });
    }
  });

const HostPatternSchema = z.string().superRefine((h, ctx) => {
  const p = parseHostPattern(h);
  if (typeof p === 'string') ctx.addIssue({ code: 'custom', message: p });
});

export const ConstraintsSchema = z
  .object({
    /**
     * Path scopes. `${arg}` binds to an argument; `~`, `%HOME%`, `%DOCUMENTS%`, `%DESKTOP%`, `%DOWNLOADS%`,
     * `%WORKSPACE%`, `%TEMP%` expand to the user's folders; `*` matches within a segment, `**` across.
     * A scope also covers everything below it.
     */
    paths: z.array(z.string().min(1)).optional(),
    /** Paths must lie inside the workspace folder. */
    workspace_only: z.boolean().optional(),
    /** App ids whose windows may receive input (`${app}`: the app the skill runs in). @default the skill's own app, for input and launch */
    apps: z.array(z.string().min(1)).optional(),
    /** Host allowlist: `example.com` (exactly), `*.example.com` (subdomains and itself). */
    domains: z.array(z.string().min(1)).optional(),
    /** URL prefixes allowed (`https://api.example.com/v1/`): same scheme, host and port, and a path below the prefix's. */
    urls: z.array(z.string().min(1)).optional(),
    /**
     * Egress allowlist, checked on its own (with `domains`/`urls` both must hold): `api.example.com`
     * (that host on its scheme's default port), `*.example.com` (its subdomains, not itself),
     * `api.example.com:8443`, `api.example.com:*` (any port), IP literals. Case-insensitive,
     * IDNA-normalised; a URL whose host parsers could read differently matches nothing.
     * @example hosts: [api.example.com, '*.uploads.example.com']
     */
    hosts: z.array(HostPatternSchema).min(1).optional(),
    /** Case-insensitive regexes; a command matching one is denied even where this entry allows. */
    denied_command_patterns: z.array(RegexSchema).optional(),
    /** At most `count` allowed decisions per `per_seconds` under this entry; beyond, denied. */
    rate_limit: z.object({ count: z.number().int().positive(), per_seconds: z.number().positive() }).strict().optional(),
    /** Local time window in which this entry applies (end before start wraps past midnight). */
    time_window: z
      .object({
        start: HHMM,
        end: HHMM,
        days: z
          .array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']))
          .min(1)
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Constraints = z.infer<typeof ConstraintsSchema>;

export const EffectSchema = z.enum(['allow', 'confirm', 'deny']);
export type Effect = z.infer<typeof EffectSchema>;

export const PermissionEntrySchema = z
  .object({
    capability: CapabilityPatternSchema,
    effect: EffectSchema,
    /** Higher wins; at equal priority deny wins over confirm, confirm over allow. @default 0 */
    priority: z.number().int().min(-1000).max(1000).optional(),
    constraints: ConstraintsSchema.optional(),
    /** Shown to the user when the request is denied or needs confirmation. */
    fallback_msg: z.string().max(500).optional(),
  })
  .strict();
export type PermissionEntry = z.infer<typeof PermissionEntrySchema>;

export const TrustTierSchema = z.enum(['builtin', 'verified', 'community', 'untrusted']);
export type TrustTier = z.infer<typeof TrustTierSchema>;

/** Tiers from least to most trusted. */
const TRUST_ORDER: readonly TrustTier[] = ['untrusted', 'community', 'verified', 'builtin'];

/** The less trusted of the tiers: a call runs with the lowest trust on its chain. */
export function lowerTrust(...tiers: TrustTier[]): TrustTier {
  return tiers.reduce((low, t) => (TRUST_ORDER.indexOf(t) < TRUST_ORDER.indexOf(low) ? t : low), 'builtin');
}

export const ManifestSchema = z.array(PermissionEntrySchema);
export type Manifest = z.infer<typeof ManifestSchema>;

/** How allows of a less-trusted skill are capped: by protection level, or for every capability. */
export const TrustCapSchema = z.enum(['none', 'dangerous', 'all']);
export type TrustCap = z.infer<typeof TrustCapSchema>;

/** Folders that path scopes may name; absent ones never match. */
export const FoldersSchema = z
  .object({
    home: z.string().optional(),
    documents: z.string().optional(),
    desktop: z.string().optional(),
    downloads: z.string().optional(),
    workspace: z.string().optional(),
    temp: z.string().optional(),
  })
  .strict();
export type Folders = z.infer<typeof FoldersSchema>;

/**
 * The workspace defaults document (`<dataDir>/policy.yaml` or `.json`): entries every skill is
 * subject to, competing with its manifest by priority; how trust tiers cap allows; folders.
 */
export const WorkspacePolicySchema = z
  .object({
    kind: z.literal('policy').optional(),
    version: z.literal(1).default(1),
    description: z.string().optional(),
    entries: ManifestSchema.default([]),
    /** `dangerous`: allows of dangerous/system capabilities become confirm; `all`: every allow does. */
    trust: z
      .object({
        builtin: TrustCapSchema.optional(),
        verified: TrustCapSchema.optional(),
        community: TrustCapSchema.optional(),
        untrusted: TrustCapSchema.optional(),
      })
      .strict()
      .default({}),
    folders: FoldersSchema.default({}),
    /** How long a prompt waits before it counts as a deny. @default 60000 */
    prompt_timeout_ms: z.number().int().positive().max(3_600_000).optional(),
  })
  .strict();
export type WorkspacePolicy = z.infer<typeof WorkspacePolicySchema>;

/** Trust caps applied when the workspace document says nothing. */
export const DEFAULT_TRUST_CAPS: Record<TrustTier, TrustCap> = {
  builtin: 'none',
  verified: 'none',
  community: 'dangerous',
  untrusted: 'all',
};

/**
 * Built-in workspace defaults: reading secrets asks even where a manifest allows it (at equal
 * priority confirm beats allow); loading skill text into a model is allowed, capped by trust.
 */
export const DEFAULT_WORKSPACE_ENTRIES: Manifest = [
  { capability: 'secrets.*', effect: 'confirm', fallback_msg: 'Reading credentials always needs your approval.' },
  { capability: 'context.load', effect: 'allow' },
];

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Turns zod issues into `at path: message` lines a person can act on. */
export function formatIssues(error: z.ZodError, where: string): string[] {
  return error.issues.map((i) => `${where}${i.path.length ? ` at ${i.path.join('.')}` : ''}: ${i.message}`);
}

/** Validates a manifest from untrusted input; never throws. */
export function parseManifest(raw: unknown, where = 'manifest'): ParseResult<Manifest> {
  if (raw === undefined || raw === null) return { ok: true, value: [] };
  if (!Array.isArray(raw)) return { ok: false, errors: [`${where}: expected a list of permission entries, got ${describeValue(raw)}`] };
  const res = ManifestSchema.safeParse(raw);
  return res.success ? { ok: true, value: res.data } : { ok: false, errors: formatIssues(res.error, where) };
}

/** Validates a workspace policy document; never throws. */
export function parseWorkspacePolicy(raw: unknown, where = 'policy'): ParseResult<WorkspacePolicy> {
  const res = WorkspacePolicySchema.safeParse(raw ?? {});
  return res.success ? { ok: true, value: res.data } : { ok: false, errors: formatIssues(res.error, where) };
}
