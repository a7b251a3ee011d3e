import { z } from 'zod';
import type { CapabilityNeed, NeedContext } from '../permissions/needs';
import type { ElementState, Locator } from '../ports/browser';
import { keyNameProblem } from './keys';
import type { PrimitiveDescriptor } from './primitives';
import { resolveSiteUrl } from './sites';

/**
 * The web primitives: steps on the page of SkillDesk's browser (src/shared/ports/browser.ts).
 * Each needs `web.navigate` on what it addresses (the URL it opens, else its site's origin); what
 * the page then sends (a form POST, a fetch to another host) is decided request by request by the
 * browser's request guard, so those needs are known only when they happen (`requests`).
 */

const VariableSchema = z.string().regex(/^[a-z][a-z0-9_]*$/);
const LOCATOR_KEYS = ['role', 'label', 'text', 'placeholder', 'test_id', 'selector'] as const;
const ONE_SLOT = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** A locator (see `Locator` in the port): exactly one way of finding the element, plus `exact` and `nth`. */
export const LocatorSchema = z
  .object({
    role: z
      .string()
      .regex(/^[a-z]+$/, 'expected an ARIA role in lower case, e.g. `button`, `link`, `textbox`')
      .optional(),
    name: z.string().min(1).optional(),
    label: z.string().min(1).optional(),
    text: z.string().min(1).optional(),
    placeholder: z.string().min(1).optional(),
    test_id: z.string().min(1).optional(),
    selector: z.string().min(1).optional(),
    exact: z.boolean().optional(),
    nth: z.number().int().min(-100).max(100).optional(),
  })
  .strict()
  .superRefine((l, ctx) => {
    const given = LOCATOR_KEYS.filter((k) => l[k] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `expected exactly one of ${LOCATOR_KEYS.map((k) => `\`${k}\``).join(', ')}, got ${given.length ? given.map((k) => `\`${k}\``).join(' and ') : 'none'}`,
      });
    if (l.name !== undefined && l.role === undefined) ctx.addIssue({ code: 'custom', path: ['name'], message: '`name` goes with `role`' });
    if (l.exact !== undefined && (l.test_id !== undefined || l.selector !== undefined))
      ctx.addIssue({ code: 'custom', path: ['exact'], message: '`exact` applies to `role` names, `label`, `text` and `placeholder`' });
  }) as unknown as z.ZodType<Locator>;

/** `{ role: button, name: 'Place order' }` -> `button "Place order"`, for messages. */
export function describeLocator(l: Locator): string {
  const nth = l.nth === undefined ? '' : ` #${l.nth}`;
  if ('role' in l) return `${l.role}${l.name !== undefined ? ` "${l.name}"` : ''}${nth}`;
  if ('label' in l) return `the field labelled "${l.label}"${nth}`;
  if ('text' in l) return `the text "${l.text}"${nth}`;
  if ('placeholder' in l) return `the field with placeholder "${l.placeholder}"${nth}`;
  if ('test_id' in l) return `data-testid="${l.test_id}"${nth}`;
  return `\`${l.selector}\`${nth}`;
}

/** A regex the schema can check now: a template is left to run time. */
const RegexSchema = z
  .string()
  .min(1)
  .superRefine((p, ctx) => {
    if (p.includes('${')) return;
    try {
      new RegExp(p, 'u');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(err as Error).message}` });
    }
  });

const ELEMENT_STATES = ['visible', 'hidden', 'attached', 'detached'] as const satisfies readonly ElementState[];

/** What a web wait (or a click's `expect`) waits for: a URL, an element's state, or both. */
const webWaitFields = {
  /** Regex on the page's full URL, e.g. `/order/[A-Z0-9-]+$`. */
  url: RegexSchema.optional(),
  locator: LocatorSchema.optional(),
  /** @default visible */
  state: z.enum(ELEMENT_STATES).optional(),
  /** @default 10000 */
  timeoutMs: z.number().int().positive().max(600_000).optional(),
};
const hasTarget = (w: { url?: string; locator?: Locator; state?: string }, ctx: z.RefinementCtx) => {
  if (w.url === undefined && w.locator === undefined) ctx.addIssue({ code: 'custom', message: 'give `url`, `locator` or both' });
  if (w.state !== undefined && w.locator === undefined)
    ctx.addIssue({ code: 'custom', path: ['state'], message: '`state` goes with `locator`' });
};

/** The effect a web click should have, checked right after it. */
export const WebExpectSchema = z.object(webWaitFields).strict().superRefine(hasTarget);
export type WebExpect = z.infer<typeof WebExpectSchema>;

/** A key or chord as `web_press` takes it: SkillDesk key names joined by `+` (`Enter`, `Control+a`), or one `${arg}`. */
export const WebKeySchema = z
  .string()
  .min(1)
  .superRefine((key, ctx) => {
    if (key.includes('${')) return;
    for (const part of splitChord(key)) {
      const problem = keyNameProblem(part);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });

/** `Control+Shift+a` -> `[Control, Shift, a]`; a `+` key itself is kept (`Control++`). */
export function splitChord(key: string): string[] {
  return key.length === 1 ? [key] : key.split(/\+(?!$)/);
}

/** `true`/`false`, or one `${arg}` slot holding a boolean (read when the step runs). */
const CheckedSchema = z.union([z.boolean(), z.string().regex(ONE_SLOT, 'expected `true`, `false` or one `${arg}` slot')]);

/** What a `checked` field says once resolved; undefined when it is neither true nor false. */
export function checkedValue(v: boolean | string): boolean | undefined {
  if (typeof v === 'boolean') return v;
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

/** Capabilities a web step's page may need while the step runs, decided by the request guard. */
export const PAGE_REQUEST_CAPABILITIES = ['web.navigate', 'web.post', 'web.fetch'] as const;

const need = (capability: CapabilityNeed['capability'], target: CapabilityNeed['target'], detail: string): CapabilityNeed => ({
  capability,
  target,
  detail,
});

/** The URL a `web_navigate` opens, as a permission target (unknown when it cannot be resolved). */
function navigateTarget(url: string, ctx: NeedContext): CapabilityNeed['target'] {
  try {
    return { kind: 'url', url: resolveSiteUrl(url, ctx.site) };
  } catch (err) {
    return { kind: 'unknown', hint: (err as Error).message };
  }
}

/** A step on the page drives the site the app is: `web.navigate` on its origin. */
function siteNeeds(action: string, ctx: NeedContext): CapabilityNeed[] {
  const target: CapabilityNeed['target'] = ctx.site
    ? { kind: 'url', url: `${ctx.site}/` }
    : { kind: 'unknown', hint: 'a web step outside a website app has no site' };
  return [need('web.navigate', target, action)];
}

/**
 * Descriptor fields every web primitive shares. `forwardsArgs: false`: text typed into a page is
 * not a file or URL access by itself; what the page does with it is judged at the request.
 */
const web = { forwardsArgs: false, capabilities: ['web.navigate'], requests: PAGE_REQUEST_CAPABILITIES, group: 'web' } as const;

/** Keeps each descriptor's types tied to its own schema (as `describePrimitive` does). */
function describeWebPrimitive<P extends { action: string }>(
  d: { schema: PrimitiveDescriptor<P>['schema'] } & Omit<PrimitiveDescriptor<NoInfer<P>>, 'schema'>,
): PrimitiveDescriptor<P> {
  return d;
}

export const WEB_PRIMITIVES = {
  web_navigate: describeWebPrimitive({
    schema: z
      .object({
        action: z.literal('web_navigate'),
        /** Absolute `http(s)` URL, or a path starting with `/` resolved against the site. */ url: z.string().min(1),
      })
      .strict(),
    doc: "Opens `url` in SkillDesk's browser (a path such as `/search?q=${query|url_encode}` is on the app's site) and waits for it to load.",
    ...web,
    needs: (p, ctx) => [need('web.navigate', navigateTarget(p.url, ctx), 'web_navigate')],
    sample: { action: 'web_navigate', url: '/' },
  }),
  web_click: describeWebPrimitive({
    schema: z.object({ action: z.literal('web_click'), locator: LocatorSchema, expect: WebExpectSchema.optional() }).strict(),
    doc: 'Clicks the element `locator` finds; with `expect` (a `url` regex and/or a `locator` state), fails unless that follows.',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_click', locator: { role: 'button', name: 'OK' } },
  }),
  web_fill: describeWebPrimitive({
    schema: z.object({ action: z.literal('web_fill'), locator: LocatorSchema, text: z.string() }).strict(),
    doc: 'Replaces the content of the text field `locator` finds with `text`.',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_fill', locator: { label: 'Search' }, text: 'hello' },
  }),
  web_press: describeWebPrimitive({
    schema: z.object({ action: z.literal('web_press'), key: WebKeySchema, locator: LocatorSchema.optional() }).strict(),
    doc: 'Presses `key` (a key name, or a chord such as `Control+a`) in the element `locator` finds, else in the focused one.',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_press', key: 'Enter' },
  }),
  web_select: describeWebPrimitive({
    schema: z.object({ action: z.literal('web_select'), locator: LocatorSchema, value: z.string() }).strict(),
    doc: 'Chooses the option whose value or label is `value` in the drop-down `locator` finds.',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_select', locator: { label: 'Country' }, value: 'FR' },
  }),
  web_check: describeWebPrimitive({
    schema: z.object({ action: z.literal('web_check'), locator: LocatorSchema, checked: CheckedSchema }).strict(),
    doc: 'Sets the checkbox or radio button `locator` finds to `checked` (a target state: nothing happens when it already is).',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_check', locator: { role: 'checkbox', name: 'I agree' }, checked: true },
  }),
  web_wait: describeWebPrimitive({
    schema: z
      .object({ action: z.literal('web_wait'), ...webWaitFields })
      .strict()
      .superRefine(hasTarget),
    doc: 'Waits (bounded) until the page URL matches `url` and/or the element `locator` finds is `state` (default visible).',
    ...web,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_wait', locator: { role: 'heading', name: 'Done' }, timeoutMs: 10_000 },
  }),
  web_read: describeWebPrimitive({
    schema: z
      .object({
        action: z.literal('web_read'),
        locator: LocatorSchema.optional(),
        /** @default text with a locator */
        source: z.enum(['text', 'value', 'attribute', 'url', 'title']).optional(),
        /** The attribute read with `source: attribute`. */
        attribute: z.string().min(1).optional(),
        /** Variable that receives the value; also the skill's result when it is `result`. */
        into: VariableSchema,
        /** Optional regex; the first capture group (or whole match) becomes the value. */
        extract: RegexSchema.optional(),
      })
      .strict()
      .superRefine((r, ctx) => {
        const source = r.source ?? (r.locator ? 'text' : undefined);
        if (source === undefined) ctx.addIssue({ code: 'custom', message: 'give a `locator`, or `source: url` or `source: title`' });
        const element = source === 'text' || source === 'value' || source === 'attribute';
        if (element && !r.locator)
          ctx.addIssue({ code: 'custom', path: ['locator'], message: `\`source: ${source}\` reads an element: give its \`locator\`` });
        if (!element && r.locator)
          ctx.addIssue({ code: 'custom', path: ['locator'], message: `\`source: ${source}\` reads the page, not an element` });
        if ((source === 'attribute') !== (r.attribute !== undefined))
          ctx.addIssue({ code: 'custom', path: ['attribute'], message: '`attribute` goes with `source: attribute`, and it needs one' });
      }),
    doc: "Reads an element's text (form fields read as their values), an input's `value`, an `attribute`, or the page's `url` or `title` into `into`, optionally through an `extract` regex.",
    ...web,
    into: (p) => p.into,
    needs: (p, ctx) => siteNeeds(p.action, ctx),
    sample: { action: 'web_read', source: 'title', into: 'result' },
  }),
};

export type WebPrimitiveAction = keyof typeof WEB_PRIMITIVES;

/** Whether an action is a step on the page of SkillDesk's browser. */
export function isWebAction(action: string): action is WebPrimitiveAction {
  return Object.hasOwn(WEB_PRIMITIVES, action);
}
