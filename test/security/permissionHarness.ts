import { MemoryAuditSink, PolicyMediator, type PathCanonicalizer, type PathFs } from '../../src/main/services/permissions';
import {
  decide,
  PermissionSession,
  type Manifest,
  type PolicyState,
  type ScopeEnv,
  type WorkspacePolicy,
} from '../../src/shared/permissions';
import type { MediationDecision } from '../../src/shared/ports/mediation';
import type { PermissionPrompt, PermissionPrompter, PromptResult } from '../../src/shared/ports/prompter';
import { LibraryDocSchema, renderDeep, SkillLibrary, type ArgValues, type Primitive } from '../../src/shared/skill';
import { edApp } from '../helpers/libraryDocs';

/**
 * The mediator as the executor meets it, for the attack tests of issue 10: a library of skills on
 * app `ed`, a session, a prompter answering from a script, an audit in memory. `step` asks the
 * mediator about one step written with `${arg}` templates, resolved with the given arguments.
 */

export const noWorkspace: WorkspacePolicy = { version: 1, entries: [], trust: {}, folders: {} };

/** The pure engine's effect for `file.read` of a path by a skill with `permissions` (no session, no file system). */
export function engineRead(permissions: unknown[], env: ScopeEnv) {
  const state: PolicyState = {
    skills: { s: { permissions: permissions as Manifest, trust: 'builtin' } },
    workspace: noWorkspace,
    grants: [],
    usage: {},
    env,
  };
  return (path: string, args: Record<string, string> = {}) =>
    decide({ skill: 's', capability: 'file.read', target: { kind: 'path', path }, args, time: 0 }, state).effect;
}

/** Answers prompts in order (then denies, as when nobody is there) and records what was asked. */
export class ScriptedPrompter implements PermissionPrompter {
  readonly asked: PermissionPrompt[] = [];
  constructor(private readonly answers: PromptResult['answer'][] = []) {}
  async ask(p: PermissionPrompt): Promise<PromptResult> {
    this.asked.push(p);
    const answer = this.answers.shift();
    return answer ? { answer, by: 'user' } : { answer: 'deny', by: 'no_user' };
  }
}

/** A skill document on app `ed`: its manifest and one step per argument list. */
export function skillDoc(id: string, permissions: unknown[], steps: Primitive[], args: Record<string, unknown> = {}) {
  const nodes: Record<string, unknown> = {};
  steps.forEach((s, i) => (nodes[`n${i}`] = { ...s, next: i + 1 < steps.length ? `n${i + 1}` : 'done' }));
  nodes.done = { terminal: 'success' };
  return { kind: 'skill', id, app: 'ed', description: id, intents: [id], args, permissions, graph: { start: 'n0', nodes } };
}

export function libraryOf(...skills: object[]): SkillLibrary {
  const app = edApp();
  const lib = new SkillLibrary(
    [app, ...skills].map((d, i) => ({ doc: LibraryDocSchema.parse(d), source: { file: `doc${i}.yaml`, origin: 'builtin' as const } })),
  );
  if (lib.errors.length) throw new Error(lib.errors.map((e) => e.message).join('\n'));
  return lib;
}

export function harness(o: {
  library: SkillLibrary | (() => SkillLibrary);
  env: ScopeEnv;
  workspace?: WorkspacePolicy;
  answers?: PromptResult['answer'][];
  canonicalizePath?: PathCanonicalizer;
}) {
  const session = new PermissionSession(o.workspace ?? noWorkspace, o.env);
  const prompter = new ScriptedPrompter(o.answers);
  const audit = new MemoryAuditSink();
  const mediator = new PolicyMediator({
    library: o.library,
    session,
    prompter,
    audit,
    ...(o.canonicalizePath && { canonicalizePath: o.canonicalizePath }),
  });
  const current = () => (typeof o.library === 'function' ? o.library() : o.library);
  /** Mediates one step of `skillId` (templates resolved with `args`). */
  const step = (skillId: string, raw: Primitive, args: ArgValues = {}): Promise<MediationDecision> => {
    const skill = current().skills.get(skillId);
    if (!skill) throw new Error(`no skill ${skillId}`);
    return mediator.check({
      sessionId: 'sess',
      runId: 'run',
      skill,
      app: 'ed',
      nodeId: 'n0',
      primitive: renderDeep(raw, args),
      raw,
      screenshot: false,
      args,
      callChain: [skillId],
    });
  };
  return { session, prompter, audit, mediator, step };
}

/**
 * A file system for canonicalisation tests that cannot use this machine's (Windows semantics,
 * folders root cannot be kept out of): existing paths, links, realpath answers and errors by path.
 */
export function fakePathFs(o: {
  exists?: readonly string[];
  links?: Readonly<Record<string, string>>;
  /** Windows: what realpath returns for an existing path (8.3 alias -> long name). */
  real?: Readonly<Record<string, string>>;
  errors?: Readonly<Record<string, string>>;
}): PathFs {
  const raise = (p: string, code: string) => {
    throw Object.assign(new Error(`${code}: ${p}`), { code });
  };
  const check = (p: string) => {
    if (o.errors?.[p]) raise(p, o.errors[p]);
  };
  return {
    lstat(p) {
      check(p);
      const link = o.links?.[p] !== undefined;
      if (!link && !o.exists?.includes(p)) raise(p, 'ENOENT');
      return { isSymbolicLink: () => link };
    },
    readlink(p) {
      check(p);
      return o.links?.[p] ?? raise(p, 'EINVAL');
    },
    realpath(p) {
      check(p);
      const r = o.real?.[p] ?? (o.exists?.includes(p) ? p : undefined);
      return r ?? raise(p, 'ENOENT');
    },
  };
}
