import { z } from 'zod';

/**
 * What primitives point at and wait for: targets of pointer actions, conditions of waits and
 * checks, expected effects, and the guards on graph edges. String fields may hold `${arg}`
 * templates, resolved against the skill's arguments and variables.
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

/** Element states a `ui_element` condition can ask for (an `un`/`dis`/`collapsed` state is the absence of its positive one). */
export const UI_STATES = [
  'checked',
  'unchecked',
  'selected',
  'unselected',
  'expanded',
  'collapsed',
  'enabled',
  'disabled',
  'focused',
  'pressed',
] as const;
export type UiState = (typeof UI_STATES)[number];

/** Bounds every wait: a skill can never hang the desktop. */
export const TimeoutMsSchema = z.number().int().positive().max(600_000);

export const WaitConditionSchema = z.discriminatedUnion('kind', [
  /**
   * A window (of the step's app, when it has one) is titled /pattern/. With `current`, only the
   * window the skill works in (the last window it focused or waited for that is no dialog) counts:
   * an app may show the same title in two windows.
   */
  z.object({ kind: z.literal('window_title'), pattern: z.string(), current: z.boolean().optional() }).strict(),
  /** No window (of the step's app, when it has one) is titled /pattern/ any more: a dialog closed. With `current`, the window the skill works in is not. */
  z.object({ kind: z.literal('window_gone'), pattern: z.string(), current: z.boolean().optional() }).strict(),
  /** The file exists; `present: false`: it does not (an older output deleted before a new one is awaited). */
  z.object({ kind: z.literal('file_exists'), path: z.string(), present: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal('text_visible'), text: z.string() }).strict(),
  /** The text can no longer be read in the app's window (or on screen). */
  z.object({ kind: z.literal('text_gone'), text: z.string() }).strict(),
  /** The file's text holds `text` (a literal) or matches `pattern` (a regex): what was saved, not only that something was. */
  z
    .object({
      kind: z.literal('file_contains'),
      path: z.string(),
      text: z.string().optional(),
      pattern: z.string().optional(),
      /** `false`: the file exists and does not hold it (what a deletion or a replacement left). @default true */
      present: z.boolean().optional(),
    })
    .strict()
    .refine((c) => (c.text === undefined) !== (c.pattern === undefined), 'give exactly one of `text` and `pattern`'),
  /**
   * The JSON file's value at `pointer` (RFC 6901, e.g. `/editor.fontSize`; `''` is the whole
   * document) equals `equals` (strings compare as text with numbers and booleans).
   */
  z
    .object({
      kind: z.literal('json_value'),
      path: z.string(),
      pointer: z.string().regex(/^(\/.*)?$/, 'a JSON pointer is empty or starts with `/`'),
      equals: z.union([z.string(), z.number(), z.boolean(), z.null()]),
    })
    .strict(),
  /**
   * A Windows registry value: `key` (`HKCU\\Software\\...`, roots as `reg.exe` names them) holds
   * `name` (`''`: the key's default value), whose data equals `equals` when given (compared as text:
   * numbers in decimal, multi-strings one per line); `present: false` waits for it to be gone.
   * Windows only: elsewhere the condition fails at once, saying so.
   */
  z
    .object({
      kind: z.literal('registry_value'),
      key: z.string().min(1),
      name: z.string(),
      equals: z.union([z.string(), z.number()]).optional(),
      /** @default true */
      present: z.boolean().optional(),
    })
    .strict()
    .refine(
      (c) => !(c.present === false && c.equals !== undefined),
      '`present: false` takes no `equals` (a value that is gone has no data)',
    ),
  /**
   * An element of the app's accessibility tree named `name` (and of `role`) is there, in `state`
   * when given (`checked`, `unchecked`, `selected`, `expanded`, `enabled`...); `present: false`
   * waits for it to go. Read from the accessibility tree only, never guessed from pixels: where
   * the app has none (Wine), the condition fails at once, saying so.
   */
  z
    .object({
      kind: z.literal('ui_element'),
      name: z.string().min(1),
      role: z.string().optional(),
      state: z.enum(UI_STATES).optional(),
      /** @default true */
      present: z.boolean().optional(),
    })
    .strict(),
]);
export type WaitCondition = z.infer<typeof WaitConditionSchema>;

/** Conditions read off the screen (OCR grounding): they need `screen.capture`. */
export function conditionReadsScreen(c: WaitCondition): boolean {
  return c.kind === 'text_visible' || c.kind === 'text_gone' || c.kind === 'ui_element';
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

/** Guards on edges: predicates on arguments/variables or on UI state. */
export type Guard =
  | { arg: string; equals: string | number | boolean }
  | { arg: string; matches: string }
  | { arg: string; present: boolean }
  | { window_title: string }
  | { file_exists: string }
  | { registry_value: { key: string; name: string; equals?: string | number | undefined } }
  | { platform: 'linux' | 'win32' | 'darwin' }
  | { all: Guard[] }
  | { any: Guard[] }
  | { not: Guard };

/** An argument guard, decided on the arguments (and variables) in scope. */
export function argGuardHolds(g: Extract<Guard, { arg: string }>, scope: Readonly<Record<string, unknown>>): boolean {
  const v = scope[g.arg];
  if ('present' in g) return (v !== undefined && v !== '') === g.present;
  if ('equals' in g) return v === g.equals || String(v) === String(g.equals);
  return v !== undefined && new RegExp(g.matches, 'u').test(String(v));
}

export const GuardSchema: z.ZodType<Guard> = z.lazy(() =>
  z.union([
    z.object({ arg: z.string(), equals: z.union([z.string(), z.number(), z.boolean()]) }).strict(),
    z.object({ arg: z.string(), matches: z.string() }).strict(),
    z.object({ arg: z.string(), present: z.boolean() }).strict(),
    z.object({ window_title: z.string() }).strict(),
    z.object({ file_exists: z.string() }).strict(),
    /** The registry holds the value (with `equals`: that data), as the `registry_value` condition reads it. */
    z
      .object({
        registry_value: z
          .object({ key: z.string().min(1), name: z.string(), equals: z.union([z.string(), z.number()]).optional() })
          .strict(),
      })
      .strict(),
    z.object({ platform: z.enum(['linux', 'win32', 'darwin']) }).strict(),
    z.object({ all: z.array(GuardSchema).min(1) }).strict(),
    z.object({ any: z.array(GuardSchema).min(1) }).strict(),
    z.object({ not: GuardSchema }).strict(),
  ]),
);

/** The UI-state conditions a guard reads (window titles, file existence, registry values), innermost included. */
export function guardConditions(guard: Guard): WaitCondition[] {
  if ('all' in guard) return guard.all.flatMap(guardConditions);
  if ('any' in guard) return guard.any.flatMap(guardConditions);
  if ('not' in guard) return guardConditions(guard.not);
  if ('window_title' in guard) return [{ kind: 'window_title', pattern: guard.window_title }];
  if ('file_exists' in guard) return [{ kind: 'file_exists', path: guard.file_exists }];
  if ('registry_value' in guard) return [registryCondition(guard.registry_value)];
  return [];
}

function registryCondition(g: { key: string; name: string; equals?: string | number | undefined }): WaitCondition {
  return { kind: 'registry_value', key: g.key, name: g.name, ...(g.equals !== undefined && { equals: g.equals }) };
}
