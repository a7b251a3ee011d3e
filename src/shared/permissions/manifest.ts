import { z } from 'zod';

/**
 * Permission manifests (SkillGuard): what a skill may do. Schema only here; the capability
 * taxonomy and the policy engine that enforces these live beside it.
 */

/** `group.name`, `group.*` or `*`. */
export const CapabilityPatternSchema = z.string().regex(/^(\*|[a-z_]+\.(\*|[a-z_]+))$/, 'expected `group.name`, `group.*` or `*`');

export const ConstraintsSchema = z.object({
  /** Path scopes; `${arg}` binds to an argument, `~` and `%DOCUMENTS%`-style folders are expanded. */
  paths: z.array(z.string().min(1)).optional(),
  workspace_only: z.boolean().optional(),
  /** App ids whose windows may receive input. */
  apps: z.array(z.string().min(1)).optional(),
  domains: z.array(z.string().min(1)).optional(),
  urls: z.array(z.string().min(1)).optional(),
  denied_command_patterns: z.array(z.string().min(1)).optional(),
  rate_limit: z.object({ count: z.number().int().positive(), per_seconds: z.number().positive() }).strict().optional(),
  time_window: z.object({
    start: z.string().regex(/^\d{2}:\d{2}$/),
    end: z.string().regex(/^\d{2}:\d{2}$/),
    days: z.array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])).optional(),
  }).strict().optional(),
}).strict();
export type Constraints = z.infer<typeof ConstraintsSchema>;

export const PermissionEntrySchema = z.object({
  capability: CapabilityPatternSchema,
  effect: z.enum(['allow', 'confirm', 'deny']),
  /** Higher wins; at equal priority deny wins. @default 0 */
  priority: z.number().int().optional(),
  constraints: ConstraintsSchema.optional(),
  /** Shown to the user when the request is denied or needs confirmation. */
  fallback_msg: z.string().optional(),
}).strict();
export type PermissionEntry = z.infer<typeof PermissionEntrySchema>;

export const TrustTierSchema = z.enum(['builtin', 'verified', 'community', 'untrusted']);
export type TrustTier = z.infer<typeof TrustTierSchema>;

export const ManifestSchema = z.array(PermissionEntrySchema);
export type Manifest = z.infer<typeof ManifestSchema>;
