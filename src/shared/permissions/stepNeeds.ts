import type { ArgSpec, ArgSpecs } from '../skill/domains';
import { descriptorOf, type Primitive } from '../skill/primitives';
import { templateSlots } from '../skill/template';
import type { CapabilityNeed, NeedContext, StepNeeds } from './needs';

/**
 * Everything one step needs: its primitive's own needs (from the descriptor table), a screenshot
 * after it, and the path and URL arguments it hands on. Used at run time by the mediator (with
 * resolved values) and statically by manifest derivation (with `${arg}` templates as targets).
 */
export function stepNeeds(
  args: ArgSpecs,
  primitive: Primitive,
  ctx: NeedContext,
  opts: {
    /** The template form of the step: which arguments it uses. @default `primitive` */
    raw?: Primitive;
    /** Argument values; templates stand in for missing ones. */
    values?: Readonly<Record<string, unknown>>;
    /** A screenshot is taken after the step. */
    screenshot?: boolean;
  } = {},
): StepNeeds {
  const own = descriptorOf(primitive).needs(primitive, ctx);
  const result: StepNeeds = Array.isArray(own) ? { needs: [...own] } : { ...own, needs: [...own.needs] };
  const add = (n: CapabilityNeed) => result.needs.push(n);
  if (opts.screenshot) add({ capability: 'screen.capture', target: { kind: 'none' }, detail: 'screenshot after the step' });

  const raw = opts.raw ?? primitive;
  if (!descriptorOf(raw).forwardsArgs) return result;
  // What an app is told to open or save is a file access; a URL typed or passed on is navigation.
  const slots = new Set(templateSlots(JSON.stringify(raw)));
  for (const [name, spec] of Object.entries(args)) {
    if (!slots.has(name)) continue;
    const value = opts.values?.[name];
    const bound = typeof value === 'string' ? value : `\${${name}}`;
    // A list is an access per item (unbound, the template stands for all of them).
    const item = spec.type === 'list' ? spec.items : spec;
    const bounds = spec.type === 'list' && Array.isArray(value) ? value.map(String) : [bound];
    for (const one of bounds) {
      if (item.type === 'path') {
        const target = { kind: 'path' as const, path: one };
        add({ capability: item.mustExist ? 'file.read' : 'file.write', target, detail: `argument \`${name}\`` });
        if (item.mustExist && ctx.isSecretPath(one)) add({ capability: 'secrets.read', target, detail: `argument \`${name}\`` });
      } else if (isUrlArg(name, item)) {
        add({ capability: 'web.navigate', target: { kind: 'url', url: one }, detail: `argument \`${name}\`` });
      }
    }
  }
  return result;
}

/** An argument that holds a URL: named so (`url`, `link`, `address`, `website`) or constrained to `http(s)://` by its pattern. */
export function isUrlArg(name: string, spec: ArgSpec): boolean {
  if (spec.type !== 'string' && spec.type !== 'text') return false;
  if (/(^|_)(url|uri|link|address|website|site)s?($|_)/i.test(name)) return true;
  return spec.type === 'string' && spec.pattern !== undefined && /^\^?\(?https?/i.test(spec.pattern);
}
