import { SkillDeskError } from '../errors';
import { lowerTrust, type Manifest, type TrustTier } from '../permissions/manifest';
import type { ArgSpecs } from './domains';
import type { AppDoc, InterfaceDoc, LibraryDoc, MethodDoc, SkillDoc } from './documents';
import { callEdges, graphVariables, guardArgs, validateGraph, type SkillGraph } from './graph';
import { refineConditions, unknownFactArgs, type Conditions, type Fact } from './states';
import { templateSlots } from './template';
import { analyseLiveTests, countsAsVerification, coverageKey, type LiveCoverage, type LiveTestsDoc, type Verification } from './liveTests';

/** Where a document came from; `path` inside it locates a problem (mapped to a line by the loader). */
export interface SourceRef {
  file: string;
  origin: 'builtin' | 'user';
  /**
   * `sha256:<hex>` of the file's bytes (set by the loader): the identity of the skill's content,
   * to which permission grants are bound. For a composite it is its interface file's, which also
   * holds the signature (arguments, domains) the composite runs with.
   */
  contentHash?: string;
  /** The user reviewed this file with exactly these bytes (`skilldesk skills review`). */
  reviewed?: boolean;
}

/**
 * The trust a file's skills get, from where the file came from and how it was admitted, never
 * from what it says: shipped files are built-in; the user's folder gives `community`, or
 * `verified` for a file the user reviewed unchanged. A file's own `trust:` can only lower that.
 */
export function trustOf(source: SourceRef, claimed: TrustTier | undefined): TrustTier {
  const granted: TrustTier = source.origin === 'builtin' ? 'builtin' : source.reviewed ? 'verified' : 'community';
  return claimed ? lowerTrust(granted, claimed) : granted;
}

export interface LibraryProblem {
  file: string;
  /** Path inside the document, e.g. `['graph', 'nodes', 'save', 'keys']`. */
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
  /** 1-based line, filled in by the loader when known. */
  line?: number;
}

/** A runnable skill: an app implementation, an app-only skill, or an interface composite. */
export interface Skill {
  id: string;
  kind: 'implementation' | 'app_skill' | 'composite';
  /** The app it drives; absent for composites, which run in the caller's app context. */
  app?: string;
  /** `Interface.method` for implementations and composites. */
  implements?: string;
  version: string;
  trust: TrustTier;
  description: string;
  intents: string[];
  args: ArgSpecs;
  returns?: { type: 'text' | 'number' | 'boolean' | 'none'; description?: string };
  /** Pre- and postconditions: the interface method's, refined by the implementation (states.ts). */
  conditions: Conditions;
  permissions: Manifest;
  graph: SkillGraph;
  verify?: SkillDoc['verify'];
  source: SourceRef;
}

/** Skill document or interface method before cross-document checks. */
export interface SourcedDoc {
  doc: LibraryDoc;
  source: SourceRef;
}

/** Splits `Interface.method`; undefined for concrete ids (`app.method`) where the head is not an interface. */
export function splitRef(ref: string): { head: string; method: string } {
  const dot = ref.indexOf('.');
  if (dot <= 0)
    throw new SkillDeskError(
      'skill.bad_ref',
      `Expected a skill reference like \`TextEditor.save_as\` or \`mousepad.save_as\`, got \`${ref}\``,
    );
  return { head: ref.slice(0, dot), method: ref.slice(dot + 1) };
}

/**
 * The loaded library: interfaces, apps, skills, and polymorphic dispatch between them.
 * Pure: documents in, problems out; documents with errors are left out, the rest load.
 */
export class SkillLibrary {
  readonly interfaces = new Map<string, InterfaceDoc & { source: SourceRef }>();
  readonly apps = new Map<string, AppDoc & { source: SourceRef }>();
  readonly skills = new Map<string, Skill>();
  readonly problems: LibraryProblem[] = [];
  /** The live-tests files, valid or not (their problems are reported). */
  readonly liveTests: (LiveTestsDoc & { source: SourceRef })[] = [];
  /** `coverageKey(skill, app)` -> the shipped live tests that run it. */
  private readonly coverage = new Map<string, LiveCoverage[]>();

  constructor(docs: readonly SourcedDoc[]) {
    // Interfaces and apps first: skills are checked against them.
    for (const { doc, source } of docs) {
      if (doc.kind === 'interface') this.add(this.interfaces, doc.id, { ...doc, source }, source);
      else if (doc.kind === 'app') this.add(this.apps, doc.id, { ...doc, source }, source);
    }
    // Signatures added to interfaces (by induction), before anything is checked against them.
    for (const { doc, source } of docs) if (doc.kind === 'method') this.addMethod(doc, source);
    for (const iface of this.interfaces.values()) this.checkExtends(iface);
    for (const app of this.apps.values()) {
      app.implements.forEach((iface, i) => {
        if (!this.interfaces.has(iface)) this.problem(app.source, ['implements', i], `unknown interface \`${iface}\``, 'error');
      });
    }
    for (const iface of this.interfaces.values()) {
      for (const [name, m] of Object.entries(iface.methods)) {
        this.checkFacts(iface.source, ['methods', name], { pre: m.pre, post: m.post }, Object.keys(m.args));
        if (!m.composite) continue;
        this.admit(
          {
            id: `${iface.id}.${name}`,
            kind: 'composite',
            implements: `${iface.id}.${name}`,
            version: '1.0.0',
            trust: trustOf(iface.source, undefined),
            description: m.description,
            intents: m.intents,
            args: m.args,
            ...(m.returns && { returns: m.returns }),
            conditions: { pre: m.pre, post: m.post },
            permissions: m.composite.permissions,
            graph: m.composite.graph,
            source: iface.source,
          },
          ['methods', name, 'composite'],
        );
      }
    }
    for (const { doc, source } of docs) if (doc.kind === 'skill') this.admitSkillDoc(doc, source);
    // Calls are checked last, when every callee is known.
    for (const skill of [...this.skills.values()]) this.checkCalls(skill);
    for (const { doc, source } of docs) if (doc.kind === 'live_tests') this.admitLiveTests(doc, source);
  }

  /** How a skill is verified on an app: by shipped live tests on the test desktop or in the Windows lane, else dry runs only. */
  verification(skillId: string, app: string | undefined): { status: Verification; tests: LiveCoverage[] } {
    const tests = this.coverage.get(coverageKey(skillId, app)) ?? [];
    const status: Verification = tests.some((t) => t.lane === 'desktop')
      ? 'live_desktop'
      : tests.some((t) => t.lane === 'windows')
        ? 'live_windows'
        : 'dry_run';
    return { status, tests };
  }

  private admitLiveTests(doc: LiveTestsDoc, source: SourceRef): void {
    this.liveTests.push({ ...doc, source });
    const { problems, covers } = analyseLiveTests(this, doc);
    for (const p of problems) this.problem(source, p.path, p.message, 'error');
    if (problems.length > 0 || !countsAsVerification(source)) return;
    for (const { skill, app, test } of covers) {
      const key = coverageKey(skill.id, skill.kind === 'composite' ? app : skill.app);
      const list = this.coverage.get(key) ?? [];
      if (!list.some((c) => c.file === source.file && c.test === test)) list.push({ lane: doc.lane, file: source.file, test });
      this.coverage.set(key, list);
    }
  }

  /** Resolves a reference to the skill that runs for `app` (polymorphic dispatch). */
  resolve(asked: string, app: string | undefined): Skill {
    const ref = this.canonicalRef(asked);
    const direct = this.skills.get(ref);
    const { head, method } = splitRef(ref);
    const iface = this.interfaces.get(head);
    if (!iface) {
      if (direct) return direct;
      throw new SkillDeskError('skill.not_found', `No skill \`${ref}\`. Try \`skilldesk skills list\` to see the library.`);
    }
    if (!iface.methods[method]) {
      throw new SkillDeskError(
        'skill.not_found',
        `Interface \`${head}\` has no method \`${method}\`; it has: ${this.methodNames(head).join(', ')}`,
      );
    }
    if (!app) {
      if (direct) return direct; // a composite runs without a fixed app until it calls a method
      throw new SkillDeskError(
        'dispatch.no_app',
        `\`${ref}\` needs an app: pass --app (one of: ${this.implementers(head).join(', ') || 'none'})`,
      );
    }
    const impl = [...this.skills.values()].find((s) => s.app === app && s.implements === ref);
    if (impl) return impl;
    if (direct?.kind === 'composite') {
      if (!this.appImplements(app, head)) {
        throw new SkillDeskError(
          'dispatch.not_implemented',
          `App \`${app}\` does not implement \`${head}\`; apps that do: ${this.implementers(head).join(', ') || 'none'}`,
        );
      }
      return direct;
    }
    throw new SkillDeskError(
      'dispatch.not_implemented',
      `App \`${app}\` has no implementation of \`${ref}\`; apps that have one: ${
        this.implementationsOf(ref)
          .map((s) => s.app)
          .join(', ') || 'none'
      }`,
    );
  }

  /**
   * The interface and its ancestors, nearest first (each once, whatever cycles a broken file
   * declares): where an inherited method is looked up.
   */
  lineage(interfaceId: string): string[] {
    const seen: string[] = [];
    const queue = [interfaceId];
    while (queue.length > 0) {
      const id = queue.shift()!;
      const iface = this.interfaces.get(id);
      if (!iface || seen.includes(id)) continue;
      seen.push(id);
      queue.push(...iface.extends);
    }
    return seen;
  }

  /** The interface that declares `method` for `interfaceId` (itself or an ancestor). */
  methodOwner(interfaceId: string, method: string): string | undefined {
    return this.lineage(interfaceId).find((id) => Object.hasOwn(this.interfaces.get(id)!.methods, method));
  }

  /** Every method of an interface, inherited ones included. */
  methodNames(interfaceId: string): string[] {
    return [...new Set(this.lineage(interfaceId).flatMap((id) => Object.keys(this.interfaces.get(id)!.methods)))];
  }

  /**
   * The reference as its owner names it: `TextEditor.save_as` is `Document.save_as` when
   * TextEditor inherits save_as from Document. Other references come back unchanged.
   */
  canonicalRef(ref: string): string {
    const dot = ref.indexOf('.');
    if (dot <= 0) return ref;
    const head = ref.slice(0, dot);
    const method = ref.slice(dot + 1);
    const owner = this.interfaces.has(head) ? this.methodOwner(head, method) : undefined;
    return owner && owner !== head ? `${owner}.${method}` : ref;
  }

  /** Apps declaring that they implement `interfaceId` (every app, for a universal interface). */
  implementers(interfaceId: string): string[] {
    return [...this.apps.values()].filter((a) => this.appImplements(a.id, interfaceId)).map((a) => a.id);
  }

  /** Whether `app` implements `interfaceId`, by declaration or because the interface is universal. */
  appImplements(app: string, interfaceId: string): boolean {
    const declared = this.apps.get(app)?.implements ?? [];
    return Boolean(
      declared.some((d) => this.lineage(d).includes(interfaceId)) || (this.apps.has(app) && this.interfaces.get(interfaceId)?.universal),
    );
  }

  /** Concrete skills implementing `Interface.method` (or the method it inherits). */
  implementationsOf(ref: string): Skill[] {
    const canonical = this.canonicalRef(ref);
    return [...this.skills.values()].filter((s) => s.kind === 'implementation' && s.implements === canonical);
  }

  /** Skills filtered by app and/or domain interface. */
  list(filter: { app?: string; domain?: string } = {}): Skill[] {
    return [...this.skills.values()]
      .filter(
        (s) => !filter.app || s.app === filter.app || (s.kind === 'composite' && this.appImplements(filter.app!, splitRef(s.id).head)),
      )
      .filter((s) => !filter.domain || this.lineage(filter.domain).some((id) => s.implements?.startsWith(`${id}.`)))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  get errors(): LibraryProblem[] {
    return this.problems.filter((p) => p.severity === 'error');
  }

  private admitSkillDoc(doc: SkillDoc, source: SourceRef): void {
    const app = this.apps.get(doc.app);
    if (!app) return this.problem(source, ['app'], `unknown app \`${doc.app}\`; known apps: ${[...this.apps.keys()].join(', ')}`, 'error');
    if (!doc.id.startsWith(`${doc.app}.`))
      return this.problem(source, ['id'], `skill id must start with its app: \`${doc.app}.…\``, 'error');
    let base: { description: string; intents: string[]; args: ArgSpecs; returns?: Skill['returns']; conditions: Conditions } | undefined;
    const implementsRef = doc.implements && this.canonicalRef(doc.implements);
    if (implementsRef) {
      const { head, method } = splitRef(implementsRef);
      const m = this.interfaces.get(head)?.methods[method];
      if (!m) return this.problem(source, ['implements'], `unknown interface method \`${doc.implements}\``, 'error');
      if (!this.appImplements(app.id, head))
        return this.problem(
          source,
          ['implements'],
          `app \`${app.id}\` does not declare \`implements: [${head}]\` (or an interface that extends \`${head}\`)`,
          'error',
        );
      base = {
        description: m.description,
        intents: m.intents,
        args: m.args,
        ...(m.returns && { returns: m.returns }),
        conditions: { pre: m.pre, post: m.post },
      };
      if (doc.args) {
        const want = Object.keys(m.args).sort().join(',');
        const got = Object.keys(doc.args).sort().join(',');
        if (want !== got)
          return this.problem(source, ['args'], `arguments (${got}) must match the signature of \`${implementsRef}\` (${want})`, 'error');
      }
    } else if (!doc.description || !doc.intents?.length) {
      return this.problem(
        source,
        [doc.description ? 'intents' : 'description'],
        'an app-only skill needs `description` and `intents`',
        'error',
      );
    }
    this.checkFacts(source, [], { pre: doc.pre ?? [], post: doc.post ?? [] }, Object.keys(doc.args ?? base?.args ?? {}));
    const trust = trustOf(source, doc.trust);
    if (doc.trust && doc.trust !== trust && lowerTrust(doc.trust, trust) === trust) {
      this.problem(
        source,
        ['trust'],
        `a file cannot grant itself \`${doc.trust}\` trust; it runs as \`${trust}\` (trust comes from where it was installed${
          source.origin === 'user' ? '; `skilldesk skills review` marks a file you checked as verified' : ''
        })`,
        'warning',
      );
    }
    this.admit(
      {
        id: doc.id,
        kind: implementsRef ? 'implementation' : 'app_skill',
        app: doc.app,
        ...(implementsRef && { implements: implementsRef }),
        version: doc.version,
        trust,
        description: doc.description ?? base!.description,
        intents: doc.intents ?? base!.intents,
        args: doc.args ?? base?.args ?? {},
        ...((doc.returns ?? base?.returns) && { returns: doc.returns ?? base?.returns }),
        conditions: refineConditions(base?.conditions, { ...(doc.pre && { pre: doc.pre }), ...(doc.post && { post: doc.post }) }),
        permissions: doc.permissions,
        graph: doc.graph,
        ...(doc.verify && { verify: doc.verify }),
        source,
      },
      [],
    );
  }

  /** Pre- and postconditions may name only the method's arguments (they are read before and after the run). */
  private checkFacts(source: SourceRef, at: (string | number)[], conditions: Conditions, args: string[]): void {
    for (const which of ['pre', 'post'] as const) {
      const facts: Fact[] = conditions[which];
      for (const { index, param, arg } of unknownFactArgs(facts, args)) {
        this.problem(
          source,
          [...at, which, index, param],
          `unknown argument \`\${${arg}}\` in a ${which}condition; arguments: ${args.join(', ') || '(none)'}`,
          'error',
        );
      }
    }
  }

  /** Graph checks, template slots and guard args; admits the skill only when error-free. */
  private admit(skill: Skill, at: (string | number)[]): void {
    const before = this.errors.length;
    for (const p of validateGraph(skill.graph)) this.problem(skill.source, [...at, 'graph', ...p.path], p.message, 'error');
    const known = new Set([...Object.keys(skill.args), ...graphVariables(skill.graph)]);
    for (const n of skill.graph.nodes) {
      if (n.kind !== 'action') continue;
      for (const slot of templateSlots(JSON.stringify(n.primitive))) {
        if (!known.has(slot))
          this.problem(
            skill.source,
            [...at, 'graph', 'nodes', n.id],
            `unknown template slot \`\${${slot}}\`; arguments and variables: ${[...known].join(', ') || '(none)'}`,
            'error',
          );
      }
    }
    skill.graph.edges.forEach((e, i) => {
      for (const a of e.when ? guardArgs(e.when) : []) {
        if (!known.has(a))
          this.problem(skill.source, [...at, 'graph', 'edges', i, 'when'], `guard names unknown argument \`${a}\``, 'error');
      }
    });
    for (const slot of templateSlots(JSON.stringify(skill.verify ?? {}))) {
      if (!known.has(slot)) this.problem(skill.source, [...at, 'verify'], `unknown template slot \`\${${slot}}\``, 'error');
    }
    if (this.errors.length === before) this.add(this.skills, skill.id, skill, skill.source);
  }

  private checkCalls(skill: Skill): void {
    for (const { nodeId, call } of callEdges(skill.graph)) {
      const ref = call.skill;
      const { head, method } = ref.includes('.') ? splitRef(ref) : { head: '', method: '' };
      const ok = this.skills.has(ref) || Boolean(this.interfaces.has(head) && this.methodOwner(head, method));
      if (!ok) {
        this.problem(skill.source, ['graph', 'nodes', nodeId, 'skill'], `calls unknown skill \`${ref}\``, 'error');
        this.skills.delete(skill.id);
      }
    }
  }

  /** Parents must exist, and a method is declared once in a lineage (no silent overriding). */
  private checkExtends(iface: InterfaceDoc & { source: SourceRef }): void {
    iface.extends.forEach((parent, i) => {
      if (!this.interfaces.has(parent)) this.problem(iface.source, ['extends', i], `unknown interface \`${parent}\``, 'error');
      else if (this.lineage(parent).includes(iface.id))
        this.problem(
          iface.source,
          ['extends', i],
          `\`${iface.id}\` extends \`${parent}\`, which extends \`${iface.id}\`: a cycle`,
          'error',
        );
    });
    for (const name of Object.keys(iface.methods)) {
      const owner = this.lineage(iface.id).find((id) => id !== iface.id && Object.hasOwn(this.interfaces.get(id)!.methods, name));
      if (owner)
        this.problem(
          iface.source,
          ['methods', name],
          `\`${name}\` is inherited from \`${owner}\`; declare a method once, on the interface that owns it`,
          'error',
        );
    }
  }

  private add<T extends { source: SourceRef }>(map: Map<string, T>, id: string, value: T, source: SourceRef): void {
    const earlier = map.get(id);
    // Apps and interfaces are what built-in skills run on: a user file may add new ones, never
    // replace a built-in one (its launch command or composites would then run as built-in).
    const what = (map as unknown) === this.apps ? 'app' : (map as unknown) === this.interfaces ? 'interface' : undefined;
    if (earlier?.source.origin === 'builtin' && source.origin === 'user' && what) {
      this.problem(source, ['id'], `a user file cannot replace the built-in ${what} \`${id}\`; give yours another id`, 'error');
      return;
    }
    // A user file overriding a built-in one is the intended way to customise; two of the same origin is a mistake.
    if (earlier && earlier.source.origin === source.origin) {
      this.problem(source, ['id'], `\`${id}\` is also defined in ${earlier.source.file}; this definition replaces it`, 'warning');
    }
    map.set(id, value);
  }

  /** Adds a method document's signature to its interface (a copy: the interface document itself is left as it was). */
  private addMethod(doc: MethodDoc, source: SourceRef): void {
    const iface = this.interfaces.get(doc.interface);
    if (!iface)
      return this.problem(
        source,
        ['interface'],
        `unknown interface \`${doc.interface}\`; known: ${[...this.interfaces.keys()].join(', ')}`,
        'error',
      );
    if (this.methodOwner(iface.id, doc.name))
      return this.problem(
        source,
        ['name'],
        `\`${iface.id}\` already has a method \`${doc.name}\`; a method document only adds new ones`,
        'error',
      );
    const { kind: _kind, interface: _iface, name, ...method } = doc;
    this.interfaces.set(iface.id, { ...iface, methods: { ...iface.methods, [name]: { ...method } } });
  }

  private problem(source: SourceRef, path: (string | number)[], message: string, severity: LibraryProblem['severity']): void {
    this.problems.push({ file: source.file, path, message, severity });
  }
}
