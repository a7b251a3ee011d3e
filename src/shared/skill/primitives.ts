import { z } from 'zod';

/**
 * The primitive actions of an execution graph. String fields may hold `${arg}` templates,
 * resolved against the skill's arguments and the variables set by `read` nodes.
 */

/** Where a pointer action lands: a point relative to the app's window or the screen, or a label a grounder resolves. */
export const TargetSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('point'),
      x: z.number(),
      y: z.number(),
      /** @default 'window' */
      relativeTo: z.enum(['window', 'screen']).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('text'),
      /** Visible text of the element, e.g. a button label (OCR or accessibility). */
      text: z.string().min(1),
      /** Which match when several: 0-based, in reading order. @default 0 */
      nth: z.number().int().nonnegative().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('accessibility'),
      name: z.string().min(1),
      role: z.string().optional(),
    })
    .strict(),
]);
export type Target = z.infer<typeof TargetSchema>;

/** Bounds every wait: a skill can never hang the desktop. */
const timeoutMs = z.number().int().positive().max(600_000);

export const WaitConditionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('window_title'), pattern: z.string() }).strict(),
  /** No window (of the step's app, when it has one) is titled /pattern/ any more: a dialog closed. */
  z.object({ kind: z.literal('window_gone'), pattern: z.string() }).strict(),
  z.object({ kind: z.literal('file_exists'), path: z.string() }).strict(),
  z.object({ kind: z.literal('text_visible'), text: z.string() }).strict(),
  /** The text can no longer be read in the app's window (or on screen). */
  z.object({ kind: z.literal('text_gone'), text: z.string() }).strict(),
]);
export type WaitCondition = z.infer<typeof WaitConditionSchema>;

/** Conditions read off the screen (OCR grounding): they need `screen.capture`. */
export function conditionReadsScreen(c: WaitCondition): boolean {
  return c.kind === 'text_visible' || c.kind === 'text_gone';
}

/**
 * The effect a pointer action should have, checked right after it: a grounded click that lands on
 * the wrong spot fails its step here (and the graph's next alternative runs) instead of later.
 * @example { condition: { kind: window_gone, pattern: '^Notepad$' }, timeoutMs: 3000 }
 */
export const ExpectSchema = z
  .object({
    condition: WaitConditionSchema,
    /** @default 5000 */
    timeoutMs: z.number().int().positive().max(60_000).optional(),
  })
  .strict();
export type Expect = z.infer<typeof ExpectSchema>;

import { INTERPRETERS } from './interpreters';

export const PrimitiveSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('launch'),
      /** Extra command-line arguments after the app profile's own. */
      args: z.array(z.string()).optional(),
    })
    .strict(),
  z
    .object({
      action: z.literal('focus_window'),
      /** Regex on the title, among the app's windows. @default the app's main window */
      title: z.string().optional(),
    })
    .strict(),
  z
    .object({
      action: z.literal('wait_for_window'),
      title: z.string().optional(),
      timeoutMs: timeoutMs.optional(),
    })
    .strict(),
  z.object({ action: z.literal('key'), key: z.string().min(1), repeat: z.number().int().min(1).max(100).optional() }).strict(),
  z.object({ action: z.literal('hotkey'), keys: z.array(z.string().min(1)).min(2) }).strict(),
  z.object({ action: z.literal('type_text'), text: z.string() }).strict(),
  z.object({ action: z.literal('click'), target: TargetSchema, expect: ExpectSchema.optional() }).strict(),
  z.object({ action: z.literal('double_click'), target: TargetSchema, expect: ExpectSchema.optional() }).strict(),
  z.object({ action: z.literal('right_click'), target: TargetSchema, expect: ExpectSchema.optional() }).strict(),
  z.object({ action: z.literal('drag'), from: TargetSchema, to: TargetSchema, expect: ExpectSchema.optional() }).strict(),
  z
    .object({
      action: z.literal('scroll'),
      target: TargetSchema.optional(),
      dx: z.number().int().optional(),
      dy: z.number().int().optional(),
    })
    .strict(),
  z.object({ action: z.literal('wait'), ms: z.number().int().nonnegative().max(60_000) }).strict(),
  z.object({ action: z.literal('wait_until'), condition: WaitConditionSchema, timeoutMs: timeoutMs.optional() }).strict(),
  z
    .object({
      action: z.literal('run_script'),
      interpreter: z.enum(INTERPRETERS),
      script: z.string().min(1),
      args: z.array(z.string()).optional(),
      timeoutMs: timeoutMs.optional(),
      /** Variable that receives the script's trimmed stdout. */
      into: z
        .string()
        .regex(/^[a-z][a-z0-9_]*$/)
        .optional(),
    })
    .strict(),
  z
    .object({
      action: z.literal('call'),
      /** `Interface.method` (dispatched to the current app) or a concrete skill id. */
      skill: z.string().min(1),
      args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
      /** Variable that receives the callee's result. */
      into: z
        .string()
        .regex(/^[a-z][a-z0-9_]*$/)
        .optional(),
    })
    .strict(),
  z
    .object({
      action: z.literal('read'),
      source: z.enum(['clipboard', 'window_title', 'file']),
      path: z.string().optional(),
      /** Variable that receives the value; also the skill's result when it is `result`. */
      into: z.string().regex(/^[a-z][a-z0-9_]*$/),
      /** Optional regex; the first capture group (or whole match) becomes the value. */
      extract: z.string().optional(),
    })
    .strict(),
]);
export type Primitive = z.infer<typeof PrimitiveSchema>;
export type PrimitiveAction = Primitive['action'];

export const PRIMITIVE_ACTIONS: readonly PrimitiveAction[] = PrimitiveSchema.options.map((o) => o.shape.action.value) as PrimitiveAction[];

/** Guards on edges: predicates on arguments/variables or on UI state. */
export type Guard =
  | { arg: string; equals: string | number | boolean }
  | { arg: string; matches: string }
  | { arg: string; present: boolean }
  | { window_title: string }
  | { file_exists: string }
  | { platform: 'linux' | 'win32' | 'darwin' }
  | { all: Guard[] }
  | { any: Guard[] }
  | { not: Guard };

export const GuardSchema: z.ZodType<Guard> = z.lazy(() =>
  z.union([
    z.object({ arg: z.string(), equals: z.union([z.string(), z.number(), z.boolean()]) }).strict(),
    z.object({ arg: z.string(), matches: z.string() }).strict(),
    z.object({ arg: z.string(), present: z.boolean() }).strict(),
    z.object({ window_title: z.string() }).strict(),
    z.object({ file_exists: z.string() }).strict(),
    z.object({ platform: z.enum(['linux', 'win32', 'darwin']) }).strict(),
    z.object({ all: z.array(GuardSchema).min(1) }).strict(),
    z.object({ any: z.array(GuardSchema).min(1) }).strict(),
    z.object({ not: GuardSchema }).strict(),
  ]),
);
