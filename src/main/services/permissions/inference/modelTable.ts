import type { PermissionTarget } from '../../../../shared/permissions/policy';
import { CAPABILITIES, type Capability } from '../../../../shared/permissions/taxonomy';
import { entry, unknown } from './effects';

/**
 * The shape shared by the Python and JavaScript module models: a table from attribute patterns
 * to what calling the attribute does, and the attributes usable as plain values.
 */

export interface ModuleModel<C, X> {
  /** Attributes that may be used as plain values. @default none (every value use fails closed) */
  values?: RegExp;
  /** Handles a call of `module.<attr>(...)`; returns false when the attribute is not modelled. */
  call?(c: C, ctx: X): boolean | void;
}

export type Rule<C, X> = [RegExp, Capability | 'inert' | ((c: C, ctx: X) => void)];

/** The target of a capability found without one of its own: by the capability's scope. */
export function defaultTarget(cap: Capability, hint: string, command: string): PermissionTarget {
  const scope = CAPABILITIES[cap].scope;
  if (scope === 'none') return { kind: 'none' };
  if (scope === 'url') return unknown(hint);
  if (scope === 'app') return unknown('any window');
  return { kind: 'command', command };
}

/** A model from attribute patterns to one capability each (`inert` for no effect); the first pattern that matches wins. */
export function attributeTable<C extends { attr: string }, X extends { ev: string; emit(cap: Capability, target: PermissionTarget): void }>(
  rules: Rule<C, X>[],
  values?: RegExp,
): ModuleModel<C, X> {
  return {
    ...(values && { values }),
    call(c, ctx) {
      const rule = rules.find(([re]) => re.test(c.attr));
      if (!rule) return false;
      const r = rule[1];
      if (typeof r === 'function') r(c, ctx);
      else if (r !== 'inert') ctx.emit(r, defaultTarget(r, c.attr || 'request', ctx.ev));
      return true;
    },
  };
}

/** The model covering a dotted path (the longest prefix in the table), with the attribute path below it. */
export function longestPrefix<T>(models: Readonly<Record<string, T>>, path: string): { module: T; name: string; attr: string } | undefined {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const name = parts.slice(0, n).join('.');
    const module = entry(models, name);
    if (module) return { module, name, attr: parts.slice(n).join('.') };
  }
  return undefined;
}
