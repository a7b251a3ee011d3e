import { z } from 'zod';
import { analysisBlocks, type CapabilityNeed, type NeedContext, type StepNeeds } from '../permissions/needs';
import type { Capability } from '../permissions/taxonomy';
import { ExpectSchema, TargetSchema, TimeoutMsSchema, WaitConditionSchema, type Target, type WaitCondition } from './conditions';
import { INTERPRETERS } from './interpreters';
import { KeySchema } from './keys';
import { WEB_PRIMITIVES } from './webPrimitives';

/**
 * The primitive actions of an execution graph, one descriptor each: its schema, whether it is
 * keyboard or mouse input, the variable it writes, its path fields, the capabilities it needs,
 * its editor palette entry and its one-line doc. The executor, the mediator, manifest derivation,
 * the graph editor and docs/skills.md all read this table; the `Primitive` union is derived from
 * it, so a primitive without a descriptor cannot exist, and `needs` is required, so a new
 * primitive cannot silently need nothing (deny by default).
 *
 * String fields may hold `${arg}` templates, resolved against the skill's arguments and the
 * variables set by earlier steps.
 */

const VariableSchema = z.string().regex(/^[a-z][a-z0-9_]*$/);

/** Characters of one inline `run_script` script: it is analysed whenever it is checked. */
export const MAX_SCRIPT_CHARS = 64 * 1024;

/**
 * How many times a key or chord is pressed: a number, or one `${arg}` slot whose value (a whole
 * number 0-100) is read when the step runs, e.g. `repeat: '${steps}'`.
 */
export const RepeatSchema = z.union([z.number().int().min(1).max(100), z.string().regex(/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/)]);

/** The press count a resolved `repeat` stands for; undefined when it is not a whole number 0-100. */
export function repeatCount(repeat: number | string | undefined): number | undefined {
  if (repeat === undefined) return 1;
  const n = typeof repeat === 'number' ? repeat : /^\d{1,3}$/.test(repeat) ? Number(repeat) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 100 ? n : undefined;
}

/** Where a primitive sits in the editor's palette. */
export type PaletteGroup = 'window' | 'keyboard' | 'pointer' | 'flow' | 'data' | 'web';

export interface PrimitiveDescriptor<P extends { action: string }> {
  schema: z.ZodType<P> & { shape: Record<string, unknown> };
  /** One line for authors (docs, editor palette tooltip). */
  doc: string;
  /** Input sent to the focused window: the mediator checks that it belongs to the step's app. */
  input?: 'keyboard' | 'mouse';
  /** The variable the step's value goes to. */
  into?: (p: P) => string | undefined;
  /** Fields that hold file paths (canonicalised before any decision). */
  paths?: (p: P) => string[];
  /**
   * Whether the step hands the skill's arguments to the app or a program (typed into a dialog,
   * given to a script): path and URL arguments it mentions are then file and web accesses.
   */
  forwardsArgs: boolean;
  /** What the step needs from the policy; `[]` only for steps that touch nothing. */
  needs: (p: P, ctx: NeedContext) => CapabilityNeed[] | StepNeeds;
  /** Every capability `needs` can answer (documentation, checked by a test). */
  capabilities: readonly Capability[];
  /**
   * Capabilities the step's page may need while it runs (a form POST, a fetch to another host):
   * not known before, each decided by the browser's request guard when the request is sent.
   */
  requests?: readonly Capability[];
  /** A valid instance: the palette's starting values, and the sample tests mediate. */
  sample: P;
  group: PaletteGroup;
}

const need = (capability: Capability, target: CapabilityNeed['target'], detail: string): CapabilityNeed => ({ capability, target, detail });

/** Needs of a wait condition (used by `wait_until`, `verify`, `expect` and edge guards). */
export function conditionNeeds(c: WaitCondition, ctx: NeedContext, detail: string): CapabilityNeed[] {
  switch (c.kind) {
    case 'window_title':
    case 'window_gone':
      return [need('app.window', ctx.appTarget, `${detail}: ${c.kind}`)];
    case 'file_exists':
    case 'file_contains':
    case 'json_value':
      return [need('file.read', { kind: 'path', path: c.path }, `${detail}: ${c.kind}`)];
    case 'registry_value':
      return [need('registry.read', { kind: 'path', path: c.key }, `${detail}: ${c.kind}`)];
    case 'text_visible':
    case 'text_gone':
    case 'ui_element':
      return [need('screen.capture', { kind: 'none' }, `${detail}: ${c.kind}`)];
  }
}

/** Needs of a pointer action: the mouse, the screen when a target is found by what it shows, and its expected effect. */
function pointerNeeds(action: string, targets: readonly (Target | undefined)[], expect: WaitCondition | undefined, ctx: NeedContext) {
  const needs = [need('input.mouse', ctx.appTarget, action)];
  // Finding a target by its label reads the screen (accessibility tree or OCR).
  if (targets.some((t) => t && t.kind !== 'point')) needs.push(need('screen.capture', { kind: 'none' }, `${action} on a grounded target`));
  if (expect) needs.push(...conditionNeeds(expect, ctx, `${action} expecting`));
  return needs;
}

/** Ctrl+C, Ctrl+X, Ctrl+Insert (and Cmd on macOS): the app replaces the clipboard. */
export function isCopyChord(keys: readonly string[]): boolean {
  const mods = keys.slice(0, -1).map((k) => k.toLowerCase());
  const last = keys.at(-1)?.toLowerCase();
  return keys.length === 2 && (mods[0] === 'control' || mods[0] === 'super') && (last === 'c' || last === 'x' || last === 'insert');
}

const pointer = <A extends 'click' | 'double_click' | 'right_click'>(action: A, doc: string) =>
  describePrimitive({
    schema: z.object({ action: z.literal(action), target: TargetSchema, expect: ExpectSchema.optional() }).strict(),
    doc,
    input: 'mouse',
    paths: (p) => conditionPaths(p.expect?.condition),
    forwardsArgs: true,
    needs: (p, ctx) => pointerNeeds(p.action, [p.target], p.expect?.condition, ctx),
    capabilities: ['input.mouse', 'screen.capture', 'app.window', 'file.read', 'registry.read'],
    sample: { action, target: { kind: 'text', text: 'OK' } } as { action: A; target: Target },
    group: 'pointer',
  });

/** Arguments still holding `${arg}` templates (static checks): their values are not known yet. */
function templatedArgs(args: readonly string[] | undefined): boolean {
  return args?.some((a) => a.includes('${')) ?? false;
}

function conditionPaths(c: WaitCondition | undefined): string[] {
  return c && 'path' in c ? [c.path] : [];
}

/** Keeps each descriptor's types tied to its own schema. */
export function describePrimitive<P extends { action: string }>(
  d: { schema: PrimitiveDescriptor<P>['schema'] } & Omit<PrimitiveDescriptor<NoInfer<P>>, 'schema'>,
): PrimitiveDescriptor<P> {
  return d;
}

export const PRIMITIVES = {
  launch: describePrimitive({
    schema: z
      .object({
        action: z.literal('launch'),
        /** Extra command-line arguments after the app profile's own. */ args: z.array(z.string()).optional(),
      })
      .strict(),
    doc: "Starts the app from its profile's command line, with `args` after the profile's own.",
    forwardsArgs: true,
    needs: (p, ctx) => {
      const needs = [need('app.launch', ctx.appTarget, 'launch')];
      const launch = ctx.launchCommand?.(p.args ?? []);
      if (!launch) return needs;
      if (launch.shipped && !p.args?.length) return needs;
      // A profile from the user's folder, or arguments a skill adds, make the launch an arbitrary
      // command line: it is process creation of exactly that line, analysed like a script.
      const analysis = ctx.analyseScript(launch.commandLine, 'sh', []);
      const unanalysable = analysisBlocks(analysis, 'the launch command line');
      needs.push(
        need('process.create', { kind: 'command', command: launch.commandLine }, 'launch of a command line SkillDesk does not ship'),
        ...analysis.capabilities.map((c) => need(c.capability, c.target, `launch: ${c.evidence}`)),
      );
      return { needs, analysis, ...(unanalysable && { unanalysable }) };
    },
    capabilities: ['app.launch', 'process.create'],
    sample: { action: 'launch' },
    group: 'window',
  }),
  focus_window: describePrimitive({
    schema: z
      .object({
        action: z.literal('focus_window'),
        /** Regex on the title, among the app's windows. @default the app's main window */ title: z.string().optional(),
      })
      .strict(),
    doc: "Brings the app's window titled /`title`/ (default: its main window) to the front.",
    forwardsArgs: false,
    needs: (_p, ctx) => [need('app.window', ctx.appTarget, 'focus_window')],
    capabilities: ['app.window'],
    sample: { action: 'focus_window' },
    group: 'window',
  }),
  wait_for_window: describePrimitive({
    schema: z
      .object({
        action: z.literal('wait_for_window'),
        title: z.string().optional(),
        timeoutMs: TimeoutMsSchema.optional(),
        /** Only a window the run has not met yet: neither there when it began nor focused or waited for since (a message box titled like the app's main window). */
        fresh: z.boolean().optional(),
      })
      .strict(),
    doc: 'Waits (bounded) for a window of the app titled /`title`/, new windows first (with `fresh`, only one the run has not met yet), and focuses it.',
    forwardsArgs: false,
    needs: (_p, ctx) => [need('app.window', ctx.appTarget, 'wait_for_window')],
    capabilities: ['app.window'],
    sample: { action: 'wait_for_window', title: '.*', timeoutMs: 10_000 },
    group: 'window',
  }),
  key: describePrimitive({
    schema: z.object({ action: z.literal('key'), key: KeySchema, repeat: RepeatSchema.optional() }).strict(),
    doc: 'Presses one key (`repeat` times: a number, or one `${arg}` slot holding 0-100).',
    input: 'keyboard',
    forwardsArgs: true,
    needs: (p, ctx) => [need('input.keyboard', ctx.appTarget, p.action)],
    capabilities: ['input.keyboard'],
    sample: { action: 'key', key: 'Enter' },
    group: 'keyboard',
  }),
  hotkey: describePrimitive({
    schema: z.object({ action: z.literal('hotkey'), keys: z.array(KeySchema).min(2), repeat: RepeatSchema.optional() }).strict(),
    doc: 'Presses `keys` in order and releases them in reverse (a shortcut such as Control+s), `repeat` times.',
    input: 'keyboard',
    forwardsArgs: true,
    needs: (p, ctx) => [
      need('input.keyboard', ctx.appTarget, p.action),
      // Copy and cut make the app replace the clipboard.
      ...(isCopyChord(p.keys) ? [need('clipboard.write', { kind: 'none' }, `hotkey ${p.keys.join('+')}`)] : []),
    ],
    capabilities: ['input.keyboard', 'clipboard.write'],
    sample: { action: 'hotkey', keys: ['Control', 's'] },
    group: 'keyboard',
  }),
  type_text: describePrimitive({
    schema: z.object({ action: z.literal('type_text'), text: z.string() }).strict(),
    doc: 'Types `text` exactly (every printable ASCII character, Latin-1, tabs, newlines).',
    input: 'keyboard',
    forwardsArgs: true,
    needs: (p, ctx) => [need('input.keyboard', ctx.appTarget, p.action)],
    capabilities: ['input.keyboard'],
    sample: { action: 'type_text', text: 'hello' },
    group: 'keyboard',
  }),
  paste_text: describePrimitive({
    schema: z.object({ action: z.literal('paste_text'), text: z.string(), keys: z.array(KeySchema).min(2).optional() }).strict(),
    doc: 'Puts `text` on the clipboard and pastes it with `keys` (default Control+v): long text in one step where the app allows it.',
    input: 'keyboard',
    forwardsArgs: true,
    needs: (p, ctx) => [need('clipboard.write', { kind: 'none' }, p.action), need('input.keyboard', ctx.appTarget, p.action)],
    capabilities: ['clipboard.write', 'input.keyboard'],
    sample: { action: 'paste_text', text: 'hello' },
    group: 'keyboard',
  }),
  click: pointer('click', 'Clicks `target`; with `expect`, fails unless its effect follows.'),
  double_click: pointer('double_click', 'Double-clicks `target`; with `expect`, fails unless its effect follows.'),
  right_click: pointer('right_click', 'Right-clicks `target`; with `expect`, fails unless its effect follows.'),
  drag: describePrimitive({
    schema: z.object({ action: z.literal('drag'), from: TargetSchema, to: TargetSchema, expect: ExpectSchema.optional() }).strict(),
    doc: 'Drags from `from` to `to`; with `expect`, fails unless its effect follows.',
    input: 'mouse',
    paths: (p) => conditionPaths(p.expect?.condition),
    forwardsArgs: true,
    needs: (p, ctx) => pointerNeeds(p.action, [p.from, p.to], p.expect?.condition, ctx),
    capabilities: ['input.mouse', 'screen.capture', 'app.window', 'file.read', 'registry.read'],
    sample: { action: 'drag', from: { kind: 'point', x: 10, y: 10 }, to: { kind: 'point', x: 50, y: 50 } },
    group: 'pointer',
  }),
  scroll: describePrimitive({
    schema: z
      .object({
        action: z.literal('scroll'),
        target: TargetSchema.optional(),
        dx: z.number().int().optional(),
        dy: z.number().int().optional(),
      })
      .strict(),
    doc: 'Scrolls by `dx`/`dy` wheel notches, over `target` when given.',
    input: 'mouse',
    forwardsArgs: true,
    needs: (p, ctx) => pointerNeeds(p.action, [p.target], undefined, ctx),
    capabilities: ['input.mouse', 'screen.capture'],
    sample: { action: 'scroll', dy: 3 },
    group: 'pointer',
  }),
  wait: describePrimitive({
    schema: z.object({ action: z.literal('wait'), ms: z.number().int().nonnegative().max(60_000) }).strict(),
    doc: 'Pauses `ms` milliseconds (prefer `wait_until` on a condition).',
    forwardsArgs: false,
    // Touches nothing: time passes.
    needs: () => [],
    capabilities: [],
    sample: { action: 'wait', ms: 500 },
    group: 'flow',
  }),
  wait_until: describePrimitive({
    schema: z.object({ action: z.literal('wait_until'), condition: WaitConditionSchema, timeoutMs: TimeoutMsSchema.optional() }).strict(),
    doc: 'Waits (bounded) until `condition` holds: a window title, a window gone, a file, visible text.',
    paths: (p) => conditionPaths(p.condition),
    forwardsArgs: false,
    needs: (p, ctx) => conditionNeeds(p.condition, ctx, 'wait_until'),
    capabilities: ['app.window', 'file.read', 'screen.capture', 'registry.read'],
    sample: { action: 'wait_until', condition: { kind: 'window_title', pattern: '.*' }, timeoutMs: 10_000 },
    group: 'flow',
  }),
  run_script: describePrimitive({
    schema: z
      .object({
        action: z.literal('run_script'),
        interpreter: z.enum(INTERPRETERS),
        script: z
          .string()
          .min(1)
          .max(
            MAX_SCRIPT_CHARS,
            `an inline script may have at most ${MAX_SCRIPT_CHARS} characters; keep the long part in a script file it calls`,
          ),
        args: z.array(z.string()).optional(),
        timeoutMs: TimeoutMsSchema.optional(),
        /** Variable that receives the script's trimmed stdout. */
        into: VariableSchema.optional(),
      })
      .strict(),
    doc: 'Runs `script` with `interpreter` and `args`; its trimmed output goes to `into`. Mediated on what the script is inferred to do.',
    into: (p) => p.into,
    forwardsArgs: true,
    needs: (p, ctx) => {
      const analysis = ctx.analyseScript(p.script, p.interpreter, templatedArgs(p.args) ? undefined : (p.args ?? []));
      const needs = [
        need('script.execute', { kind: 'command', command: p.script }, `run_script (${p.interpreter})`),
        ...analysis.capabilities.map((c) => need(c.capability, c.target, `run_script: ${c.evidence}${c.line ? ` (line ${c.line})` : ''}`)),
      ];
      const unanalysable = analysisBlocks(analysis, `the ${p.interpreter} script`);
      return { needs, analysis, ...(unanalysable && { unanalysable }) };
    },
    // Plus whatever the script is inferred to do.
    capabilities: ['script.execute'],
    sample: { action: 'run_script', interpreter: 'bash', script: 'echo done' },
    group: 'data',
  }),
  call: describePrimitive({
    schema: z
      .object({
        action: z.literal('call'),
        /** `Interface.method` (dispatched to the current app) or a concrete skill id. */
        skill: z.string().min(1),
        args: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
        /** Variable that receives the callee's result. */
        into: VariableSchema.optional(),
      })
      .strict(),
    doc: 'Runs another skill (`Interface.method` on the current app, or a concrete id) with `args`; its result goes to `into`.',
    into: (p) => p.into,
    // The callee's own steps are mediated against the callee's manifest within the caller's.
    forwardsArgs: false,
    needs: (p) => [need('skill.call', { kind: 'skill', skill: p.skill }, `call ${p.skill}`)],
    capabilities: ['skill.call'],
    sample: { action: 'call', skill: 'TextEditor.select_all' },
    group: 'flow',
  }),
  read: describePrimitive({
    schema: z
      .object({
        action: z.literal('read'),
        source: z.enum(['clipboard', 'window_title', 'file']),
        path: z.string().optional(),
        /** Variable that receives the value; also the skill's result when it is `result`. */
        into: VariableSchema,
        /** Optional regex; the first capture group (or whole match) becomes the value. */
        extract: z.string().optional(),
      })
      .strict(),
    doc: 'Reads the clipboard, the window title or a file (`path`) into `into`, optionally through an `extract` regex.',
    into: (p) => p.into,
    paths: (p) => (p.source === 'file' && p.path ? [p.path] : []),
    forwardsArgs: false,
    needs: (p, ctx) => {
      switch (p.source) {
        case 'clipboard':
          return [need('clipboard.read', { kind: 'none' }, 'read clipboard')];
        case 'window_title':
          return [need('app.window', ctx.appTarget, 'read window_title')];
        case 'file': {
          const path = p.path ?? '';
          const target: CapabilityNeed['target'] = path ? { kind: 'path', path } : { kind: 'unknown', hint: 'no path' };
          return [need('file.read', target, 'read file'), ...(ctx.isSecretPath(path) ? [need('secrets.read', target, 'read file')] : [])];
        }
      }
    },
    capabilities: ['clipboard.read', 'app.window', 'file.read', 'secrets.read'],
    sample: { action: 'read', source: 'clipboard', into: 'result' },
    group: 'data',
  }),
  // Steps on the page of SkillDesk's browser (webPrimitives.ts).
  ...WEB_PRIMITIVES,
};

type Table = typeof PRIMITIVES;
export type PrimitiveAction = keyof Table;
/** One step of a graph: the union of the descriptors' schemas. */
export type Primitive = { [A in PrimitiveAction]: Table[A] extends PrimitiveDescriptor<infer P> ? P : never }[PrimitiveAction];
export type PrimitiveOf<A extends PrimitiveAction> = Extract<Primitive, { action: A }>;

export const PRIMITIVE_ACTIONS = Object.keys(PRIMITIVES) as PrimitiveAction[];

/** Validates one primitive (the union of every descriptor's schema, keyed by `action`). */
export const PrimitiveSchema = z.discriminatedUnion(
  'action',
  PRIMITIVE_ACTIONS.map((a) => PRIMITIVES[a].schema) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<Primitive>;

/** The descriptor of `p`'s action, typed for `p`. */
export function descriptorOf<P extends Primitive>(p: P): PrimitiveDescriptor<P> {
  return PRIMITIVES[p.action] as unknown as PrimitiveDescriptor<P>;
}

/** Keyboard or mouse input to the focused window, or undefined. */
export function primitiveInput(p: Primitive): 'keyboard' | 'mouse' | undefined {
  return PRIMITIVES[p.action].input;
}

/** The variable the step writes, if any. */
export function primitiveInto(p: Primitive): string | undefined {
  return descriptorOf(p).into?.(p);
}

/** The path fields of the step (templates before resolution, values after). */
export function primitivePaths(p: Primitive): string[] {
  return descriptorOf(p).paths?.(p) ?? [];
}
