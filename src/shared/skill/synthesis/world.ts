import type { ArgValues } from '../domains';
import { FACT_KINDS, type Fact, type FactKindName } from '../states';
import { renderTemplate, templateSlots } from '../template';

type Scalar = string | number | boolean;
const PARAMS = ['path', 'value', 'cell', 'title', 'key', 'name'] as const;
type Param = (typeof PARAMS)[number];

/** A fact with its parameters as values (templates rendered) and, for app facts, its app. */
export interface ConcreteFact {
  fact: FactKindName;
  holds: boolean;
  app?: string;
  path?: Scalar;
  value?: Scalar;
  cell?: Scalar;
  title?: Scalar;
  key?: Scalar;
  name?: Scalar;
}

/**
 * The parameters that say which thing a fact is about (the rest, `value` mostly, say what holds
 * of it): one file per path, one clipboard, one open document per app.
 */
const IDENTIFYING: Record<FactKindName, readonly Param[]> = {
  app_running: [],
  document_open: [],
  document_modified: [],
  selection_present: [],
  dialog_open: ['title'],
  window_title: [],
  cell_value: ['cell'],
  file_exists: ['path'],
  folder_exists: ['path'],
  image_size: ['path'],
  file_content: ['path'],
  clipboard_holds: [],
  registry_value: ['key', 'name'],
};

/** Which thing a fact is about: two facts of one identity cannot both hold. */
export function identity(f: ConcreteFact): string {
  return JSON.stringify([f.fact, FACT_KINDS[f.fact].scope === 'app' ? f.app : null, ...IDENTIFYING[f.fact].map((p) => f[p] ?? null)]);
}

/**
 * A fact of a skill on `app` with its templates rendered over `args`; undefined when a template
 * names an argument the call leaves out (an optional one), so the fact says nothing here.
 */
export function renderFact(f: Fact, args: ArgValues, app: string): ConcreteFact | undefined {
  const out: ConcreteFact = { fact: f.fact, holds: f.holds };
  if (FACT_KINDS[f.fact].scope === 'app') out.app = app;
  for (const p of PARAMS) {
    const v = f[p];
    if (v === undefined) continue;
    if (typeof v === 'string') {
      if (templateSlots(v).some((slot) => args[slot] === undefined)) return undefined;
      const r = renderTemplate(v, args);
      out[p] = Array.isArray(r) ? r.join('\n') : (r as Scalar);
    } else out[p] = v;
  }
  return out;
}

/**
 * What a task has done to the desktop so far, as the synthesizer sees it: concrete facts by
 * identity (a fact set again replaces the one before), plus the state models keep of their own
 * (a document's text, where its cursor is).
 */
export class SymbolicWorld {
  readonly facts = new Map<string, ConcreteFact>();
  /** Per app, what a method model keeps (see models.ts). */
  readonly models = new Map<string, Record<string, unknown>>();

  clone(): SymbolicWorld {
    const w = new SymbolicWorld();
    for (const [k, f] of this.facts) w.facts.set(k, { ...f });
    for (const [k, m] of this.models) w.models.set(k, structuredClone(m));
    return w;
  }

  /**
   * Whether precondition `q` holds: a fact of its identity holds (or, for `holds: false`, none
   * does) and agrees on every parameter `q` gives.
   */
  holds(q: ConcreteFact): boolean {
    const f = this.facts.get(identity(q));
    const present = f !== undefined && f.holds;
    if (!q.holds) return !present;
    if (!present) return false;
    return PARAMS.every((p) => q[p] === undefined || String(f[p]) === String(q[p]));
  }

  /** Makes `p` hold (or not), with what it ends along with it: a deleted file has no content. */
  apply(p: ConcreteFact): void {
    // A postcondition that does not say the value keeps none: what was known of it is stale.
    this.facts.set(identity(p), { ...p });
    if (!p.holds) {
      if (p.fact === 'file_exists')
        for (const fact of ['file_content', 'image_size'] as const) this.facts.delete(identity({ fact, holds: true, path: p.path! }));
      if (p.fact === 'document_open' && p.app) {
        for (const fact of ['document_modified', 'selection_present'] as const)
          this.facts.delete(identity({ fact, holds: true, app: p.app }));
      }
    }
  }

  /** Facts of a kind that hold (the candidates to bind an argument to). */
  holding(kind: FactKindName): ConcreteFact[] {
    return [...this.facts.values()].filter((f) => f.fact === kind && f.holds);
  }

  /** The value a fact holds with, if it holds and says one. */
  valueOf(q: Omit<ConcreteFact, 'holds'>): Scalar | undefined {
    const f = this.facts.get(identity({ ...q, holds: true }));
    return f?.holds ? f.value : undefined;
  }

  /** A model's own state for an app, created on first use. */
  model<T extends Record<string, unknown>>(app: string, init: () => T): T {
    let m = this.models.get(app);
    if (!m) this.models.set(app, (m = init()));
    return m as T;
  }
}
