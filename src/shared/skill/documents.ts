import { z } from 'zod';
import { ManifestSchema, TrustTierSchema } from '../permissions/manifest';
import { ArgSpecsSchema } from './domains';
import { GraphSchema } from './graph';
import { WaitConditionSchema } from './conditions';
import { KeySchema } from './keys';
import { LiveTestsDocSchema } from './liveTests';
import { FactsSchema } from './states';
import { WebProfileSchema } from './sites';

/**
 * The kinds of skill-library documents (one YAML document per file, told apart by `kind`):
 * domain interfaces (PolySkill), app profiles, skills (implementations of interface methods, or
 * app-only skills), and the live tests shipped with them (`liveTests.ts`).
 */

const IDENT = /^[A-Za-z][A-Za-z0-9_-]*$/;
const METHOD = /^[a-z][a-z0-9_]*$/;
const SEMVER = /^\d+\.\d+\.\d+$/;

export const ReturnsSchema = z
  .object({
    type: z.enum(['text', 'number', 'boolean', 'none']),
    description: z.string().optional(),
  })
  .strict();

/** A method of a domain interface: its signature, intents, and for composites the graph. */
export const MethodSchema = z
  .object({
    description: z.string().min(1),
    /** Natural-language intent templates with `${arg}` slots; several per method. */
    intents: z.array(z.string().min(1)).min(1),
    args: ArgSpecsSchema.default({}),
    returns: ReturnsSchema.optional(),
    /** The state it needs before it runs (states.ts), e.g. `{ fact: document_open }`. */
    pre: FactsSchema,
    /** The state it leaves when it succeeds, e.g. `{ fact: file_exists, path: '${path}' }`. */
    post: FactsSchema,
    /** A composite is written once on the interface, in terms of other methods (`call: Interface.method`). */
    composite: z
      .object({
        graph: GraphSchema,
        permissions: ManifestSchema.default([]),
      })
      .strict()
      .optional(),
  })
  .strict();
export type InterfaceMethod = z.infer<typeof MethodSchema>;

export const InterfaceDocSchema = z
  .object({
    kind: z.literal('interface'),
    id: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'interface ids are PascalCase, e.g. `TextEditor`'),
    description: z.string().min(1),
    /**
     * Every app implements it implicitly (no `implements:` needed): its methods are composites of
     * primitives that act on the app's focused window, e.g. the agent's basic primitives. @default false
     */
    universal: z.boolean().optional(),
    /**
     * Interfaces whose methods this one inherits: an app implementing it implements them too, and
     * `TextEditor.save_as` names the inherited `Document.save_as`. A method is declared once, on
     * the interface that owns it. @example [Document]
     */
    extends: z.array(z.string().regex(/^[A-Z][A-Za-z0-9]*$/)).default([]),
    methods: z.record(z.string().regex(METHOD, 'method names are snake_case'), MethodSchema),
  })
  .strict();
export type InterfaceDoc = z.infer<typeof InterfaceDocSchema>;

/** The desktop platforms SkillDesk drives (what a desktop reports it is). */
export const PlatformSchema = z.enum(['linux', 'win32', 'darwin']);
export type Platform = z.infer<typeof PlatformSchema>;

/** What an app runs on: desktop platforms, or `web` for a website driven in SkillDesk's browser on any of them. */
export const AppPlatformSchema = z.enum([...PlatformSchema.options, 'web']);
export type AppPlatform = z.infer<typeof AppPlatformSchema>;

/**
 * A window identity pattern: anchored exact names, alternatives in parentheses, no wildcards, so
 * that it names particular programs (`^mousepad$`, `^(calc|calculator)\\.exe$`), never "any window".
 */
export const IdentityPatternSchema = z.string().superRefine((pattern, ctx) => {
  const problem = identityPatternProblem(pattern);
  if (problem) ctx.addIssue({ code: 'custom', message: `${problem}, got \`${pattern}\`` });
});

function identityPatternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return 'expected an anchored pattern `^name$`';
  let depth = 0;
  const body = pattern.slice(1, -1);
  if (/\(\||\|\||\|\)/.test(body)) return 'an empty alternative matches a window with no name';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      // Escaped punctuation is a literal; escaped letters are classes (\\w, \\d, \\s) and match too much.
      if (!/[^A-Za-z0-9]/.test(body[i + 1] ?? 'a')) return 'expected literal names: `\\` may only escape punctuation';
      i++;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return 'unbalanced parentheses';
    } else if (c === '|') {
      if (depth === 0) return 'put alternatives in parentheses (`^(a|b)$`), or the anchors apply to one side only';
    } else if (!/[A-Za-z0-9_ -]/.test(c)) return `expected literal names: \`${c}\` matches more than one program`;
  }
  return depth === 0 && body.length > 0 ? undefined : 'unbalanced parentheses or an empty name';
}

export const AppDocSchema = z
  .object({
    kind: z.literal('app'),
    id: z.string().regex(IDENT),
    name: z.string().min(1),
    description: z.string().optional(),
    platforms: z.array(AppPlatformSchema).min(1),
    /** A website (`platforms: [web]`): its origin; it has no `launch` or `windows`, SkillDesk's browser shows it. */
    web: WebProfileSchema.optional(),
    /** How to start a desktop app (required unless it is a website). */
    launch: z
      .object({
        command: z.string().min(1),
        args: z.array(z.string()).default([]),
        env: z.record(z.string(), z.string()).optional(),
        /**
         * How long the app may take to show its main window when a skill starts it (a large app's
         * cold start). @default 30000
         */
        startupMs: z.number().int().positive().max(300_000).optional(),
      })
      .strict()
      .optional(),
    /**
     * How to recognise the app's windows (regexes, case-insensitive). `process` (executable name)
     * and `class` (X11 WM_CLASS) identify them and must name exact programs; `title` only picks the
     * main window among them, because a title is whatever the window says it is.
     * @example { process: '^notepad\\.exe$', title: 'Notepad$' }
     */
    windows: z
      .object({
        process: IdentityPatternSchema.optional(),
        title: z.string().optional(),
        class: IdentityPatternSchema.optional(),
      })
      .strict()
      .refine(
        (w) => w.process || w.class,
        'give `process` or `class` (an exact program name such as `^mousepad$`): a title alone cannot tell which program a window belongs to',
      )
      .optional(),
    implements: z.array(z.string().regex(/^[A-Z][A-Za-z0-9]*$/)).default([]),
    /**
     * How the app writes plain-text files: `final_newline` when every file it saves ends with a
     * line break it adds (Geany's default), so what a task expects on disk can be told.
     */
    text_files: z.object({ final_newline: z.boolean() }).strict().optional(),
    /**
     * Apps of one suite run in one process and share their open documents: opening a file another
     * app of the suite has open brings that app's window up instead (LibreOffice).
     */
    suite: z.string().regex(IDENT).optional(),
    /**
     * Windows the app puts in the way (crash recovery, first-run and "what's new" screens...) and
     * how a careful user answers them without losing data. Before a step sends input to the app,
     * the executor answers any of them that is open: it focuses the window and presses `keys`,
     * each a mediated, journaled step of the running skill.
     * @example [{ id: crash_recovery, title: '^Mousepad$', keys: [[Tab], [Return]], why: 'Yes restores the unsaved text' }]
     */
    interruptions: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z][a-z0-9_]*$/),
            /** The interrupting window's title, a regex that the app's working windows never match. */
            title: z.string().min(1),
            /**
             * Text the window shows that tells this interruption from other windows with the same
             * title (an error box titled like the app): read in that window only (accessibility or
             * OCR), which needs `screen.capture`.
             */
            text: z.string().min(1).optional(),
            /** Keys and chords pressed in order, e.g. `[[Tab], [Return]]` or `[[Alt, y]]`. */
            keys: z.array(z.array(KeySchema).min(1).max(4)).min(1).max(10),
            /**
             * Only while that interruption of the profile is open too: a dialog it brings up (a CSV
             * being recovered asks how to import it). The same dialog shown by a skill's own step is
             * that step's business, not an interruption. Answered before the one it depends on.
             */
            while_open: z
              .string()
              .regex(/^[a-z][a-z0-9_]*$/)
              .optional(),
            why: z.string().min(1),
          })
          .strict(),
      )
      .default([]),
  })
  .strict()
  .superRefine((app, ctx) => {
    const ids = new Set(app.interruptions.map((i) => i.id));
    app.interruptions.forEach((i, n) => {
      if (i.while_open !== undefined && (i.while_open === i.id || !ids.has(i.while_open)))
        ctx.addIssue({
          code: 'custom',
          path: ['interruptions', n, 'while_open'],
          message: `\`${i.while_open}\` is not another interruption of this profile (${[...ids].filter((x) => x !== i.id).join(', ') || 'none'})`,
        });
    });
    const web = app.platforms.includes('web');
    if (web && app.platforms.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['platforms'],
        message: "a website is `platforms: [web]` alone: it runs in SkillDesk's browser on any desktop",
      });
    if (web && !app.web) ctx.addIssue({ code: 'custom', path: ['web'], message: 'a website needs `web: { base_url }` (its origin)' });
    if (!web && app.web) ctx.addIssue({ code: 'custom', path: ['web'], message: '`web` is for websites (`platforms: [web]`)' });
    for (const field of ['launch', 'windows'] as const) {
      if (web && app[field])
        ctx.addIssue({ code: 'custom', path: [field], message: `a website has no \`${field}\`: SkillDesk's browser shows it` });
      if (!web && !app[field]) ctx.addIssue({ code: 'custom', path: [field], message: `a desktop app needs \`${field}\`` });
    }
  });
export type AppDoc = z.infer<typeof AppDocSchema>;

/** Whether an app is a website (driven in SkillDesk's browser, not through desktop windows). */
export function isWebApp(app: Pick<AppDoc, 'platforms'>): boolean {
  return app.platforms.includes('web');
}

/** Whether an app can run where the desktop is `platform`: its own platforms, and websites everywhere. */
export function appRunsOn(app: Pick<AppDoc, 'platforms'>, platform: string): boolean {
  return isWebApp(app) || (app.platforms as readonly string[]).includes(platform);
}

export const SkillDocSchema = z
  .object({
    kind: z.literal('skill'),
    id: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*\.[a-z][a-z0-9_]*$/, 'skill ids are `app.method`, e.g. `mousepad.save_as`'),
    app: z.string().regex(IDENT),
    /** `Interface.method` this skill implements; omit for an app-only skill. */
    implements: z
      .string()
      .regex(/^[A-Z][A-Za-z0-9]*\.[a-z][a-z0-9_]*$/)
      .optional(),
    version: z.string().regex(SEMVER, 'expected a semantic version such as `1.0.0`').default('1.0.0'),
    /**
     * Can only lower the trust a file gets from where it was installed (shipped with SkillDesk:
     * builtin; the user's folder: community, or verified once the user reviewed this exact file).
     */
    trust: TrustTierSchema.optional(),
    /** Inherited from the interface method when omitted. */
    description: z.string().optional(),
    intents: z.array(z.string().min(1)).optional(),
    args: ArgSpecsSchema.optional(),
    returns: ReturnsSchema.optional(),
    /** Facts this app's implementation adds to the interface method's preconditions. */
    pre: FactsSchema.optional(),
    /** Facts this app's implementation adds to the interface method's postconditions. */
    post: FactsSchema.optional(),
    permissions: ManifestSchema.default([]),
    graph: GraphSchema,
    /** Post-condition checked after a successful walk. */
    verify: z
      .object({ condition: WaitConditionSchema, timeoutMs: z.number().int().positive().max(60_000).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type SkillDoc = z.infer<typeof SkillDocSchema>;

/**
 * A method signature added to an interface that lacks it (signature first: what induction adds
 * when a demonstration does something the interface has no method for). It cannot replace a
 * method the interface declares, nor carry a composite; implementations follow as skills.
 */
export const MethodDocSchema = MethodSchema.omit({ composite: true })
  .extend({
    kind: z.literal('method'),
    interface: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, 'method names are snake_case, e.g. `apply_coupon`'),
  })
  .strict();
export type MethodDoc = z.infer<typeof MethodDocSchema>;

export const LibraryDocSchema = z.discriminatedUnion('kind', [
  InterfaceDocSchema,
  AppDocSchema,
  SkillDocSchema,
  LiveTestsDocSchema,
  MethodDocSchema,
]);
export type LibraryDoc = z.infer<typeof LibraryDocSchema>;
