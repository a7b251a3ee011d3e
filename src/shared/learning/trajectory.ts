import { z } from 'zod';
import type { Locator, RecordedTarget, RecordedWebEvent } from '../ports/browser';
import { PrimitiveSchema, type Primitive } from '../skill/primitives';

/** What the person saw around a step: the page (URL, title) or the window in front. */
const ContextSchema = z.strictObject({ url: z.string().optional(), title: z.string().optional(), app: z.string().optional() });

/** One step of a demonstration or a successful run: the primitive it amounts to, and what was on screen before and after. */
export const DemoStepSchema = z.strictObject({
  primitive: PrimitiveSchema,
  at: z.number(),
  before: ContextSchema.optional(),
  after: ContextSchema.optional(),
  /** Requests that sent data (form posts) while the step took effect: what the skill must be allowed to send. */
  posts: z.array(z.string()).optional(),
});
export type DemoStep = z.infer<typeof DemoStepSchema>;

const ArgValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))]);

/**
 * A trajectory: what a person did (a demonstration in the browser or on the desktop) or what a
 * successful agent run did, as primitives, with the task it did when known (the method and the
 * argument values used), from which induction makes a skill.
 */
export const TrajectorySchema = z.strictObject({
  kind: z.literal('trajectory'),
  app: z.string().min(1),
  source: z.enum(['browser', 'desktop', 'agent']),
  /** `Interface.method` it demonstrates, when said. */
  method: z.string().optional(),
  /** The values the demonstration used for the method's arguments. */
  args: z.record(z.string(), ArgValueSchema).default({}),
  steps: z.array(DemoStepSchema),
  recordedAt: z.number(),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox', 'slider', 'checkbox', 'radio']);

/**
 * The locator a person's target is found by again: a field by its label, anything else by its
 * role and accessible name (its position among those sharing them), else its placeholder, test
 * id, and last a CSS path. What a user sees, before how a page is built.
 */
export function locatorFor(t: RecordedTarget): Locator {
  const nth = t.count && t.count > 1 && t.index !== undefined && t.index >= 0 ? { nth: t.index } : {};
  // Exact: what was recorded is the whole label or name, and a shorter one may be part of others'
  // ("Quantity" of "Quantity for Copper Mug").
  if (t.label && t.role && FIELD_ROLES.has(t.role)) return { label: t.label, exact: true };
  if (t.role && t.name) return { role: t.role, name: t.name, exact: true, ...nth };
  if (t.placeholder) return { placeholder: t.placeholder };
  if (t.testId) return { test_id: t.testId };
  return { selector: t.selector };
}

/** Events closer than this to an action are its effect (a navigation a click caused), not a step of their own. */
const EFFECT_MS = 3000;

/**
 * A browser demonstration's events as steps: clicks, fields filled (a field's later values
 * replace its earlier ones), options chosen, boxes checked, keys pressed, and navigations of the
 * person's own (the first page, an address typed); a navigation an action caused becomes that
 * step's `after`, from which induction waits for the page it leads to.
 */
export function webSteps(events: readonly RecordedWebEvent[]): DemoStep[] {
  const steps: DemoStep[] = [];
  let lastActionAt = -Infinity;
  // Each field's value as last filled: a change event repeating it (after Enter sent it) is no step.
  const filled = new Map<string, string>();
  for (const e of events) {
    const before = { url: e.url, title: e.title };
    if (e.type === 'navigate') {
      const last = steps.at(-1);
      if (last && e.at - lastActionAt <= EFFECT_MS && last.primitive.action !== 'web_navigate') {
        last.after = { url: e.url, title: e.title };
        continue;
      }
      if (last?.primitive.action === 'web_navigate' && last.after?.url === e.url) continue;
      steps.push({ primitive: { action: 'web_navigate', url: e.url }, at: e.at, after: before });
      continue;
    }
    lastActionAt = e.at;
    let primitive: Primitive;
    switch (e.type) {
      case 'click':
        primitive = { action: 'web_click', locator: locatorFor(e.target) };
        break;
      case 'fill': {
        const locator = locatorFor(e.target);
        const key = JSON.stringify(locator);
        if (filled.get(key) === e.value) continue;
        filled.set(key, e.value);
        const prev = steps.at(-1);
        if (prev?.primitive.action === 'web_fill' && JSON.stringify(prev.primitive.locator) === JSON.stringify(locator)) {
          prev.primitive = { ...prev.primitive, text: e.value };
          continue;
        }
        primitive = { action: 'web_fill', locator, text: e.value };
        break;
      }
      case 'select':
        primitive = { action: 'web_select', locator: locatorFor(e.target), value: e.value };
        break;
      case 'check':
        primitive = { action: 'web_check', locator: locatorFor(e.target), checked: e.checked };
        break;
      case 'press':
        primitive = { action: 'web_press', key: e.key, ...(e.target && { locator: locatorFor(e.target) }) };
        break;
    }
    steps.push({ primitive, at: e.at, before });
  }
  return steps;
}
