/** Permissions: complete mediation of every primitive, prompts, audit, manifest derivation, static inference. */
import type { AuditSink } from '../../../shared/permissions/audit';
import type { WorkspacePolicy } from '../../../shared/permissions/manifest';
import type { ScopeEnv } from '../../../shared/permissions/scopes';
import { defaultWorkspacePolicy, PermissionSession } from '../../../shared/permissions/session';
import type { PermissionPrompter } from '../../../shared/ports/prompter';
import type { SkillLibrary } from '../../../shared/skill';
import type { StoreDb } from '../store';
import { PolicyMediator } from './PolicyMediator';
import { SqliteAuditSink } from './SqliteAuditSink';
import { localScopeEnv, persistentGrants } from './workspace';

export { PolicyMediator, type PolicyMediatorOptions } from './PolicyMediator';
export { TerminalPrompter, formatPrompt, parseAnswer } from './TerminalPrompter';
export { SqliteAuditSink, MemoryAuditSink } from './SqliteAuditSink';
export {
  deriveManifest,
  checkSkillManifest,
  enforceManifests,
  type DerivedManifest,
  type DerivedNeed,
  type ManifestCheck,
} from './deriveManifest';
export { primitiveNeeds, type CapabilityNeed } from './primitiveNeeds';
export { inferScript, inferRunScript, inferFile, inferCommand, detectLanguage, fsScriptReader, verifyReferencedFiles } from './inference';
export type {
  InferenceResult,
  InferredCapability,
  InferenceFinding,
  InferOptions,
  ReferencedFile,
  ScriptLanguage,
  ScriptReader,
} from './inference';
export { loadWorkspacePolicy, localScopeEnv, persistentGrants } from './workspace';
export { skillContentHash } from './skillHash';
export { createPathCanonicalizer, foldsCaseAt, nodePathFs, type PathCanonicalizer, type PathFs } from './canonicalPaths';

export interface CreatePolicyMediatorOptions {
  library: SkillLibrary | (() => SkillLibrary | Promise<SkillLibrary>);
  prompter: PermissionPrompter;
  /** The store: decisions go to its audit table, persistent grants come from its grants table. */
  db?: StoreDb;
  /** Where decisions go when there is no store (tests, dry runs). */
  audit?: AuditSink;
  /** @default the built-in defaults (`loadWorkspacePolicy(dataDir)` reads the user's) */
  workspace?: WorkspacePolicy;
  env?: ScopeEnv;
  now?: () => number;
  promptTimeoutMs?: number;
}

/** Builds the session and the mediator the executor calls: the one-call wiring for composition roots. */
export function createPolicyMediator(o: CreatePolicyMediatorOptions): { mediator: PolicyMediator; session: PermissionSession } {
  const workspace = o.workspace ?? defaultWorkspacePolicy();
  const session = new PermissionSession(workspace, o.env ?? localScopeEnv(workspace), {
    grants: o.db ? persistentGrants(o.db, (o.now ?? Date.now)()) : [],
  });
  const audit = o.audit ?? (o.db ? new SqliteAuditSink(o.db) : undefined);
  const mediator = new PolicyMediator({
    library: o.library,
    session,
    prompter: o.prompter,
    ...(audit && { audit }),
    ...(o.now && { now: o.now }),
    ...(o.promptTimeoutMs !== undefined && { promptTimeoutMs: o.promptTimeoutMs }),
  });
  return { mediator, session };
}
